import Foundation
import Testing

/// End-to-end behaviour of the `listjournal` binary beyond single transcripts: persistence
/// across runs, exit codes, acknowledgements, streaming through a pipe, `--help`.
@Suite("listjournal end to end")
struct EndToEndTests {
  @Test func aJournalPersistsAcrossRuns() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a b\n", in: directory)
    #expect(first == .init(stdout: "", stderr: "", status: 0))
    let second = try CLIRunner.run(["exec", "j.journal"], stdin: "move b before a\nundo\nredo\n", in: directory)
    #expect(second.status == 0)
    let show = try CLIRunner.run(["show", "j.journal", "--format", "json"], in: directory)
    #expect(
      show.stdout == """
        {"version": 3, "sections": [{"id": "S", "content": "", "items": [\
        {"id": "b", "content": "", "expanded": false, "children": []}, \
        {"id": "a", "content": "", "expanded": false, "children": []}]}]}

        """)
    let atOne = try CLIRunner.run(["show", "j.journal", "--at", "1"], in: directory)
    #expect(atOne.stdout == "version 1\nS\n")
  }

  @Test(arguments: ["strict", "grouped", "relaxed"])
  func ackPrintsEveryCommittedVersion(_ durability: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = "append-sections S\nbegin\nappend a\nappend b\ncommit\nundo\nappend c\n"
    let result = try CLIRunner.run(["exec", "j.journal", "--ack", "--durability", durability], stdin: script, in: directory)
    #expect(result == .init(stdout: "committed 1\ncommitted 2\ncommitted 3\n", stderr: "", status: 0))
  }

  @Test func execStreamsAndAcknowledgesEachCommitAsItArrives() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let exec = try StreamingExec(journal: directory.appendingPathComponent("j.journal"), durability: "strict")
    defer { exec.terminate() }
    // Each line is acknowledged before the next one is even written: exec does not wait for EOF.
    for (index, line) in ["append-sections S", "append a", "append b"].enumerated() {
      #expect(exec.send(line) == "committed \(index + 1)\n")
    }
    #expect(exec.finish() == 0)
  }

  /// `relaxed` holds commits back and writes them together, but never past waiting for input:
  /// each line through a pipe is written (another process reads it) and acknowledged before
  /// the next one is sent.
  @Test func relaxedExecWritesEachCommitBeforeWaitingForInput() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let exec = try StreamingExec(journal: directory.appendingPathComponent("j.journal"), durability: "relaxed")
    defer { exec.terminate() }
    for (index, line) in ["append-sections S", "append a", "append b"].enumerated() {
      #expect(exec.send(line) == "committed \(index + 1)\n")
      // The writer is still running (and holds the journal's lock): readers see the commit.
      let log = try CLIRunner.run(["log", "j.journal", "--format", "json"], in: directory)
      #expect(log.stdout.contains(#""version": \#(index + 1), "parent": \#(index), "head": true"#), "\(log)")
    }
    #expect(exec.finish() == 0)
  }

  @Test func usageErrorsExitWithTwo() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for arguments in [["exec"], ["show", "j", "--format", "yaml"], ["frobnicate"], ["exec", "j", "--durability", "never"]] {
      let result = try CLIRunner.run(arguments, in: directory)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func userErrorsExitWithOneAndNameWhatIsWrong() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = try CLIRunner.run(["show", "missing.journal"], in: directory)
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: cannot open journal 'missing.journal'"))

    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\n", in: directory)
    let badVersion = try CLIRunner.run(["show", "j.journal", "--at", "7"], in: directory)
    #expect(badVersion == .init(stdout: "", stderr: "error: no version 7 (the journal has versions 0...1)\n", status: 1))
    let badReference = try CLIRunner.run(["show", "j.journal", "--at", "head~5"], in: directory)
    #expect(badReference.status == 1)
    #expect(badReference.stderr.contains("head~5"))
    let notAVersion = try CLIRunner.run(["show", "j.journal", "--at", "tip"], in: directory)
    #expect(notAVersion.stderr == "error: 'tip' is not a version (N, head or head~N)\n")

    try Data("not a journal\n".utf8).write(to: directory.appendingPathComponent("bad.journal"))
    let bad = try CLIRunner.run(["show", "bad.journal"], in: directory)
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("error: "))
  }

  @Test func execReadsAScriptFileAndRejectsAMissingOne() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try "append-sections S\nshow\n".write(to: directory.appendingPathComponent("s.list"), atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["exec", "j.journal", "s.list"], in: directory)
    #expect(result == .init(stdout: "version 1\nS\n", stderr: "", status: 0))
    let missing = try CLIRunner.run(["exec", "j.journal", "nope.list"], in: directory)
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: cannot open script 'nope.list'"))
  }

  @Test func anUnfinishedTransactionAtTheEndIsRolledBack() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nbegin\nappend a\n", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "error: line 3: input ended inside the transaction begun at line 2; it was rolled back\n")
    let show = try CLIRunner.run(["show", "j.journal"], in: directory)
    #expect(show.stdout == "version 1\nS\n")
  }

  @Test(arguments: ["exec", "repl", "show", "log", "diff", "replay", "verify", "info", "compact", "export", "import"])
  func everySubcommandHasHelpWithAnExample(_ name: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run([name, "--help"], in: directory)
    #expect(result.status == 0)
    #expect(result.stdout.contains("Example"), "\(name) --help has no example")
    #expect(result.stdout.contains("listjournal \(name)"))
  }

  @Test func replayAndVerifyReportTheJournal() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a b\nexpand a\n", in: directory)
    let replay = try CLIRunner.run(["replay", "j.journal"], in: directory)
    #expect(replay.status == 0)
    #expect(replay.stdout.contains("versions: 4\n"))
    #expect(replay.stdout.contains("events: 3\n"))
    let replayAgain = try CLIRunner.run(["replay", "j.journal", "--to", "head"], in: directory)
    let digest = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("digest: ") } }
    #expect(digest(replay.stdout) != nil)
    #expect(digest(replay.stdout) == digest(replayAgain.stdout))
    let earlier = try CLIRunner.run(["replay", "j.journal", "--to", "2"], in: directory)
    #expect(digest(earlier.stdout) != digest(replay.stdout))
    let verify = try CLIRunner.run(["verify", "j.journal"], in: directory)
    #expect(verify.status == 0)
  }

  @Test func verifyNamesTheDamagedOffsetAndRepairKeepsTheValidPrefix() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = (0..<40).map { "append-sections S\($0)" }.joined(separator: "\n") + "\n"
    _ = try CLIRunner.run(["exec", "j.journal", "--durability", "strict"], stdin: script, in: directory)
    #expect(try CLIRunner.run(["verify", "j.journal"], in: directory).status == 0)
    let info = try CLIRunner.run(["info", "j.journal"], in: directory)
    #expect(info.stdout.contains("versions: 41 (head 40)"))

    // Damage a byte in the middle: every later chunk is still valid, so this is corruption,
    // not a torn tail.
    let url = directory.appendingPathComponent("j.journal")
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count / 2] ^= 0xFF
    try bytes.write(to: url)
    let verify = try CLIRunner.run(["verify", "j.journal"], in: directory)
    #expect(verify.status == 1)
    #expect(verify.stderr.hasPrefix("error: 'j.journal' is damaged at byte "), "\(verify.stderr)")
    #expect(verify.stderr.contains("last good: version "), "\(verify.stderr)")
    #expect(try CLIRunner.run(["show", "j.journal"], in: directory).status == 1)

    let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: directory)
    #expect(repair.status == 0)
    #expect(repair.stdout.contains("the damaged original is kept at "))
    #expect(try CLIRunner.run(["verify", "j.journal"], in: directory).status == 0)
    let show = try CLIRunner.run(["show", "j.journal"], in: directory)
    #expect(show.status == 0)
    #expect(show.stdout.hasPrefix("version "))
    #expect(show.stdout.contains("S0\n"))
  }

  @Test func compactKeepsEveryVersion() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a b c\nundo\nappend d\n", in: directory)
    let before = try CLIRunner.run(["log", "j.journal", "--format", "json"], in: directory)
    let compact = try CLIRunner.run(["compact", "j.journal"], in: directory)
    #expect(compact.status == 0)
    #expect(compact.stdout.hasPrefix("compacted: "))
    #expect(try CLIRunner.run(["log", "j.journal", "--format", "json"], in: directory) == before)
    #expect(try CLIRunner.run(["show", "j.journal", "--at", "2"], in: directory).stdout == "version 2\nS\n  • a\n  • b\n  • c\n")
  }

  /// The bundled demo journal (the README's walkthrough) still opens with today's reader and
  /// replays to its recorded state; its script regenerates the same history.
  @Test func theBundledGoldenJournalReplaysToItsExpectedState() throws {
    let golden = CLIRunner.packageRoot.appendingPathComponent("Journal/Golden")
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.copyItem(
      at: golden.appendingPathComponent("demo.journal"), to: directory.appendingPathComponent("golden.journal"))
    let expected = try String(contentsOf: golden.appendingPathComponent("demo.expected.json"), encoding: .utf8)
    let replayed = try CLIRunner.run(["show", "golden.journal", "--format", "json"], in: directory)
    #expect(replayed == .init(stdout: expected, stderr: "", status: 0))
    #expect(try CLIRunner.run(["verify", "golden.journal"], in: directory).status == 0)

    let script = golden.appendingPathComponent("demo.list").path
    #expect(try CLIRunner.run(["exec", "fresh.journal", script], in: directory).status == 0)
    #expect(try CLIRunner.run(["show", "fresh.journal", "--format", "json"], in: directory).stdout == expected)
    #expect(
      try CLIRunner.run(["log", "fresh.journal", "--format", "json"], in: directory)
        == CLIRunner.run(["log", "golden.journal", "--format", "json"], in: directory))
  }

  @Test func theReplReadsPlainLinesFromAPipe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(
      ["repl", "r.journal"], stdin: "append-sections S\nappend a\nundo\nshow\nbogus\nredo\n", in: directory)
    #expect(
      result
        == .init(
          stdout: "undid 2 Append Item: insert a\nhead is version 1\nversion 1\nS\nredid 2 Append Item: insert a\nhead is version 2\n",
          stderr: "error: line 5, column 1: unknown command 'bogus' (type `help` for the list)\n", status: 0))
  }
}

/// A running `listjournal exec JOURNAL --ack --durability D` fed one line at a time through a
/// pipe, as an app or a shell pipeline would drive it.
private final class StreamingExec {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()

  init(journal: URL, durability: String) throws {
    process.executableURL = try #require(CLIRunner.binary)
    process.arguments = ["exec", journal.path, "--ack", "--durability", durability]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  /// Writes `line` and returns the next complete line of output (or what came before EOF).
  func send(_ line: String) -> String {
    input.fileHandleForWriting.write(Data("\(line)\n".utf8))
    var received = ""
    while !received.hasSuffix("\n") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      received += String(decoding: data, as: UTF8.self)
    }
    return received
  }

  /// Closes the input and waits for exec to exit; returns its status.
  func finish() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  func terminate() { if process.isRunning { process.terminate() } }
}
