import Foundation
import ListHistory
import ListReplica
import ListState
import Testing

/// The code samples of the ListReplica catalog's module page and Merging article (the rule
/// examples themselves are `ReplicaMergeRuleTests`).
@Suite struct DocumentationExampleTests {
  @Test func modulePageExample() throws {
    let phone = ListReplica<String, String>()
    let laptop = ListReplica<String, String>(cloning: phone)
    try phone.transaction { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    try laptop.receive(phone.changes(since: laptop.versionVector))
    try laptop.transaction { try $0.appendItems(["Pear"]) }
    try phone.transaction { try $0.deleteItems(["Apple"]) }
    try phone.receive(laptop.changes(since: phone.versionVector))
    try laptop.receive(phone.changes(since: laptop.versionVector))
    #expect(phone.snapshot == laptop.snapshot)
    #expect(phone.snapshot.itemIdentifiers(inSection: "Fruit") == ["Pear"])
  }

  @Test func overridesOfThisReplicaExample() throws {
    let configuration = ListReplicaConfiguration(clock: { 1_800_000_000 })
    let phone = ListReplica<String, String>(replica: ReplicaID(rawValue: 2), configuration: configuration)
    try phone.transaction { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple", "Pear"]) }
    let laptop = ListReplica<String, String>(cloning: phone, replica: ReplicaID(rawValue: 1), configuration: configuration)
    try laptop.transaction { try $0.deleteItems(["Pear"]) }
    try phone.transaction { try $0.insertItems(["Kiwi"], afterItem: "Pear") }
    let merge = try phone.receive(laptop.changes(since: phone.versionVector))
    var lines: [String] = []
    for override in merge.overrides where override.commit.replica == phone.replicaID {
      lines.append("your change to \(override.subject) was overridden: \(override.reason)")
    }
    #expect(lines == ["your change to item Kiwi was overridden: its neighbour was deleted"])
    #expect(merge.rebased == 1)
  }

  /// README's "one list edited on several devices" example, on files.
  @Test func readmeExample() throws {
    struct Row: ListElement, Codable, Hashable { let id: String; var title: String }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let codec = HistoryCodec<String, Row>()
    let phone = try ListReplica<String, Row>.create(at: directory.appendingPathComponent("phone.journal").path, codec: codec)
    let laptop = try ListReplica<String, Row>.create(
      at: directory.appendingPathComponent("laptop.journal").path, cloning: phone, codec: codec)
    try phone.transaction { tx in try tx.appendSections(["Inbox"]) }
    try laptop.receive(phone.batch(since: laptop.versionVector, codec: codec), codec: codec)
    try laptop.transaction { tx in try tx.appendItems([Row(id: "a", title: "Groceries")]) }
    try phone.transaction { tx in try tx.appendItems([Row(id: "b", title: "Taxes")], toSection: "Inbox") }
    let merge = try phone.receive(laptop.batch(since: phone.versionVector, codec: codec), codec: codec)
    #expect(merge.changeset.stages.reduce(0) { $0 + $1.itemInserts.count } == 1)   // "a" appears on the phone
    try phone.undo()
    try laptop.receive(phone.batch(since: laptop.versionVector, codec: codec), codec: codec)
    #expect(phone.snapshot.itemIdentifiers == ["a"])
    #expect(laptop.snapshot == phone.snapshot)
  }
}
