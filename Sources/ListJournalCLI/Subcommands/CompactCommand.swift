import ArgumentParser
import JournalFormat

/// `listjournal compact JOURNAL`.
struct CompactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact",
    abstract: "Rewrite the journal atomically, recompressing its frames at a higher level.",
    discussion: """
      Refuses while a writer holds the journal; the original stays untouched if anything fails.

      Example:
        listjournal compact todo.journal --level 19
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "zstd level for the rewritten frames (1…22).")
  var level: Int32 = 19

  func validate() throws {
    guard (1...22).contains(level) else {
      throw ValidationError("--level must be a zstd level from 1 to 22, not \(level)")
    }
  }

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      try ReplicaJournals.refuse(journal, command: "compact", because: "rewrites a single-writer history; a replica keeps every commit it exchanged")
      do throws(JournalError) {
        let bar = ProgressBar.onStandardError(label: "compacting", showingAfter: 0.25)
        defer { bar?.finish() }
        let report = try JournalCompactor.compact(
          at: journal, level: level, progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } })
        OutputStream.standardOutput.writeLine(
          "compacted: \(report.bytesBefore) → \(report.bytesAfter) bytes, \(report.recordsAfter) records")
      } catch {
        throw ListLanguageError(message: _StoreJournalSession.describe(error, path: journal))
      }
    }
  }
}
