import Foundation
import JournalFormat
import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The code samples of the ListSync catalog's module page and "Syncing through a server".
@Suite struct DocumentationExampleTests {
  @Test func modulePageExample() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-doc-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let hub = SyncHub(storage: try SyncFileStorage(directory: folder))
    let transport = InProcessSyncTransport(hub: hub)
    let phone = ListReplica<String, String>()
    let client = SyncClient(
      replica: phone, codec: HistoryCodec(), transport: transport,
      endpoint: SyncEndpoint(url: "local:", list: "groceries", token: nil))
    let run = Task { try await client.run() }
    try await client.transaction { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    try await client.waitUntilSynced()

    let laptop = try await SyncClient<String, String>.join(
      transport: transport, endpoint: client.endpoint, codec: HistoryCodec())
    #expect(laptop.replica.snapshot == phone.snapshot)
    #expect(phone.snapshot.itemIdentifiers == ["Apple"])
    run.cancel()
    _ = await run.result
    // The list's file is a replica journal.
    let read = try ListReplica<String, String>.read(path: folder + "/groceries.journal", codec: HistoryCodec())
    #expect(read.commits == phone.commits)
    await hub.shutdown()
  }

  @Test func articleExamples() async throws {
    let fixture = try SyncFixture()
    let codec = SyncFixture.codec
    let path = "/data/phone.journal"
    var options = JournalOptions()
    options.fileSystem = fixture.fileSystem
    _ = try ListReplica<TestSection, TestItem>.create(at: path, codec: codec, options: options)
    let replica = try ListReplica<TestSection, TestItem>.open(at: path, codec: codec, options: options)
    let client = SyncClient(
      replica: replica, codec: codec, transport: fixture.transport,
      endpoint: SyncEndpoint(url: "wss://lists.example.com", list: "groceries", token: nil))
    let sync = Task { try await client.run() }
    try replica.transaction { try $0.appendSections([TestSection("Fruit")]) }
    try await client.transaction(label: "Add Pear") { try $0.appendItems([TestItem("Pear")], toSection: "Fruit") }
    try await client.waitUntilSynced()

    let other = try await SyncClient<TestSection, TestItem>.join(
      transport: fixture.transport, endpoint: client.endpoint, codec: codec)
    let otherRun = Task { try await other.run() }
    try await client.waitUntilSynced()
    try await other.waitUntilSynced()
    try await other.transaction { try $0.appendItems([TestItem("Kiwi")], toSection: "Fruit") }
    try await other.waitUntilSynced()
    var merged: [String] = []
    for await merge in client.merges {
      merged = merge.snapshot.itemIdentifiers
      if merged.contains("Kiwi") { break }
    }
    #expect(merged == ["Pear", "Kiwi"])
    #expect(replica.commits.contains { $0.label == "Add Pear" })
    sync.cancel()
    otherRun.cancel()
    _ = await sync.result
    _ = await otherRun.result
    await fixture.hub.shutdown()
  }
}
