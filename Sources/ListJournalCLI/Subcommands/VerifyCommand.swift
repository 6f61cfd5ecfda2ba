import ArgumentParser
import JournalFormat
import ListJournal

/// `listjournal verify JOURNAL [--repair]`.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check checksums, replay everything and check invariants; exit 0 if sound, 1 if not.",
    discussion: """
      Any app's journal is checked (decoded generically). Names the first bad byte offset and \
      version. --repair keeps the valid prefix and sets the original aside; the versions after \
      the damage that it drops are named, with those `show`/`log`/`diff`/`export --salvage` \
      can still read from the original. A sound journal whose read index (JOURNAL.index, which lets show, log, \
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
        // What the damage costs, said before anything is dropped: the versions after the
        // damage that a salvaging read still rebuilds are not kept by the repaired journal.
        let salvage = try? _SalvagedJournalSession(path: journal)
        let report: JournalRepair.Report
        do {
          report = try JournalRepair.repair(at: journal)
        } catch {
          throw ListLanguageError(message: "cannot repair '\(journal)': \(error)")
        }
        let kept = report.lastGoodVersion.map { "versions 0...\($0)" } ?? "no version"
        out.writeLine("repaired: kept \(kept) (\(report.recordCount) records, \(report.keptBytes) bytes), dropped \(report.droppedBytes) bytes")
        if let salvage, let last = report.lastGoodVersion.map(Int.init), salvage.latestVersion > last {
          let readable = salvage.versions().map(\.version).filter { $0 > last }
          var dropped = "dropped versions \(last + 1)...\(salvage.latestVersion)"
          if readable.isEmpty {
            dropped += "; none of them can be rebuilt"
          } else {
            dropped += "; \(readable.count) of them (\(_SalvagedJournalSession.describe(Self.ranges(readable)))) can still be read "
              + "from the damaged original with --salvage"
          }
          printWarning(dropped)
        }
        if let copy = report.damagedCopyPath { out.writeLine("the damaged original is kept at \(copy)") }
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
        throw ListLanguageError(message: _StoreJournalSession.describe(corruption, path: journal))
      }
      if ReplicaJournals.isReplica(reader) { return try verifyReplica(reader) }
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

extension VerifyCommand {
  /// Sorted version numbers as ranges: [3, 4, 5, 9] → [3...5, 9...9].
  static func ranges(_ versions: [Int]) -> [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    for version in versions {
      if let last = ranges.last, last.upperBound + 1 == version {
        ranges[ranges.count - 1] = last.lowerBound...version
      } else {
        ranges.append(version...version)
      }
    }
    return ranges
  }
}
