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
      version. --repair keeps every version that can be rebuilt: those before the damage and, \
      after it, those rebuilt from the next intact checkpoint on (what `show`/`log`/`diff`/\
      `export --salvage` read). The repaired journal says which versions were lost (`log` \
      shows `✗ versions A...B lost in repair`), opens for reading and writing, and the damaged \
      original is set aside (its path is printed). It prints the versions kept and lost and \
      the byte ranges of the original kept and dropped, and refuses when nothing can be kept. \
      A sound journal whose read index (JOURNAL.index, which lets show, log, diff and info \
      skip replaying it) is missing or out of date gets a new one.

      Example:
        listjournal verify todo.journal || listjournal verify todo.journal --repair
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Flag(help: "Keep every version that can be rebuilt, name the lost ones (the original is kept aside).")
  var repair = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let out = OutputStream.standardOutput
      if repair { return try runRepair(out) }
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
      if !report.lostVersions.isEmpty {
        let lost = report.lostVersions.map { $0.lowerBound.rawValue...$0.upperBound.rawValue }
        out.writeLine("\(Self.describe(lost)) lost in an earlier repair (their states are unknown; the others were checked)")
      }
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

extension VerifyCommand {
  /// `--repair`: repairs, then replays the repaired journal to say what it keeps.
  func runRepair(_ out: OutputStream) throws(ListLanguageError) {
    // What a salvaging read of the original rebuilds, to check that the repair kept it all.
    let salvaged = (try? _SalvagedJournalSession(path: journal)).map { Set($0.versions().map(\.version)) }
    let report: JournalRepair.Report
    do {
      report = try JournalRepair.repair(at: journal)
    } catch {
      throw ListLanguageError(message: "cannot repair '\(journal)': \(error)")
    }
    guard let copy = report.damagedCopyPath else {
      out.writeLine("nothing to repair: '\(journal)' has no damage (\(report.recordCount) records, \(report.keptBytes) bytes)")
      return
    }
    let size = report.keptBytes + report.droppedBytes
    var history: JournalHistory<JournalValueElement, JournalValueElement>
    do {
      history = try JournalHistory.open(at: journal)
    } catch {
      throw ListLanguageError(
        message: "repaired '\(journal)' does not replay: \(error) (the damaged original is kept at \(copy))")
    }
    if history.lostVersions.contains(where: { $0.contains(history.head) }) {
      // The file's head is a lost version: move it to the newest kept one, so that the journal
      // takes commits (a head move record, which any app's journal may hold).
      let newest = history.versions.last?.version ?? .initial
      do {
        let store = try JournalStore<JournalValueElement, JournalValueElement>.open(
          at: journal, codec: .generic(),
          configuration: .init(durability: .strict, createIfMissing: false))
        try store.store.checkout(newest)
        try store.close()
        out.writeLine("the head (version \(history.head.rawValue)) was lost; it is now version \(newest.rawValue), the newest kept")
        history = try JournalHistory.open(at: journal)
      } catch {
        printWarning("the head (version \(history.head.rawValue)) was lost and could not be moved: \(error); check out a kept version before committing")
      }
    }
    let kept = Self.ranges(history.versions.map(\.version.rawValue))
    let lost = history.lostVersions.map { $0.lowerBound.rawValue...$0.upperBound.rawValue }
    var line = "repaired: kept \(Self.describe(kept)) (\(report.recordCount) records, \(report.keptBytes) of \(size) bytes)"
    line += lost.isEmpty ? "; no version lost" : "; \(Self.describe(lost)) lost in repair"
    out.writeLine(line)
    out.writeLine(
      "kept bytes \(Self.describe(report.keptRanges)) of the original; dropped bytes "
        + Self.describe(report.droppedRanges(fileSize: size)))
    for resumption in report.resumptions {
      out.writeLine("after the damage, the history resumes at the checkpoint at byte \(resumption.offset) of the original")
    }
    if let salvaged {
      let missing = salvaged.subtracting(history.versions.map(\.version.rawValue)).sorted()
      if !missing.isEmpty {
        printWarning(
          "\(Self.describe(Self.ranges(missing))) can still be read from the damaged original with --salvage, "
            + "but the repaired journal could not keep them")
      }
    }
    out.writeLine("the damaged original is kept at \(copy)")
  }

  /// `versions 0...150, 199...303` (or `version 7`, `no version`).
  static func describe(_ ranges: [ClosedRange<Int>]) -> String {
    guard !ranges.isEmpty else { return "no version" }
    let single = ranges.count == 1 && ranges[0].count == 1
    return (single ? "version " : "versions ") + _SalvagedJournalSession.describe(ranges)
  }

  /// `64..<9000, 12000..<20000` (or `none`).
  static func describe(_ ranges: [Range<Int64>]) -> String {
    ranges.isEmpty ? "none" : ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
  }
}
