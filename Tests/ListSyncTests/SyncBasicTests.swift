import JournalFormat
import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The basic path: hello → welcome → catch-up; push → ack → fan-out; join from the server.
@Suite struct SyncBasicTests {
  @Test func twoClientsExchangeThroughTheHub() async throws {
    let fixture = try SyncFixture()
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 42)
    let laptop = Replica(cloning: phone, replica: ReplicaID(rawValue: 2))
    try phone.transaction { tx in
      try tx.appendSections([TestSection("Fruit")])
      try tx.appendItems([TestItem("Apple")])
    }
    let phoneRunner = Runner(fixture.client(phone))
    let laptopRunner = Runner(fixture.client(laptop))
    try await withDeadline("first sync") {
      try await phoneRunner.client.waitUntilSynced()
      try await laptopRunner.client.waitUntilSynced()
    }
    #expect(laptop.snapshot == phone.snapshot)
    _ = try await laptopRunner.client.transaction { tx in try tx.appendItems([TestItem("Pear")], toSection: "Fruit") }
    try await withDeadline("second sync") {
      try await laptopRunner.client.waitUntilSynced()
      try await phoneRunner.client.waitUntilSynced()
    }
    #expect(phone.snapshot.itemIdentifiers == ["Apple", "Pear"])
    #expect(laptop.snapshot == phone.snapshot)
    let joined = try await withDeadline("join") {
      try await Client.join(transport: fixture.transport, endpoint: SyncEndpoint(url: "local:", list: "groceries", token: nil), codec: SyncFixture.codec)
    }
    #expect(joined.replica.snapshot == phone.snapshot)
    #expect(joined.replica.listID == 42)
    await phoneRunner.stop()
    await laptopRunner.stop()
    await fixture.hub.shutdown()
  }
}
