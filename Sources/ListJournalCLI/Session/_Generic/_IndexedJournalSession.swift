import JournalFormat
import ListDiff
import ListHistory
import ListJournal
import ListState

/// The read-only ``JournalSession`` of `show`, `log`, `diff` and `info` when the journal's read
/// index describes it (`JournalReadIndex`): counts and the head come from the index without
/// decoding anything, the head's state from its checkpoint, and the versions near the head
/// from its recent commits. A version far from the head is rebuilt from the journal's nearest
/// checkpoint record (`JournalTimeTravel`). Whatever neither can answer — a `log` of more
/// versions than the index holds, an index or a record that turns out damaged — is answered
/// by a full replay (``_GenericJournalSession``, with a progress bar on a terminal), made the
/// first time it is needed. Either way the output is the same, byte for byte.
///
/// ```swift
/// let session = try _IndexedJournalSession.open("app.journal")   // indexed, or a replay
/// try session.snapshot(at: session.headVersion)
/// ```
final class _IndexedJournalSession: _ReadOnlyJournalSession {
  typealias Index = JournalReadIndex<JournalValueElement, JournalValueElement>

  let path: String
  private let index: Index
  /// The full replay, once something needed it.
  private var replayed: _GenericJournalSession?
  /// Versions the index does not reach, from the nearest checkpoint record.
  private let travel: JournalTimeTravel<JournalValueElement, JournalValueElement>
  /// Text views already built, by version (diff may ask for one twice).
  private var views: [Int: TextSnapshot] = [:]

  private init(path: String, index: Index) {
    self.path = path
    self.index = index
    self.travel = JournalTimeTravel(reader: index.reader, codec: .generic())
  }

  /// A session on the journal at `path`: through its read index when that describes the
  /// journal, else a replay of it (with a progress bar on a terminal).
  static func open(_ path: String) throws(ListLanguageError) -> any JournalSession {
    let reader: JournalReader
    do {
      reader = try JournalReader.open(at: path)
    } catch {
      throw ListLanguageError(message: _GenericJournalSession.describe(.journal(error), path: path))
    }
    return try open(reader)
  }

  /// A session on the journal `reader` opened (without damage: a damaged journal is refused by
  /// the replay, as ``open(_:)`` refuses it).
  static func open(_ reader: JournalReader) throws(ListLanguageError) -> any JournalSession {
    let path = reader.path
    guard let index = try? Index.open(journal: reader, codec: .generic()) else {
      return try _GenericJournalSession.replaying(reader)
    }
    let session = _IndexedJournalSession(path: path, index: index)
    // Never released, like a replayed session: the process ends after one command.
    _ = Unmanaged.passRetained(session)
    return session
  }

  /// The full replay, made on first use.
  private func replay() throws(ListLanguageError) -> _GenericJournalSession {
    if let replayed { return replayed }
    let session = try _GenericJournalSession.replaying(index.reader)
    replayed = session
    return session
  }

  var headVersion: Int { index.head.rawValue }
  var durableVersion: Int { index.latestVersion.rawValue }
  var currentSnapshot: TextSnapshot {
    get throws(ListLanguageError) { try snapshot(at: headVersion) }
  }

  // Changes are refused (`_ReadOnlyJournalSession`).

  // MARK: Reading

  /// As `ListStore.resolve` (same numbers, same messages), walking the index's parents.
  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    if let replayed { return try replayed.resolve(reference) }
    let latest = index.latestVersion.rawValue
    switch reference {
    case .number(let number):
      guard number <= latest else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(latest))")
      }
      return number
    case .head(let back):
      var cursor = index.head
      for _ in 0..<back {
        let parent: Version?
        do { parent = try index.parent(of: cursor) } catch { return try replay().resolve(reference) }
        guard let parent else {
          throw ListLanguageError(message: "no version \(reference): the head \(index.head.rawValue) has fewer ancestors")
        }
        cursor = parent
      }
      return cursor.rawValue
    }
  }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    if let view = views[version] { return view }
    guard replayed == nil, let state = indexedState(at: version) ?? travelledState(at: version) else {
      return try replay().snapshot(at: version)
    }
    let view = try TextSnapshot(displaying: state)
    views[version] = view
    return view
  }

  /// From the index's outlines (no snapshot built) when it reaches `version`, else from the
  /// nearest checkpoint record.
  func outlines(at version: Int) throws(ListLanguageError) -> TextOutlines {
    if let view = views[version] { return TextOutlines(view) }
    if replayed == nil {
      if let sections = try? index.sections(at: Version(version)) { return try TextOutlines(displaying: sections) }
      if let state = travelledState(at: version) {
        let view = try TextSnapshot(displaying: state)
        views[version] = view
        return TextOutlines(view)
      }
    }
    return try replay().outlines(at: version)
  }

  private func indexedState(at version: Int) -> ListSnapshot<JournalValueElement, JournalValueElement>? {
    (try? index.state(at: Version(version))) ?? nil
  }

  /// Nil on any failure (an unknown version, damage): the replay then reports it as it would.
  private func travelledState(at version: Int) -> ListSnapshot<JournalValueElement, JournalValueElement>? {
    guard version >= 0, version <= index.latestVersion.rawValue else { return nil }
    return try? travel.state(at: Version(version))
  }

  /// From the index's outlines of both versions and the events between them (which tell the
  /// items whose content changed), without building either snapshot, when it reaches both.
  func changeset(from: Int, to: Int) throws(ListLanguageError) -> ListChangeset<String, String> {
    if replayed == nil, let events = try? index.events(from: Version(from), to: Version(to)),
      let old = try? index.sections(at: Version(from)), let new = try? index.sections(at: Version(to))
    {
      let oldText = try TextOutlines(displaying: old)
      let newText = try TextOutlines(displaying: new)
      if oldText.showsGenericValues && newText.showsGenericValues {
        return ListChangeset(from: oldText, to: newText, changedItems: TextOutlines.changedItems(along: events))
      }
    }
    return ListChangeset(from: try snapshot(at: from), to: try snapshot(at: to))
  }

  func historyCounts() -> (versions: Int, events: Int) { (index.versionCount, index.eventCount) }

  func versions() -> [LogEntry] { (try? logEntries(newest: nil)) ?? [] }

  /// The newest `count` versions (all with nil) from the index when it holds their events;
  /// otherwise from the replay.
  func logEntries(newest count: Int?) throws(ListLanguageError) -> [LogEntry] {
    let latest = index.latestVersion.rawValue
    let first = max(0, latest + 1 - (count ?? latest + 1))
    if replayed == nil, let entries = try? entries(first..<(latest + 1)) { return entries }
    return try replay().logEntries(newest: count)
  }

  /// The log entries of `versions` from the index; nil when it does not hold one of them.
  private func entries(_ versions: Range<Int>) throws(JournalReadIndexProblem) -> [LogEntry]? {
    var entries: [LogEntry] = []
    entries.reserveCapacity(versions.count)
    for number in versions {
      let version = Version(number)
      guard let events = try index.events(of: version), let info = try index.info(for: version) else { return nil }
      entries.append(
        LogEntry(
          version: number, parent: info.parent?.rawValue, time: info.timestamp, label: info.label ?? "",
          eventCount: info.operationCount, changeCount: events.reduce(0) { $0 + $1.changeCount },
          isHead: version == index.head, operations: _GenericJournalSession.summaries(events)))
    }
    return entries
  }
}
