/// A read-only view of a journal: the whole history replayed in memory, for tools (the
/// `listjournal` CLI's `show`, `log`, `diff`, `info`) — every version, its state, the events
/// between versions, and facts about the file.
///
/// Opening takes no lock, so it works while a writer appends (it sees a consistent prefix).
/// Use the generic element types (``open(at:tolerateCorruption:limits:)`` on
/// `JournalHistory<JournalValueElement, JournalValueElement>`) to read any app's journal without
/// its types; use an app's own types with a matching ``HistoryCodec``.
///
/// ```swift
/// let history = try JournalHistory.open(at: "/tmp/list.journal")      // generic values
/// for entry in history.versions { print(entry.version, entry.label ?? "") }
/// let old = try history.state(at: 3)
/// let events = try history.events(from: 3, to: history.head)           // for an event-derived diff
/// ```
/// - Complexity: opening is O(file size) verification plus O(events · log n) replay; then
///   `state(at:)` is O(2 × the store's current checkpoint interval + one transaction) (see
///   ``CheckpointBudget``), `events(from:to:)` O(path events).
public final class JournalHistory<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>
  public typealias Event = ListEvent<Section, Item>

  /// The journal's path.
  public let path: String
  /// The file's index and recovery report.
  public let reader: JournalReader
  /// The replayed history (in memory only: changes made through it are *not* written to the file).
  public let store: ListStore<Section, Item>
  /// Facts about the file.
  public let info: JournalInfo

  @inlinable
  init(path: String, reader: JournalReader, store: ListStore<Section, Item>, info: JournalInfo) {
    self.path = path
    self.reader = reader
    self.store = store
    self.info = info
  }

  /// Opens and replays the journal at `path` with `codec`.
  ///
  /// - Parameters:
  ///   - tolerateCorruption: read the valid prefix of a journal with mid-file damage
  ///     (reported in `reader.recovery.corruption`) instead of throwing.
  ///   - checkpointInterval: the minimum number of events between in-memory checkpoints along a
  ///     branch (time-travel cost; see ``ListStoreConfiguration/checkpointInterval``).
  ///   - checkpointBudget: the estimated memory those checkpoints may hold (see ``CheckpointBudget``).
  /// - Throws: ``JournalStoreError``: `.journal` (not a journal, newer format, corruption with its
  ///   offset) or `.invalidRecord` (offset, sequence, version).
  @inlinable
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, tolerateCorruption: Bool = false,
    limits: JournalLimits = JournalLimits(), checkpointInterval: Int = ListStoreConfiguration.defaultCheckpointInterval,
    checkpointBudget: CheckpointBudget = .default
  ) throws(JournalStoreError) -> JournalHistory {
    try open(
      at: path, codec: codec, tolerateCorruption: tolerateCorruption, limits: limits,
      checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget, progress: nil)
  }

  /// ``open(at:codec:tolerateCorruption:limits:checkpointInterval:checkpointBudget:)``, telling
  /// `progress` (records read, `reader.recordCount`) as the replay goes, on the calling thread
  /// (the one that reads and decodes; folding runs on a second one): (0, total) before the
  /// first record, then every 64 records read, and (total, total) once the replay succeeded.
  /// For the `listjournal replay` progress bar.
  @inlinable
  package static func open(
    at path: String, codec: HistoryCodec<Section, Item>, tolerateCorruption: Bool = false,
    limits: JournalLimits = JournalLimits(), checkpointInterval: Int = ListStoreConfiguration.defaultCheckpointInterval,
    checkpointBudget: CheckpointBudget = .default, progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> JournalHistory {
    let reader: JournalReader
    do { reader = try JournalReader.open(at: path, limits: limits, tolerateCorruption: tolerateCorruption) } catch {
      throw .journal(error)
    }
    return try open(
      reader: reader, codec: codec, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
      progress: progress)
  }

  /// Replays the journal `reader` opened (the prefix it saw), telling `progress` as
  /// ``open(at:codec:tolerateCorruption:limits:checkpointInterval:checkpointBudget:progress:)``
  /// does: for a tool that opened the journal already (to look for its read index).
  @inlinable
  package static func open(
    reader: JournalReader, codec: HistoryCodec<Section, Item>, checkpointInterval: Int = ListStoreConfiguration.defaultCheckpointInterval,
    checkpointBudget: CheckpointBudget = .default, progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> JournalHistory {
    let path = reader.path
    let counter = _KindCounter()
    let store = try _JournalReplay.replay(
      reader, codec: codec, sink: nil, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
      journalCheckpointBytes: .max,
      clock: _systemClock, counter: counter, onProgress: progress)
    return JournalHistory(path: path, reader: reader, store: store, info: makeInfo(reader: reader, store: store, counter: counter))
  }

  @inlinable
  static func makeInfo(reader: JournalReader, store: ListStore<Section, Item>, counter: _KindCounter) -> JournalInfo {
    JournalInfo(
      reader: reader, versionCount: store.latestVersion.rawValue + 1, eventCount: store.eventCount, head: store.head,
      commitCount: counter.commits, headMoveCount: counter.headMoves)
  }

  // MARK: Reading

  /// The current version (where the journal's head was when it was last written).
  @inlinable
  public var head: Version { store.head }
  /// The newest version on any branch.
  @inlinable
  public var latestVersion: Version { store.latestVersion }
  /// The list at the head.
  @inlinable
  public var snapshot: Snapshot { store.snapshot }

  /// Every version, in creation order, with parent, time, label, operation count, children and
  /// whether it is the head; a repaired journal's lost versions (``lostVersions``) are left out.
  ///
  /// - Complexity: O(versions).
  @inlinable
  public var versions: [JournalVersionEntry] {
    let head = store.head
    return (0...store.latestVersion.rawValue).compactMap { number in
      let version = Version(number)
      guard let info = store.info(for: version) else { return nil }
      return JournalVersionEntry(
        version: version, parent: info.parent, timestamp: info.timestamp, label: info.label,
        operationCount: info.operationCount, isHead: version == head, children: store.children(of: version))
    }
  }

  /// The versions lost when the journal was repaired, as runs (empty for a journal that never
  /// was): their states cannot be read (``JournalStoreError/history(_:)`` with
  /// `HistoryError.versionLost`).
  ///
  /// ```swift
  /// history.lostVersions   // [v151...v198]
  /// ```
  @inlinable
  public var lostVersions: [ClosedRange<Version>] { store.lostVersions }

  /// Parent, time, label and size of one version.
  @inlinable
  public func entry(for version: Version) throws(JournalStoreError) -> JournalVersionEntry {
    guard let info = store.info(for: version) else {
      if let run = store.lostVersions.first(where: { $0.contains(version) }) { throw .history(.versionLost(version, lost: run)) }
      throw .history(.unknownVersion(version))
    }
    return JournalVersionEntry(
      version: version, parent: info.parent, timestamp: info.timestamp, label: info.label,
      operationCount: info.operationCount, isHead: version == store.head, children: store.children(of: version))
  }

  /// The list at any version, on any branch (markers cleared).
  @inlinable
  public func state(at version: Version) throws(JournalStoreError) -> Snapshot {
    do { return try store.state(at: version) } catch { throw .history(error) }
  }

  /// The events of the transaction that created `version`.
  @inlinable
  public func events(of version: Version) throws(JournalStoreError) -> [Event] {
    do { return try store.events(of: version) } catch { throw .history(error) }
  }

  /// The events that turn the state at `from` into the state at `to`, across branches (the
  /// inverses back to the common ancestor, then forward): what an event-derived diff folds.
  /// Fold them over `state(at: from)` to get `state(at: to)`.
  @inlinable
  public func events(from: Version, to: Version) throws(JournalStoreError) -> [Event] {
    do { return try store.events(from: from, to: to) } catch { throw .history(error) }
  }
}

extension JournalHistory where Section == JournalValueElement, Item == JournalValueElement {
  /// Opens any app's journal with generic element values (no app types needed).
  ///
  /// ```swift
  /// let history = try JournalHistory.open(at: path)
  /// history.snapshot.itemIdentifiers   // [JournalValue]
  /// ```
  @inlinable
  public static func open(
    at path: String, tolerateCorruption: Bool = false, limits: JournalLimits = JournalLimits()
  ) throws(JournalStoreError) -> JournalHistory {
    try open(at: path, codec: .generic(), tolerateCorruption: tolerateCorruption, limits: limits)
  }
}

extension JournalHistory where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
  /// Opens a journal with an app's own `Codable` element types.
  @inlinable
  public static func open(
    at path: String, tolerateCorruption: Bool = false, limits: JournalLimits = JournalLimits()
  ) throws(JournalStoreError) -> JournalHistory {
    try open(at: path, codec: HistoryCodec(), tolerateCorruption: tolerateCorruption, limits: limits)
  }
}

/// Counts record kinds during a replay.
///
/// The counts opt out of the dynamic exclusivity checks (a runtime call per record otherwise):
/// only the replaying thread's record iterator writes them, and they are read after the replay.
@usableFromInline
final class _KindCounter {
  @inlinable
  init() {}
  @usableFromInline @exclusivity(unchecked) var commits = 0
  @usableFromInline @exclusivity(unchecked) var headMoves = 0
  @usableFromInline @exclusivity(unchecked) var checkpoints = 0
  @usableFromInline @exclusivity(unchecked) var gaps = 0
}
