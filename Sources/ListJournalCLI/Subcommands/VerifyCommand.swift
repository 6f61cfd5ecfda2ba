import ArgumentParser
import JournalFormat
import ListJournal

/// `listjournal verify JOURNAL [--repair]`.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check checksums, replay everything and check invariants; exit 0 if sound, 1 if not.",
    discussion: """
      Any app's journal is checked (decoded generically). Names the first bad byte offset and
      version. --repair keeps the valid prefix and sets the
      original aside. A sound journal whose read index (JOURNAL.index, which lets show, log,
      diff and info skip replaying it) is missing or out of date gets a new one.

      Example:
        listjournal verify todo.journal || listjournal verify todo.journal --repair
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Flag(help: "Keep the valid prefix (the original is kept aside).")
  var repair = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let out = OutputStream.standardOutput
      if repair {
        do {
          let report = try JournalRepair.repair(at: journal)
          out.writeLine("repaired: kept \(report.keptBytes) bytes (\(report.recordCount) records, last good version \(report.lastGoodVersion.map(String.init) ?? "none")), dropped \(report.droppedBytes) bytes")
          if let copy = report.damagedCopyPath { out.writeLine("the damaged original is kept at \(copy)") }
        } catch {
          throw ListLanguageError(message: "cannot repair '\(journal)': \(error)")
        }
        return
      }
      // 1. Checksums and framing of every chunk.
      let reader: JournalReader
      do throws(JournalError) {
        reader = try JournalReader.open(at: journal, tolerateCorruption: true)
      } catch {
        throw ListLanguageError(message: _StoreJournalSession.describe(error, path: journal))
      }
      if let corruption = reader.recovery.corruption {
        throw ListLanguageError(message: "'\(journal)' is damaged: \(corruption) (run `listjournal verify \(journal) --repair` to keep the valid prefix)")
      }
      if reader.recovery.tornTailBytes > 0 {
        out.writeLine("torn tail: \(reader.recovery.tornTailBytes) bytes after offset \(reader.recovery.validBytes) (dropped when the journal is next opened for writing)")
      }
      // 2. Full replay of any app's journal (every event verified against the state it applies
      // to), every checkpoint against the replayed state, invariants on the head and the
      // checkpointed states.
      let bar = ProgressBar.onStandardError(label: "verifying", showingAfter: 0.25)
      let report = JournalMaintenance.verify(
        at: journal, writingReadIndex: true, progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } })
      bar?.finish()
      if let problem = report.problem {
        var message = "'\(journal)' is not sound: \(problem)"
        if let version = report.lastGoodVersion { message += " (last good: version \(version.rawValue))" }
        throw ListLanguageError(message: message)
      }
      out.writeLine(
        "sound: \(reader.recordCount) records in \(reader.frames.count) frames, \(report.versionCount) versions, "
          + "\(report.eventCount) events, \(report.checkpointsChecked) checkpoints and \(report.statesChecked) states checked")
      if report.readIndexWritten { out.writeLine("read index written: \(journal).index") }
    }
  }
}
