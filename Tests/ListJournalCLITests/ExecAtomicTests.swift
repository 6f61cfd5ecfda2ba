import Foundation
import Testing

/// `exec --atomic` and `exec --dry-run` on a journal that already has versions: a failing
/// atomic script and any dry run leave its bytes exactly as they were.
@Suite("exec --atomic and --dry-run")
struct ExecAtomicTests {
  private func journalWithTwoVersions() throws -> (URL, Data) {
    let directory = try CLIRunner.temporaryDirectory()
    let setup = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a b\n", in: directory)
    #expect(setup.status == 0)
    return (directory, try Data(contentsOf: directory.appendingPathComponent("j.journal")))
  }

  @Test func aFailingAtomicScriptWritesNothing() throws {
    let (directory, before) = try journalWithTwoVersions()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(
      ["exec", "j.journal", "--atomic"], stdin: "append c\nbegin\nappend d\ncommit\ndelete ghost\nappend e\n", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "error: line 5: unknown items: 'ghost' (--atomic: nothing was written)\n")
    #expect(try Data(contentsOf: directory.appendingPathComponent("j.journal")) == before)
  }

  @Test func anAtomicScriptLeftInsideItsBeginWritesNothing() throws {
    let (directory, before) = try journalWithTwoVersions()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(["exec", "j.journal", "--atomic"], stdin: "append c\nbegin\nappend d\n", in: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "error: line 3: input ended inside the transaction begun at line 2 (--atomic: nothing was written)\n")
    #expect(try Data(contentsOf: directory.appendingPathComponent("j.journal")) == before)
  }

  @Test func aSucceedingAtomicScriptIsOneVersion() throws {
    let (directory, _) = try journalWithTwoVersions()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try CLIRunner.run(["exec", "j.journal", "--atomic", "--ack"], stdin: "append c\nshow\nappend d\n", in: directory)
    #expect(result == .init(stdout: "version 2\nS\n  • a\n  • b\n  • c\ncommitted 3\n", stderr: "", status: 0))
    let show = try CLIRunner.run(["show", "j.journal", "--at", "2"], in: directory)
    #expect(show.stdout == "version 2\nS\n  • a\n  • b\n")
  }

  @Test func aDryRunLeavesTheJournalAsItWas() throws {
    let (directory, before) = try journalWithTwoVersions()
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = try CLIRunner.run(["exec", "j.journal", "--dry-run"], stdin: "append c\nundo 2\ncheckout 3\nappend d\n", in: directory)
    #expect(good == .init(stdout: "dry run: no errors, 2 new versions; nothing was written\n", stderr: "", status: 0))
    let bad = try CLIRunner.run(["exec", "j.journal", "--dry-run"], stdin: "append c\nappend a\n", in: directory)
    #expect(bad.status == 1)
    #expect(bad.stderr == "error: line 2: items already in the list: 'a'\n")
    #expect(try Data(contentsOf: directory.appendingPathComponent("j.journal")) == before)
  }
}
