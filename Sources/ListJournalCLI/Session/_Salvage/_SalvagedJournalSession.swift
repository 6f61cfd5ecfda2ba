import JournalFormat
import ListHistory
import ListJournal
import ListState

/// The read-only ``JournalSession`` of `show`, `log`, `diff` and `export` with `--salvage`:
/// every version of a damaged journal that can still be rebuilt exactly.
///
/// The valid prefix replays as usual. After each damaged stretch, reading resumes at the next
/// intact frame that starts with a checkpoint (its records cannot be decoded earlier: the
/// codec's tables were built by the damaged records); the checkpoint gives the state at its
/// head, and each later commit whose parent's state is known gives its own. Every other
/// version is lost and named by ``lostVersions``; nothing is guessed.
///
/// ```swift
/// let session = try _SalvagedJournalSession(path: "damaged.journal")
/// session.lostVersions   // [12...40]
/// ```
final class _SalvagedJournalSession: _ReadOnlyJournalSession {
  typealias Element = JournalValueElement
  typealias State = ListSnapshot<Element, Element>

  let path: String
  /// The readable runs of chunks (the first is the valid prefix).
  let segments: [JournalReader]
  private let prefix: ListStore<Element, Element>
  /// States and log entries of the versions rebuilt after damage.
  private var rebuilt: [Int: State] = [:]
  private var entries: [Int: LogEntry] = [:]
  private var views: [Int: TextSnapshot] = [:]
  /// Why reading stopped in a stretch, for the warning.
  private(set) var notes: [String] = []
  private(set) var headVersion: Int
  /// The newest version number the file mentions, readable or not.
  private(set) var latestVersion: Int

  var durableVersion: Int { latestVersion }
  var currentSnapshot: TextSnapshot {
    get throws(ListLanguageError) { try snapshot(at: headVersion) }
  }

