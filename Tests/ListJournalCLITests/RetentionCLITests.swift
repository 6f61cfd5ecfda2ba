import Foundation
import ListJournal
import Testing

/// `listjournal compact --keep-last / --keep-since`, run as a user would: what it prints, what
/// the trimmed journal shows, and that killing it mid-way leaves the old or the new journal.
@Suite struct RetentionCLITests {
  static let script = """
    append-sections S
    append a1 to S
    append a2 to S
    append a3 to S
    undo
    append b1 to S
    append b2 to S
    append b3 to S
    append b4 to S

    """

  @Test func keepLastDropsTheOlderHistoryAndSaysSo() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: Self.script, in: directory).status == 0)
    let before = try CLIRunner.run(["show", "j.journal"], in: directory)

    let compacted = try CLIRunner.run(["compact", "j.journal", "--keep-last", "3"], in: directory)
    #expect(compacted.status == 0, "\(compacted.stderr)")
    #expect(compacted.stdout.hasSuffix("; dropped 4 versions, history starts at version 5\n"), "\(compacted.stdout)")
    #expect(try CLIRunner.run(["show", "j.journal"], in: directory) == before)

    let log = try CLIRunner.run(["log", "j.journal"], in: directory).stdout
    let lines = log.split(separator: "\n").map { String($0) }
    #expect(lines.count == 6, "\(log)")
    #expect(lines[1] == "  ✗ versions 1...4 dropped from the history by compaction")
    #expect(lines[2].hasPrefix("  5  ← ?") && lines[2].contains("(the kept history starts here; older versions were dropped)"))
    #expect(lines[3].hasPrefix("  6  ← 5") && lines[3].contains("insert b2"))
    #expect(try CLIRunner.run(["info", "j.journal"], in: directory).stdout
      .contains("history: starts at version 5 (older versions were dropped by compaction)\n"))

    let dropped = try CLIRunner.run(["show", "j.journal", "--at", "2"], in: directory)
    #expect(dropped.status != 0)
    #expect(dropped.stderr == "error: version 2 was dropped from the journal's history, which now starts at version 5\n")
    let kept = try CLIRunner.run(["show", "j.journal", "--at", "5"], in: directory)
    #expect(kept.stdout == "version 5\nS\n  • a1\n  • a2\n  • b1\n")

    let tooFar = try CLIRunner.run(["exec", "j.journal"], stdin: "undo 4\n", in: directory)
    #expect(tooFar.stderr.contains("cannot undo 4: only 3 version(s) before the head; older versions were dropped"), "\(tooFar.stderr)")
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: "undo 3\n", in: directory).status == 0)
    let atStart = try CLIRunner.run(["exec", "j.journal"], stdin: "undo\n", in: directory)
    #expect(atStart.stderr.contains("nothing to undo: the journal's history starts at version 5 (older versions were dropped)"), "\(atStart.stderr)")
  }

  @Test func keepSinceTakesDatesAndAgesAndRefusesTheRest() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: Self.script, in: directory).status == 0)
    let before = try Data(contentsOf: directory.appendingPathComponent("j.journal"))
    for bad in ["yesterday", "2026-13-01", "2026-11-01T10:00", "3x"] {
      let result = try CLIRunner.run(["compact", "j.journal", "--keep-since", bad], in: directory)
      #expect(result.status != 0 && result.stderr.contains("--keep-since: '\(bad)' is not"), "\(bad): \(result.stderr)")
    }
    let both = try CLIRunner.run(["compact", "j.journal", "--keep-last", "2", "--keep-since", "1d"], in: directory)
    #expect(both.status != 0 && both.stderr.contains("give --keep-last or --keep-since, not both"))
    #expect(try Data(contentsOf: directory.appendingPathComponent("j.journal")) == before, "refusals leave the journal")

    // The runner commits at SOURCE_DATE_EPOCH (2023-11-14T22:13:20Z): the day before keeps it
    // all, the moment after keeps the head only.
    let all = try CLIRunner.run(["compact", "j.journal", "--keep-since", "2023-11-14"], in: directory)
    #expect(all.stdout.hasSuffix("; no history dropped\n"), "\(all.stdout) \(all.stderr)")
    let future = try CLIRunner.run(["compact", "j.journal", "--keep-since", "2023-11-14T22:13:21Z"], in: directory)
    #expect(future.stdout.hasSuffix("; dropped 7 versions, history starts at version 8\n"), "\(future.stdout) \(future.stderr)")
    let log = try CLIRunner.run(["log", "j.journal"], in: directory).stdout
    #expect(log.split(separator: "\n").count == 3, "\(log)")
  }

  @Test func aCutThatWouldDropTheHeadIsRefused() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: Self.script + "checkout 2\n", in: directory).status == 0)
    let before = try Data(contentsOf: directory.appendingPathComponent("j.journal"))
    let refused = try CLIRunner.run(["compact", "j.journal", "--keep-last", "3"], in: directory)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("the head v2 would be dropped with the history: it does not descend from v5"), "\(refused.stderr)")
    #expect(try Data(contentsOf: directory.appendingPathComponent("j.journal")) == before)
  }

  /// SIGKILL at random moments of a trimming compaction: the journal is the old one, byte for
  /// byte, or the trimmed one with the same head; never neither, never a torn file.
  @Test func killingACompactionLeavesTheOldOrTheNewJournal() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Long enough that kills land inside the trim, short enough for the invariant-checking
    // debug build, whose per-operation checks make building and trimming it quadratic.
    var lines = "append-sections S\n"
    for index in 0..<1_500 {
      lines += index % 7 == 6 ? "undo\n" : "append i\(index) to S\n"
    }
    let made = try CLIRunner.run(["exec", "original.journal", "--durability", "relaxed"], stdin: lines, in: directory)
    #expect(made.status == 0, "\(made.stderr)")
    let original = directory.appendingPathComponent("original.journal")
    let work = directory.appendingPathComponent("work.journal")
    let originalBytes = try Data(contentsOf: original)
    let head = try CLIRunner.run(["show", "original.journal"], in: directory).stdout

    // How long an uninterrupted trim takes, to spread the kills over it.
    try FileManager.default.copyItem(at: original, to: work)
    let started = Date()
    let full = try CLIRunner.run(["compact", "work.journal", "--keep-last", "50", "--level", "19"], in: directory)
    #expect(full.status == 0, "\(full.stderr)")
    let duration = Date().timeIntervalSince(started)
    let trimmedBytes = try Data(contentsOf: work)

    var outcomes = (old: 0, new: 0)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<12 {
      try? FileManager.default.removeItem(at: work)
      try FileManager.default.copyItem(at: original, to: work)
      let process = Process()
      process.executableURL = try #require(CLIRunner.binary)
      process.arguments = ["compact", work.path, "--keep-last", "50", "--level", "19"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let bytes = try Data(contentsOf: work)
      if bytes == originalBytes {
        outcomes.old += 1
      } else {
        #expect(bytes.count == trimmedBytes.count, "a killed compaction left a file that is neither")
        let info = try CLIRunner.run(["info", "work.journal"], in: directory).stdout
        #expect(info.contains("history: starts at version"), "\(info)")
        outcomes.new += 1
      }
      #expect(try CLIRunner.run(["show", "work.journal"], in: directory).stdout == head)
      // Nothing holds the journal: it takes a commit.
      #expect(try CLIRunner.run(["exec", "work.journal"], stdin: "append after-kill to S\n", in: directory).status == 0)
    }
    #expect(outcomes.old + outcomes.new == 12)
  }
}
