import Foundation
import Testing

/// Messages about the journal file name it once, quoted, and say what is wrong with it.
@Suite("Messages about the journal file")
struct UsageMessageTests {
  @Test func aFileThatIsNotAJournalIsNamedOnce() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try String(repeating: "not a journal\n", count: 10).write(
      to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let expected = "error: 'notes.txt' is not a ListJournal journal (bad magic, or shorter than the 64-byte header)\n"
    for arguments in [["show", "notes.txt"], ["log", "notes.txt"], ["exec", "notes.txt"], ["show", "notes.txt", "--salvage"]] {
      let result = try CLIRunner.run(arguments, in: directory)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stderr == expected, "\(arguments)")
    }
  }
}
