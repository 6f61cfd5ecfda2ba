import Foundation
import ListHistory
import ListJournal
import ListReplica
import ListState
import TestSupport
import Testing

@testable import ListJournalCLI

/// The replica commands end to end, with random edits: replicas edited through `exec` and
/// synced pairwise at random with `sync` hold, after a full exchange, the same commits in the
/// same order and the same list — the one a replica made in memory from those commits, fed in
/// a shuffled order, holds — and show it identically; a further sync moves nothing.
@Suite("Replica commands")
struct ReplicaCLITests {
  typealias TextReplica = ListReplica<TextSection, TextItem>

  @discardableResult
  static func run(_ arguments: [String], stdin: String = "", in directory: URL, expecting status: Int32? = 0) throws
    -> CLIRunner.Result
  {
    let result = try CLIRunner.run(arguments, stdin: stdin, in: directory)
    if let status {
      #expect(result.status == status, "listjournal \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    return result
  }

  /// A random script of list-language lines over a small pool of identifiers: some fail on
  /// purpose (the item is gone, or there already), which `--keep-going` reports and skips.
  static func script(_ random: inout SeededRandom, lines: Int) -> String {
    let pool = (0..<12).map { "i\($0)" }
    func item() -> String { pool[Int(random.next() % UInt64(pool.count))] }
    var script: [String] = []
    for _ in 0..<lines {
      switch random.next() % 12 {
      case 0, 1, 2: script.append("append \(item())")
      case 3: script.append("insert \(item()) after \(item())")
      case 4: script.append("delete \(item())")
      case 5: script.append("move \(item()) before \(item())")
      case 6: script.append("move \(item()) under \(item())")
      case 7: script.append("set \(item()) v\(random.next() % 100)")
      case 8: script.append(random.chance(0.5) ? "expand \(item())" : "collapse \(item())")
      case 9: script.append("undo")
      case 10: script.append("redo")
      default: script += ["begin", "append \(item())", "delete \(item())", "commit"]
      }
    }
    return script.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomEditsAndSyncsConverge(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15)
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.run(["exec", "plain.journal"], stdin: "append-sections S T\nappend i0 i1\n", in: directory)
    try Self.run(["clone", "plain.journal", "r0.journal", "--replica-id", "10", "--list-id", "7"], in: directory)
    let names = ["r0.journal", "r1.journal", "r2.journal"]
    for (index, name) in names.enumerated().dropFirst() {
      try Self.run(["clone", "r0.journal", name, "--replica-id", "\(index + 10)"], in: directory)
    }
    let rounds = SeededRandom.propertySteps(default: 14)
    for _ in 0..<rounds {
      let name = names[Int(random.next() % 3)]
      try Self.run(
        ["exec", name, "--keep-going"], stdin: Self.script(&random, lines: 8), in: directory, expecting: nil)
      if random.chance(0.6) {
        let a = Int(random.next() % 3)
        let b = (a + 1 + Int(random.next() % 2)) % 3
        try Self.run(["sync", names[a], names[b]], in: directory)
      }
    }
    // Full exchange: r0 with each, then each with r0 again.
    for name in names.dropFirst() { try Self.run(["sync", "r0.journal", name], in: directory) }
    for name in names.dropFirst() { try Self.run(["sync", "r0.journal", name], in: directory) }

    // Nothing left to move, both ways, for every pair.
    for (a, b) in [(0, 1), (1, 2), (0, 2)] {
      let again = try Self.run(["sync", names[a], names[b]], in: directory)
      #expect(again.stdout.contains("\(names[a]) → \(names[b]): nothing to send"))
      #expect(again.stdout.contains("\(names[b]) → \(names[a]): nothing to send"))
    }
    // The same list shown everywhere, and the same agreed order.
    let shows = try names.map { try Self.run(["show", $0, "--format", "json"], in: directory).stdout }
    #expect(Set(shows).count == 1, "replicas show different lists: \(shows)")
    let logs = try names.map { name in
      try Self.run(["log", name, "--format", "json"], in: directory).stdout.replacingOccurrences(of: "\"own\": true", with: "\"own\": false")
    }
    #expect(Set(logs).count == 1)

    // The files hold what an in-memory replica folds from their commits, in any order.
    let codec = HistoryCodec<TextSection, TextItem>()
    let contents = try names.map { try TextReplica.read(path: directory.appendingPathComponent($0).path, codec: codec) }
    let reference = TextReplica(replica: ReplicaID(rawValue: 99), listID: contents[0].listID, base: contents[0].base)
    try reference.receive(contents[0].commits.shuffled(using: &random))
    for (name, held) in zip(names, contents) {
      #expect(held.commits == contents[0].commits, "\(name) holds other commits")
      let opened = try TextReplica.open(at: directory.appendingPathComponent(name).path, codec: codec)
      #expect(opened.snapshot == reference.snapshot, "\(name) differs from the commits folded in memory")
      try opened.close()
    }
    // `show --at N` agrees with the prefix of the agreed order, everywhere.
    let count = reference.commitCount
    let position = count / 2
    let prefix = TextReplica(replica: ReplicaID(rawValue: 98), listID: contents[0].listID, base: contents[0].base)
    try prefix.receive(Array(reference.commits.prefix(position)))
    let shownAt = try names.map { try Self.run(["show", $0, "--at", "\(position)", "--format", "json"], in: directory).stdout }
    #expect(Set(shownAt).count == 1)
    #expect(shownAt[0].contains("\"version\": \(position),"))
    for id in prefix.snapshot.itemIdentifiers { #expect(shownAt[0].contains("\"id\": \"\(id)\"")) }
  }

  /// The REPL on a replica journal: each line one commit; undo and redo name the edit they
  /// undid or redid, and checkout is refused.
  @Test func replUndoesOwnEdits() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.run(["exec", "plain.journal"], stdin: "append-sections S\n", in: directory)
    try Self.run(["clone", "plain.journal", "a.journal", "--replica-id", "a1"], in: directory)
    let result = try Self.run(
      ["repl", "a.journal"], stdin: "append x y\nset x hello\nundo\nredo\nundo 2\ncheckout 0\nshow\nlog\n", in: directory)
    #expect(
      result.stdout
        == [
          "undid 2 Edit Item: set x", "head is version 3", "redid 2 Edit Item: set x", "head is version 4",
          "undid 4 Edit Item: set x", "undid 1 Append 2 Items: insert x y", "head is version 6", "version 6", "S",
          "* 1  00000000000000a1:1  clock 1  2023-11-14T22:13:20Z  Append 2 Items  (1 op: insert x y)",
          "* 2  00000000000000a1:2  clock 2  2023-11-14T22:13:20Z  Edit Item  (1 op: set x)",
          "* 3  00000000000000a1:3  clock 3  2023-11-14T22:13:20Z  Edit Item, undo of 00000000000000a1:2  (1 op: set x)",
          "* 4  00000000000000a1:4  clock 4  2023-11-14T22:13:20Z  Edit Item, redo of 00000000000000a1:3  (1 op: set x)",
          "* 5  00000000000000a1:5  clock 5  2023-11-14T22:13:20Z  Edit Item, undo of 00000000000000a1:4  (1 op: set x)",
          "* 6  00000000000000a1:6  clock 6  2023-11-14T22:13:20Z  Append 2 Items, undo of 00000000000000a1:1  (2 ops: delete y; delete x)",
          "",
        ].joined(separator: "\n"))
    #expect(result.stderr.contains("a replica has no undo tree to check out"))
  }