  init(path: String) throws(ListLanguageError) {
    self.path = path
    let found: JournalSegments
    do throws(JournalError) {
      found = try JournalReader.openSegments(at: path)
    } catch {
      throw ListLanguageError(message: _StoreJournalSession.describe(error, path: path))
    }
    segments = found.readers
    let bar = ProgressBar.onStandardError(label: "replaying", showingAfter: 0.25)
    defer { bar?.finish() }
    do {
      prefix = try JournalHistory.open(
        reader: segments[0], codec: .generic(), checkpointInterval: _StoreJournalSession.checkpointInterval,
        checkpointBudget: _StoreJournalSession.checkpointBudget,
        progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } }
      ).store
    } catch {
      throw ListLanguageError(message: _GenericJournalSession.describe(error, path: path))
    }
    headVersion = prefix.head.rawValue
    latestVersion = max(prefix.latestVersion.rawValue, found.newestVersion.map { Int($0) } ?? 0)
    for segment in segments.dropFirst() { readAfterDamage(segment) }
    // Never released, as the other read-only sessions.
    _ = Unmanaged.passRetained(self)
  }

  /// Rebuilds what one segment after damage allows, from its first checkpoint on.
  private func readAfterDamage(_ segment: JournalReader) {
    for frame in segment.frames where frame.recordCount > 0 {
      latestVersion = max(latestVersion, Int(frame.lastVersion))
    }
    guard let start = segment.frames.firstIndex(where: \.startsWithCheckpoint) else {
      notes.append("no checkpoint in the intact bytes from \(segment.frames.first?.offset ?? 0)")
      return
    }
    var codec = HistoryCodec<Element, Element>.generic()
    var records = segment.makeIterator(fromFrame: start)
    while true {
      let record: JournalRecord
      do throws(JournalError) {
        guard let next = try records.next() else { return }
        record = next
      } catch {
        notes.append("\(error)")
        return
      }
      guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
      let content: HistoryRecordContent<Element, Element>
      do {
        content = try codec.decode(
          HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload))
      } catch {
        notes.append("record #\(record.sequence) (version \(record.version)) does not decode: \(error)")
        return
      }
      switch content {
      case .checkpoint(let checkpoint):
        let head = checkpoint.head.rawValue
        if state(ifKnown: head) == nil { rebuilt[head] = checkpoint.snapshot }
        headVersion = head
        latestVersion = max(latestVersion, checkpoint.latestVersion.rawValue)
      case .commit(let commit):
        let version = commit.version.rawValue
        headVersion = version
        latestVersion = max(latestVersion, version)
        guard var state = state(ifKnown: commit.parent.rawValue) else { continue }
        do {
          for event in commit.events { try event.apply(to: &state) }
        } catch {
          notes.append("version \(version) does not apply to its parent \(commit.parent.rawValue): \(error)")
          continue
        }
        rebuilt[version] = state
        entries[version] = LogEntry(
          version: version, parent: commit.parent.rawValue, time: commit.timestamp, label: commit.label ?? "",
          eventCount: commit.events.count, changeCount: commit.events.reduce(0) { $0 + $1.changeCount },
          isHead: false, operations: _GenericJournalSession.summaries(commit.events))
      case .headMove(let move):
        headVersion = move.to.rawValue
        latestVersion = max(latestVersion, move.latestVersion.rawValue)
      case .gap(let gap):
        // A repaired journal's gap: the checkpoint that follows says where the head is.
        latestVersion = max(latestVersion, gap.latestVersion.rawValue)
      }
    }
  }

  /// The state at `version` when the prefix or a stretch after damage rebuilds it.
  private func state(ifKnown version: Int) -> State? {
    if let state = rebuilt[version] { return state }
    guard version <= prefix.latestVersion.rawValue, prefix.info(for: Version(version)) != nil else { return nil }
    return try? prefix.state(at: Version(version))
  }

  private func isKnown(_ version: Int) -> Bool {
    rebuilt[version] != nil || (version <= prefix.latestVersion.rawValue && prefix.info(for: Version(version)) != nil)
  }

  /// The version numbers that cannot be rebuilt, as ranges.
  var lostVersions: [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    var start: Int?
    for version in 0...max(0, latestVersion + 1) {
      let lost = version <= latestVersion && !isKnown(version)
      if lost, start == nil { start = version }
      if !lost, let first = start {
        ranges.append(first...(version - 1))
        start = nil
      }
    }
    return ranges
  }

  /// `12...40, 45` for the warnings and errors.
  static func describe(_ ranges: [ClosedRange<Int>]) -> String {
    ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ", ")
  }

  /// The warning `--salvage` prints when the journal is damaged; nil when it is not.
  var damageReport: String? {
    guard let corruption = segments[0].recovery.corruption else { return nil }
    let offset: String
    if case .corrupted(let at, _, _) = corruption { offset = " at byte \(at)" } else { offset = "" }
    let lost = lostVersions
    var report = "'\(path)' is damaged\(offset); "
    report += lost.isEmpty ? "every version was rebuilt" : "versions \(Self.describe(lost)) are lost, the others were rebuilt"
    let resumed = segments.dropFirst().compactMap { $0.frames.first(where: \.startsWithCheckpoint)?.offset }
    if !resumed.isEmpty {
      report += " (read again from the checkpoint\(resumed.count == 1 ? "" : "s") at byte \(resumed.map(String.init).joined(separator: ", "))"
        + ")"
    }
    return report
  }

  private func lostError(_ version: Int) -> ListLanguageError {
    ListLanguageError(
      message: "version \(version) of '\(path)' is lost to the damage (lost: \(Self.describe(lostVersions)))")
  }

  private func parent(of version: Int) -> Int? {
    if let entry = entries[version] { return entry.parent }
    guard version <= prefix.latestVersion.rawValue, let info = prefix.info(for: Version(version)) else { return nil }
    return info.parent?.rawValue
  }

  // Changes are refused (`_ReadOnlyJournalSession`).

  // MARK: Reading

  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    switch reference {
    case .number(let number):
      guard number <= latestVersion else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(latestVersion))")
      }
      guard isKnown(number) else { throw lostError(number) }
      return number
    case .head(let back):
      var cursor = headVersion
      for _ in 0..<back {
        guard let parent = parent(of: cursor) else {
          throw ListLanguageError(
            message: "no version \(reference): the ancestry of the head \(headVersion) is lost or ends before")
        }
        cursor = parent
      }
      guard isKnown(cursor) else { throw lostError(cursor) }
      return cursor
    }
  }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    if let view = views[version] { return view }
    guard let state = state(ifKnown: version) else { throw lostError(version) }
    let view = try TextSnapshot(displaying: state)
    views[version] = view
    return view
  }

  func historyCounts() -> (versions: Int, events: Int) {
    let entries = versions()
    return (entries.count, entries.reduce(0) { $0 + $1.eventCount })
  }

  func versions() -> [LogEntry] {
    var all = prefix.logEntries(summary: _GenericJournalSession.summaries)
    for index in all.indices { all[index].isHead = all[index].version == headVersion }
    for version in rebuilt.keys.sorted() where version > prefix.latestVersion.rawValue || all.allSatisfy({ $0.version != version }) {
      // A checkpoint's head whose own record is lost: its state is known, its parent is not.
      var entry = entries[version]
        ?? LogEntry(
          version: version, parent: nil, time: 0, label: "(rebuilt from a checkpoint; its record is lost)", eventCount: 0,
          changeCount: 0, isHead: false, parentIsLost: true)
      entry.isHead = version == headVersion
      all.append(entry)
    }
    return all.sorted { $0.version < $1.version }
  }
}
