import Foundation
import Testing

/// Read commands print the same whether they open a journal through its read index or replay
/// it: with the index, without it, and with an index that no longer describes the journal.
@Suite("read index", .serialized)
struct ReadIndexCLITests {
  /// A random list-language script: sections, nested items, moves, contents, expansion,
  /// replaces, transactions, undo and redo (some commands fail; `exec --keep-going` goes on).
  static func randomScript(seed: UInt64, lines: Int) -> String {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(bound))
    }
    var items: [String] = []
    var counter = 0
    var script = ["append-sections S T"]
    func some() -> String { items.isEmpty ? "none" : items[next(items.count)] }
    func fresh() -> String {
      counter += 1
      let id = "i\(counter)"
      items.append(id)
      return id
    }
    while script.count < lines {
      switch next(100) {
      case 0..<14: script.append("append \(fresh()) \(fresh()) to \(next(2) == 0 ? "S" : "T")")
      case 14..<22: script.append("append \(fresh()) under \(some())")
      case 22..<28: script.append("insert \(fresh()) \(next(2) == 0 ? "before" : "after") \(some())")
      case 28..<34:
        let id = some()
        script.append("delete \(id)")
        items.removeAll { $0 == id }
      case 34..<46: script.append("move \(some()) \(["before", "after", "under"][next(3)]) \(some())")
      case 46..<50: script.append("move \(some()) to \(next(2) == 0 ? "S" : "T")")
      case 50..<62: script.append("set \(some()) \"v\(next(5))\(next(2) == 0 ? " x" : "")\"")
      case 62..<70: script.append("\(next(2) == 0 ? "expand" : "collapse") \(some())")
      case 70..<74:
        let old = some()
        let new = "r\(counter)"
        counter += 1
        script.append("replace \(old) with \(new) \"\(next(3))\"")
        items.removeAll { $0 == old }
        items.append(new)
      case 74..<76: script.append("set-section \(next(2) == 0 ? "S" : "T") \"h\(next(4))\"")
      case 76..<78: script.append("reload \(some())")
      case 78..<82:
        script.append("begin")
        script.append("append \(fresh()) to S")
        script.append("set \(some()) \"t\(next(9))\"")
        script.append("move \(some()) after \(some())")
        script.append("commit")
      case 82..<90: script.append("undo \(1 + next(2))")
      case 90..<96: script.append("redo")
      default: script.append("set \(some()) \"same\"")
      }
    }
    return script.joined(separator: "\n") + "\n"
  }

  /// Runs `commands` on `journal` with its index, without it, and with a stale or damaged one;
  /// every run must print the same.
  static func expectSameOutputs(_ commands: [[String]], journal: String, in directory: URL) throws {
    let index = directory.appendingPathComponent(journal + ".index")
    let aside = directory.appendingPathComponent("aside.index")
    #expect(FileManager.default.fileExists(atPath: index.path), "exec wrote no index")
    let original = try Data(contentsOf: index)
    for command in commands {
      let arguments = [command[0], journal] + command.dropFirst()
      let indexed = try CLIRunner.run(arguments, in: directory)
      try FileManager.default.moveItem(at: index, to: aside)
      let replayed = try CLIRunner.run(arguments, in: directory)
      var damaged = original
      damaged[damaged.count / 2] ^= 0x40
      try damaged.write(to: index)
      let withDamage = try CLIRunner.run(arguments, in: directory)
      try FileManager.default.removeItem(at: index)
      try FileManager.default.moveItem(at: aside, to: index)
      #expect(indexed == replayed, "\(arguments.joined(separator: " ")): with the index and without differ")
      #expect(withDamage == replayed, "\(arguments.joined(separator: " ")): with a damaged index and without differ")
      if indexed != replayed {
        Issue.record("with the index:\n\(indexed.stdout)\(indexed.stderr)\nwithout:\n\(replayed.stdout)\(replayed.stderr)")
      }
    }
  }

  static func versionCount(of journal: String, in directory: URL) throws -> Int {
    let info = try CLIRunner.run(["info", journal], in: directory)
    let line = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("versions: ") })
    return try #require(Int(line.dropFirst("versions: ".count).prefix { $0.isNumber }))
  }

  /// The read commands over a journal of `versions` versions: everything for a short one.
  static func readCommands(versions: Int, seed: UInt64) -> [[String]] {
    var commands: [[String]] = [
      ["info"], ["show"], ["show", "--format", "json"], ["log"], ["log", "--graph"], ["log", "--format", "json"],
      ["log", "--limit", "1"], ["log", "--limit", "3"], ["log", "--limit", "3", "--graph"],
      ["log", "--limit", "2", "--format", "json"], ["log", "--limit", "\(versions + 5)"],
      ["show", "--at", "head~1"], ["show", "--at", "head~3", "--format", "json"], ["diff", "head~1", "head"],
      ["diff", "head", "head~2", "--format", "json"], ["show", "--at", "\(versions + 3)"], ["show", "--at", "head~\(versions + 1)"],
    ]
    var random = seed | 1
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    for _ in 0..<8 { commands.append(["show", "--at", "\(next(versions))"]) }
    for _ in 0..<8 { commands.append(["diff", "\(next(versions))", "\(next(versions))"]) }
    return commands
  }

  @Test func demoJournalReadsAlike() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let demo = CLIRunner.packageRoot.appendingPathComponent("Journal/Golden/demo.list")
    #expect(try CLIRunner.run(["exec", "demo.journal", demo.path], in: directory).status == 0)
    var commands = Self.readCommands(versions: 12, seed: 1)
    for version in 0..<12 { commands.append(["show", "--at", "\(version)"]) }
    for (from, to) in [(8, 11), (11, 8), (0, 11), (7, 9), (9, 8), (5, 6)] { commands.append(["diff", "\(from)", "\(to)"]) }
    try Self.expectSameOutputs(commands, journal: "demo.journal", in: directory)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomJournalsReadAlike(seed: UInt64) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.randomScript(seed: seed, lines: 150).write(
      to: directory.appendingPathComponent("script.list"), atomically: true, encoding: .utf8)
    _ = try CLIRunner.run(["exec", "r.journal", "script.list", "--keep-going"], in: directory)
    let versions = try Self.versionCount(of: "r.journal", in: directory)
    #expect(versions > 40)
    var commands = Self.readCommands(versions: versions, seed: seed)
    // Near the head every pair of the last versions, where the index answers diffs itself.
    for back in 0..<6 { commands.append(["diff", "head~\(back + 1)", "head~\(back)"]) }
    for back in 0..<4 { commands.append(["diff", "head", "head~\(back + 2)"]) }
    try Self.expectSameOutputs(commands, journal: "r.journal", in: directory)
  }

  /// More versions than the index holds events of: the newest are shown from the index, older
  /// ones by a replay, and `log --limit` beyond the indexed versions replays too.
  @Test func aLongJournalReadsAlikeNearAndFarFromTheHead() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.randomScript(seed: 9, lines: 3_000).write(
      to: directory.appendingPathComponent("script.list"), atomically: true, encoding: .utf8)
    _ = try CLIRunner.run(["exec", "long.journal", "script.list", "--keep-going"], in: directory)
    let versions = try Self.versionCount(of: "long.journal", in: directory)
    #expect(versions > 1_100)
    let commands: [[String]] = [
      ["info"], ["show"], ["log", "--limit", "20"], ["log", "--limit", "1030"], ["log", "--limit", "20", "--graph"],
      ["show", "--at", "head~1"], ["show", "--at", "head~500"], ["show", "--at", "3"], ["show", "--at", "\(versions / 2)"],
      ["diff", "head~1", "head"], ["diff", "head~20", "head~3"], ["diff", "2", "head"], ["diff", "head", "\(versions / 3)"],
    ]
    try Self.expectSameOutputs(commands, journal: "long.journal", in: directory)
  }

  /// `log --limit N` prints the last N lines of `log`, in every format.
  @Test func logLimitIsTheTailOfTheLog() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let demo = CLIRunner.packageRoot.appendingPathComponent("Journal/Golden/demo.list")
    _ = try CLIRunner.run(["exec", "demo.journal", demo.path], in: directory)
    let full = try CLIRunner.run(["log", "demo.journal"], in: directory).stdout.split(separator: "\n")
    for limit in [1, 4, 12, 50] {
      let tail = try CLIRunner.run(["log", "demo.journal", "--limit", "\(limit)"], in: directory).stdout.split(separator: "\n")
      #expect(tail == Array(full.suffix(limit)))
    }
    let zero = try CLIRunner.run(["log", "demo.journal", "--limit", "0"], in: directory)
    #expect(zero.status == 2)
    #expect(zero.stderr.hasPrefix("error: --limit must be at least 1"))
  }

  /// `verify` builds a missing index; the next read uses it and prints the same.
  @Test func verifyWritesTheIndexOfAJournalThatHasNone() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let demo = CLIRunner.packageRoot.appendingPathComponent("Journal/Golden/demo.list")
    _ = try CLIRunner.run(["exec", "demo.journal", demo.path], in: directory)
    let index = directory.appendingPathComponent("demo.journal.index")
    let before = try CLIRunner.run(["show", "demo.journal"], in: directory)
    try FileManager.default.removeItem(at: index)
    let verify = try CLIRunner.run(["verify", "demo.journal"], in: directory)
    #expect(verify.status == 0)
    #expect(verify.stdout.hasSuffix("read index written: demo.journal.index\n"))
    #expect(FileManager.default.fileExists(atPath: index.path))
    #expect(try CLIRunner.run(["show", "demo.journal"], in: directory) == before)
    // Up to date: left alone, nothing said.
    #expect(!(try CLIRunner.run(["verify", "demo.journal"], in: directory).stdout.contains("read index")))
  }
}
