import ArgumentParser
import Foundation
import ListJournal

/// `listjournal import JSONL JOURNAL`.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Build a new journal from JSON lines written by `export`.",
    discussion: """
      Each line's "kind", "version" and "payload" (the record's bytes, base64) are used; the \
      new journal is replayed before the command succeeds. A malformed line is named \
      (`error: line N: …`) and nothing is created. JOURNAL must not exist yet.

      Example:
        listjournal import todo.jsonl copy.journal
      """)

  @Argument(help: "The JSON-lines file.")
  var jsonl: String

  @Argument(help: "The journal to create.")
  var journal: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      guard FileManager.default.isReadableFile(atPath: jsonl) else {
        throw ListLanguageError(message: "cannot read '\(jsonl)'")
      }
      guard !FileManager.default.fileExists(atPath: journal) else {
        throw ListLanguageError(message: "'\(journal)' already exists; import creates a new journal")
      }
      // The line of each record, to name the line of a record that does not replay.
      var recordLines: [Int] = []
      let count: Int
      do throws(JournalStoreError) {
        let bar = ProgressBar.onStandardError(label: "importing", unit: "steps", showingAfter: 0.25)
        defer { bar?.finish() }
        count = try JournalMaintenance.importJSONLines(
          from: jsonl, toJournalAt: journal, recordLines: &recordLines,
          progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } })
      } catch {
        throw Self.describe(error, input: jsonl, recordLines: recordLines)
      }
      OutputStream.standardOutput.writeLine("imported \(count) records into \(journal)")
    }
  }

  /// `line N: reason` for a malformed line (the library names it `PATH:N: reason`) or a record
  /// that does not replay (named by its sequence number, the Nth record).
  static func describe(_ error: JournalStoreError, input: String, recordLines: [Int]) -> ListLanguageError {
    switch error {
    case .unsupported(let message) where message.hasPrefix(input + ":"):
      let rest = message.dropFirst(input.count + 1)
      if let colon = rest.firstIndex(of: ":"), let line = Int(rest[..<colon]) {
        return ListLanguageError(line: line, message: String(rest[rest.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
      }
      return ListLanguageError(message: message)
    case .invalidRecord(_, let sequence, let version, let reason) where sequence >= 1 && Int(sequence) <= recordLines.count:
      return ListLanguageError(
        line: recordLines[Int(sequence) - 1], message: "record #\(sequence) (version \(version)) does not replay: \(reason)")
    default:
      return ListLanguageError(message: "cannot import '\(input)': \(error)")
    }
  }
}