  /// Plain stores refuse a replica journal; the CLI routes it to the replica commands.
  @Test func libraryRefusesWhatTheCLIOpens() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.run(["exec", "plain.journal"], stdin: "append-sections S\nappend a\n", in: directory)
    try Self.run(["clone", "plain.journal", "a.journal"], in: directory)
    let path = directory.appendingPathComponent("a.journal").path
    #expect(throws: JournalStoreError.replicaJournal(path: path)) {
      try JournalStore<TextSection, TextItem>.open(at: path, codec: HistoryCodec(), configuration: .init())
    }
    let shown = try Self.run(["show", "a.journal"], in: directory)
    #expect(shown.stdout == "version 0\nS\n  • a\n")
  }

  /// Another app's journal becomes a shared list through the CLI, which reads and syncs it
  /// with generic values: the app still opens every replica with its own types, sees the
  /// commits the CLI carried over, and the CLI refuses to edit it with its text elements.
  @Test func anotherAppsReplicasSyncThroughTheCLI() throws {
    typealias AppReplica = ListReplica<Int, ForeignJournalTests.Task>
    typealias Task = ForeignJournalTests.Task
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    try ForeignJournalTests.writeJournal(at: path("app.journal"))
    try Self.run(["clone", "app.journal", "a.journal", "--replica-id", "a1"], in: directory)
    try Self.run(["clone", "a.journal", "b.journal", "--replica-id", "b2"], in: directory)

    // Each side edits with the app's own types.
    let phone = try AppReplica.open(at: path("a.journal"), codec: HistoryCodec())
    try phone.transaction(label: "Bread") { try $0.appendItems([Task(id: 4, title: "Bread", done: false)], toSection: 2024) }
    try phone.close()
    let laptop = try AppReplica.open(at: path("b.journal"), codec: HistoryCodec())
    try laptop.transaction(label: "Eggs") { try $0.updateItem(Task(id: 2, title: "Eggs", done: false)) }
    try laptop.close()

    let sync = try Self.run(["sync", "a.journal", "b.journal"], in: directory)
    #expect(sync.stdout.contains("a.journal → b.journal: 1 commit ("))
    #expect(sync.stdout.contains("b.journal → a.journal: 1 commit ("))
    let shows = try ["a.journal", "b.journal"].map { try Self.run(["show", $0], in: directory).stdout }
    #expect(shows[0] == shows[1])
    #expect(shows[0].contains("• 4 \"{\\\"title\\\":\\\"Bread\\\",\\\"done\\\":false}\""))

    // The app reads what the CLI wrote, with its own types.
    let a = try AppReplica.open(at: path("a.journal"), codec: HistoryCodec())
    let b = try AppReplica.open(at: path("b.journal"), codec: HistoryCodec())
    #expect(a.snapshot == b.snapshot)
    #expect(a.snapshot.item(4) == Task(id: 4, title: "Bread", done: false))
    #expect(a.snapshot.item(2) == Task(id: 2, title: "Eggs", done: false))
    #expect(a.commitCount == 2)
    try a.close()
    try b.close()

    let edit = try Self.run(["exec", "a.journal"], stdin: "append x\n", in: directory, expecting: 1)
    #expect(edit.stderr.contains("written by another app"), "\(edit.stderr)")
  }

  /// A replica journal open for writing elsewhere is refused by name, not edited or synced.
  @Test func lockedReplicaIsRefused() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.run(["exec", "plain.journal"], stdin: "append-sections S\n", in: directory)
    try Self.run(["clone", "plain.journal", "a.journal"], in: directory)
    try Self.run(["clone", "a.journal", "b.journal"], in: directory)
    let holder = try TextReplica.open(at: directory.appendingPathComponent("a.journal").path, codec: HistoryCodec())
    defer { try? holder.close() }
    for arguments in [["exec", "a.journal"], ["sync", "b.journal", "a.journal"]] {
      let result = try Self.run(arguments, stdin: "append x\n", in: directory, expecting: 1)
      #expect(result.stderr == "error: 'a.journal' is open for writing by another process\n")
    }
    #expect(try Self.run(["show", "a.journal"], in: directory).stdout == "version 0\nS\n")
  }
}
