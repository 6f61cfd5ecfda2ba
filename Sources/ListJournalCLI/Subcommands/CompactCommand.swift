import ArgumentParser
import JournalFormat
import ListJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `listjournal compact JOURNAL`.
struct CompactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact",
    abstract: "Rewrite the journal atomically, recompressing its frames and optionally dropping old history.",
    discussion: """
      Refuses while a writer holds the journal; the original stays untouched if anything fails.

      With --keep-last or --keep-since the history before the cut is dropped: the kept history
      starts at one version whose state is kept, and every later version that descends from it
      reads as before. Undo stops there; older versions are reported as dropped.

      Examples:
        listjournal compact todo.journal --level 19
        listjournal compact todo.journal --keep-last 10000
        listjournal compact todo.journal --keep-since 2026-11-01
        listjournal compact todo.journal --keep-since 30d
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "zstd level for the rewritten frames (1…22).")
  var level: Int32 = 19

  @Option(name: .customLong("keep-last"), help: "Keep at least the newest N versions and drop the history before them.")
  var keepLast: Int?

  @Option(
    name: .customLong("keep-since"),
    help: "Keep the versions committed since a time (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ as `log` prints, or Nd / Nh ago).")
  var keepSince: String?

  func validate() throws {
    guard (1...22).contains(level) else {
      throw ValidationError("--level must be a zstd level from 1 to 22, not \(level)")
    }
    if keepLast != nil && keepSince != nil { throw ValidationError("give --keep-last or --keep-since, not both") }
    if let keepLast, keepLast < 1 { throw ValidationError("--keep-last must be at least 1, not \(keepLast)") }
    if let keepSince, Self.timestamp(keepSince, now: Self.now()) == nil {
      throw ValidationError("--keep-since: '\(keepSince)' is not YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ, Nd or Nh")
    }
  }

  /// What the options keep; nil for a plain recompression.
  var retention: JournalRetention? {
    if let keepLast { return .lastVersions(keepLast) }
    if let keepSince, let time = Self.timestamp(keepSince, now: Self.now()) { return .since(timestamp: time) }
    return nil
  }

  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// Seconds since 1970 for `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM[:SS]Z` (UTC), or
  /// `Nd`/`Nh` before `now`; nil for anything else.
  static func timestamp(_ text: String, now: Double) -> Double? {
    if let last = text.last, last == "d" || last == "h", let count = Int(text.dropLast()), count >= 0 {
      return now - Double(count) * (last == "d" ? 86_400 : 3_600)
    }
    let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard date.count == 3, let year = date[0], let month = date[1], let day = date[2], parts[0].count == 10,
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var clock = [0, 0, 0]
    if parts.count == 2 {
      guard parts[1].hasSuffix("Z") else { return nil }
      let fields = parts[1].dropLast().split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
      guard (2...3).contains(fields.count), fields.allSatisfy({ $0 != nil }) else { return nil }
      for (index, field) in fields.enumerated() { clock[index] = field! }
      guard clock[0] < 24, clock[1] < 60, clock[2] < 61 else { return nil }
    }
    var calendar = tm()
    calendar.tm_year = Int32(year - 1900)
    calendar.tm_mon = Int32(month - 1)
    calendar.tm_mday = Int32(day)
    calendar.tm_hour = Int32(clock[0])
    calendar.tm_min = Int32(clock[1])
    calendar.tm_sec = Int32(clock[2])
    return Double(timegm(&calendar))
  }

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      try ReplicaJournals.refuse(journal, command: "compact", because: "rewrites a single-writer history; a replica keeps every commit it exchanged")
      if let retention {
        do throws(JournalStoreError) {
          let report = try JournalMaintenance.compact(at: journal, level: level, keeping: retention)
          let bytes = report.compaction
          var line = "compacted: \(bytes.bytesBefore) → \(bytes.bytesAfter) bytes, \(bytes.recordsAfter) records"
          line += report.droppedVersions == 0
            ? "; no history dropped"
            : "; dropped \(report.droppedVersions) versions, history starts at version \(report.keptFrom.rawValue)"
          OutputStream.standardOutput.writeLine(line)
        } catch {
          throw ListLanguageError(message: _StoreJournalSession.describe(error, path: journal))
        }
        return
      }
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
