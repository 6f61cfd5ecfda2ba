import ListLocking

/// A read-only view of a journal served from its read index (`<journal>.index`, a sidecar file
/// the journal's writer keeps, Journal/FORMAT.md §11), for tools that show a journal without
/// replaying its history: counts and the head at once, every version's parent, time, label and
/// size, the head's state, the events of the newest versions, and the state of any version
/// reachable from the head through those.
///
/// The index is a cache, never trusted over the records: it is used only when it describes the
/// journal exactly (same salt, same valid length, same last chunk, its own checksum intact);
/// otherwise ``open(journal:codec:fileSystem:)`` throws why, and a reader replays the journal
/// (``JournalHistory``). What the index cannot answer (a version far from the head) comes back
/// as nil: ask a ``JournalHistory`` then. A ``JournalStore`` writes the index when it closes
/// cleanly (so a journal written before the index existed gains one on its next write);
/// ``JournalHistory/writeReadIndex(codec:recentVersions:fileSystem:)`` and
/// ``JournalMaintenance/verify(at:codec:writingReadIndex:)`` write one for a replayed journal.
///
/// States and events are encoded with the journal's own ``HistoryCodec``, so the generic codec
/// (`HistoryCodec.generic()`) reads the index of any app's journal.
///
/// ```swift
/// if let index = try JournalReadIndex.open(at: path) {     // nil: no usable index, replay
///     print(index.versionCount, index.head)                // no decoding at all
///     let head = try index.snapshot()                       // the head's state
///     let previous = try index.state(at: Version(index.head.rawValue - 1))   // nil: replay
/// }
/// ```
/// - Complexity: opening reads and checksums the index file (plus the journal's own chunk
///   checksums, which the reader verified); each part is decoded on first use: the version
///   table O(versions), the head's state O(items), the recent commits O(their events).
public final class JournalReadIndex<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>
  public typealias Event = ListEvent<Section, Item>

  /// How many of the newest versions (and of the head's nearest ancestors) a writer indexes
  /// with their events.
  @inlinable
  public static var recentVersionLimit: Int { 1_024 }

  /// The journal's reader: its frames and recovery report.
  public let reader: JournalReader
  /// The index file's path.
  public let path: String
  @usableFromInline let file: JournalReadIndexFile
  @usableFromInline let counters: _ReadIndexCounters
  @usableFromInline let codec: HistoryCodec<Section, Item>
  @usableFromInline let cache = ListMutex(_ReadIndexCache<Section, Item>())

  @inlinable
  init(reader: JournalReader, file: JournalReadIndexFile, counters: _ReadIndexCounters, codec: HistoryCodec<Section, Item>) {
    self.reader = reader
    self.path = file.path
    self.file = file
    self.counters = counters
    self.codec = codec
  }

  /// Opens the read index of the journal `reader` read, if it describes that journal exactly.
  ///
  /// - Throws: why it cannot be used (missing, damaged, stale, newer); never a problem of the
  ///   journal itself, which `reader` already checked.
  /// - Complexity: O(index file size) (one read and its checksum).
  @inlinable
  public static func open(
    journal reader: JournalReader, codec: HistoryCodec<Section, Item>,
    fileSystem: any JournalFileSystem = POSIXFileSystem()
  ) throws(JournalReadIndexProblem) -> JournalReadIndex {
    let file = try JournalReadIndexFile.read(at: JournalReadIndexFile.path(forJournal: reader.path), fileSystem: fileSystem)
    let counters = try _ReadIndexCheck.counters(of: file, describing: reader)
    guard counters.codecMinor <= Int(HistoryCodec<Section, Item>.currentFormatMinor) else {
      throw .unsupported(path: file.path, reason: "states encoded in history format 1.\(counters.codecMinor), newer than this reader's")
    }
    var codec = codec
    codec.reset()
    // Nothing is encoded after these streams: decoded contents need not stay in the tables.
    codec.decodingMode = .droppingContents
    return JournalReadIndex(reader: reader, file: file, counters: counters, codec: codec)
  }

  /// Opens the journal at `path` and its read index; nil when the index cannot be used (the
  /// caller then replays the journal).
  ///
  /// - Throws: ``JournalStoreError/journal(_:)`` when the journal itself cannot be read.
  @inlinable
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, limits: JournalLimits = JournalLimits()
  ) throws(JournalStoreError) -> JournalReadIndex? {
    let reader: JournalReader
    do { reader = try JournalReader.open(at: path, limits: limits) } catch { throw .journal(error) }
    return try? open(journal: reader, codec: codec)
  }

  // MARK: Counts (no decoding)

  /// Versions including version 0.
  @inlinable
  public var versionCount: Int { counters.versionCount }
  /// The newest version on any branch.
  @inlinable
  public var latestVersion: Version { Version(counters.versionCount - 1) }
  /// The current version (where the journal's head was when it was written).
  @inlinable
  public var head: Version { Version(counters.head) }
  /// Recorded events of all versions.
  @inlinable
  public var eventCount: Int { counters.eventCount }
  /// Commit records in the journal.
  @inlinable
  public var commitCount: Int { counters.commitCount }
  /// Undo, redo and checkout records in the journal.
  @inlinable
  public var headMoveCount: Int { counters.headMoveCount }

  /// Facts about the file, as ``JournalHistory/info`` gives them after a replay.
  @inlinable
  public var info: JournalInfo {
    JournalInfo(
      reader: reader, versionCount: versionCount, eventCount: eventCount, head: head, commitCount: commitCount,
      headMoveCount: headMoveCount)
  }

  // MARK: Versions

  /// The version table, decoded on first use.
  @inlinable
  func versionTable() throws(JournalReadIndexProblem) -> _ReadIndexVersionTable {
    if let table = cache.withLock({ $0.versionTable }) { return table }
    guard let bytes = try file.section(_ReadIndexSection.versions) else { throw missing(_ReadIndexSection.versions) }
    let table = try _ReadIndexVersionTable.decode(bytes, count: versionCount, path: path)
    cache.withLock { $0.versionTable = table }
    return table
  }

  @inlinable
  func missing(_ section: UInt32) -> JournalReadIndexProblem {
    .damaged(path: path, offset: 0, reason: "no section \(section)")
  }

  /// Parent, time, label and size of a version; nil when unknown.
  ///
  /// - Complexity: O(1) for an indexed version once the recent commits are decoded; else the
  ///   version table's decoding, once.
  @inlinable
  public func info(for version: Version) throws(JournalReadIndexProblem) -> VersionInfo? {
    guard version.rawValue >= 0, version.rawValue < versionCount else { return nil }
    if let commit = try recent().commit(of: version.rawValue) {
      return VersionInfo(
        version: version, parent: commit.parent, timestamp: commit.timestamp, label: commit.label,
        operationCount: commit.events.count)
    }
    return try versionTable().info(of: version.rawValue)
  }

  /// The version `version` was committed on top of; nil for version 0 or an unknown version.
  @inlinable
  public func parent(of version: Version) throws(JournalReadIndexProblem) -> Version? {
    guard version.rawValue > 0, version.rawValue < versionCount else { return nil }
    if let commit = try recent().commit(of: version.rawValue) { return commit.parent }
    return Version(Int(try versionTable().parents[version.rawValue]))
  }

  /// Parent, time, label, size, children and whether it is the head, for one version; nil
  /// when unknown.
  ///
  /// - Complexity: the version table's decoding and an O(versions) children index, once.
  @inlinable
  public func entry(for version: Version) throws(JournalReadIndexProblem) -> JournalVersionEntry? {
    guard version.rawValue >= 0, version.rawValue < versionCount else { return nil }
    let table = try versionTable()
    return entry(version.rawValue, table: table, children: children())
  }

  /// Every version, in creation order, as ``JournalHistory/versions`` lists them.
  ///
  /// - Complexity: O(versions).
  @inlinable
  public func versions() throws(JournalReadIndexProblem) -> [JournalVersionEntry] {
    let table = try versionTable()
    let children = children()
    return (0..<versionCount).map { entry($0, table: table, children: children) }
  }

  @inlinable
  func entry(_ version: Int, table: _ReadIndexVersionTable, children: _ReadIndexChildren) -> JournalVersionEntry {
    let info = table.info(of: version)
    return JournalVersionEntry(
      version: info.version, parent: info.parent, timestamp: info.timestamp, label: info.label,
      operationCount: info.operationCount, isHead: version == counters.head,
      children: children.children(of: version).map { Version(Int($0)) })
  }

  /// The children index, built from the version table on first use.
  @inlinable
  func children() -> _ReadIndexChildren {
    if let children = cache.withLock({ $0.children }) { return children }
    let children = _ReadIndexChildren(parents: (try? versionTable().parents) ?? [])
    cache.withLock { $0.children = children }
    return children
  }

  // MARK: States and events

  /// The commits of the indexed versions, decoded on first use.
  @inlinable
  func recent() throws(JournalReadIndexProblem) -> _ReadIndexRecent<Section, Item> {
    if let recent = cache.withLock({ $0.recent }) { return recent }
    guard let bytes = try file.section(_ReadIndexSection.recent) else { throw missing(_ReadIndexSection.recent) }
    let records = try _ReadIndexRecords.decode(bytes, latestVersion: latestVersion.rawValue, path: path)
    var codec = self.codec
    var recent = _ReadIndexRecent<Section, Item>()
    recent.versions.reserveCapacity(records.count)
    recent.commits.reserveCapacity(records.count)
    for (number, record) in records.enumerated() {
      let content: HistoryRecordContent<Section, Item>
      do {
        content = try codec.decode(
          HistoryRecord(kind: .commit, sequence: UInt64(number + 1), version: UInt64(record.version), payload: record.payload))
      } catch {
        throw .damaged(path: path, offset: 0, reason: "recent commit of version \(record.version): \(error)")
      }
      guard case .commit(let commit) = content else {
        throw .damaged(path: path, offset: 0, reason: "recent record of version \(record.version) is not a commit")
      }
      recent.versions.append(record.version)
      recent.commits.append(commit)
    }
    cache.withLock { $0.recent = recent }
    return recent
  }

  /// The versions whose events the index holds, ascending: the newest ones and the head's
  /// nearest ancestors (see ``recentVersionLimit``).
  @inlinable
  public func indexedVersions() throws(JournalReadIndexProblem) -> [Version] {
    try recent().versions.map { Version($0) }
  }

  /// The head's state as sections with their outlines, decoded on first use without building
  /// a snapshot: for a reader that only walks it (printing a large list, say), where the
  /// snapshot's bulk build and hashed lookups would cost more than the decoding.
  ///
  /// - Complexity: O(items) the first time.
  @inlinable
  public func headSections() throws(JournalReadIndexProblem) -> [(Section, ListOutline<Item>)] {
    if let sections = cache.withLock({ $0.headSections }) { return sections }
    guard let bytes = try file.section(_ReadIndexSection.head) else { throw missing(_ReadIndexSection.head) }
    var codec = self.codec
    let decoded: (head: Version, sections: [(Section, ListOutline<Item>)])
    do {
      decoded = try codec.decodeCheckpointSections(
        HistoryRecord(kind: .checkpoint, sequence: 1, version: UInt64(latestVersion.rawValue), payload: bytes))
    } catch {
      throw .damaged(path: path, offset: 0, reason: "head state: \(error)")
    }
    guard decoded.head == head else {
      throw .damaged(path: path, offset: 0, reason: "the head state is of version \(decoded.head.rawValue), not \(head.rawValue)")
    }
    cache.withLock { $0.headSections = decoded.sections }
    return decoded.sections
  }

  /// The list at the head (markers cleared), built on first use.
  ///
  /// - Complexity: O(items) the first time.
  @inlinable
  public func snapshot() throws(JournalReadIndexProblem) -> Snapshot {
    if let state = cache.withLock({ $0.head }) { return state }
    let sections = try headSections()
    let state: Snapshot
    do { state = try Snapshot(sections) } catch { throw .damaged(path: path, offset: 0, reason: "head state: \(error)") }
    cache.withLock { $0.head = state }
    return state
  }

  /// The child redo goes to from `version`, as the index's writer knew it: `.some(nil)` when
  /// it has none, nil when the index does not say (an index without the section, or a version
  /// it does not list).
  ///
  /// - Throws: ``JournalReadIndexProblem/damaged(path:offset:reason:)`` for a malformed section.
  @inlinable
  package func redoChild(of version: Version) throws(JournalReadIndexProblem) -> Version?? {
    let children: [Int: Int?]
    if let cached = cache.withLock({ $0.redoChildren }) {
      children = cached
    } else {
      guard let bytes = try file.section(_ReadIndexSection.redoChildren) else { return nil }
      children = try _ReadIndexRedoChildren.decode(bytes, latestVersion: latestVersion.rawValue, path: path)
      cache.withLock { $0.redoChildren = children }
    }
    guard let child = children[version.rawValue] else { return nil }
    return .some(child.map { Version($0) })
  }

  /// The events of the transaction that created `version` (empty for version 0); nil when the
  /// index does not hold them.
  @inlinable
  public func events(of version: Version) throws(JournalReadIndexProblem) -> [Event]? {
    if version.rawValue == 0 { return [] }
    return try recent().commit(of: version.rawValue)?.events
  }

  /// The events that turn the state at `from` into the state at `to` (the inverses back to the
  /// common ancestor, then forward), as ``JournalHistory/events(from:to:)`` gives them; nil when
  /// the way leaves the indexed versions.
  ///
  /// - Complexity: O(indexed versions on the way + their events).
  @inlinable
  public func events(from: Version, to: Version) throws(JournalReadIndexProblem) -> [Event]? {
    guard from.rawValue >= 0, from.rawValue < versionCount, to.rawValue >= 0, to.rawValue < versionCount else { return nil }
    let recent = try recent()
    guard let path = recent.path(from: from.rawValue, to: to.rawValue) else { return nil }
    var events: [Event] = []
    for version in path.revert {
      let own = recent.commit(of: version)!.events
      for index in own.indices.reversed() { events.append(own[index].inverse) }
    }
    for version in path.apply { events.append(contentsOf: recent.commit(of: version)!.events) }
    return events
  }

  /// The list at `version` (markers cleared), from the head's state and the indexed events on
  /// the way; nil when the way leaves the indexed versions (or `version` is unknown): replay
  /// the journal for it then.
  ///
  /// - Throws: `.damaged` when an indexed event does not apply to the state it should.
  /// - Complexity: the head's state once, plus O(events on the way · log n).
  @inlinable
  public func state(at version: Version) throws(JournalReadIndexProblem) -> Snapshot? {
    guard let events = try events(from: head, to: version) else { return nil }
    var state = try snapshot()
    for event in events {
      do { try event.apply(to: &state) } catch {
        throw .damaged(path: path, offset: 0, reason: "an indexed event on the way to version \(version.rawValue) does not apply: \(error)")
      }
    }
    state.clearMarkers()
    return state
  }

  /// Up to this many events from the head, ``sections(at:)`` edits the head's outlines where
  /// the events name their items (a walk of the state per event); beyond, it folds them.
  @inlinable
  static var outlineEditLimit: Int { 32 }

  /// The list at `version` as sections with their outlines (see ``headSections()``), from the
  /// head's state: a few events are applied to its outlines in place, more are folded with a
  /// ``ListFold``; nil when the way leaves the indexed versions.
  ///
  /// - Throws: `.damaged` when an indexed event does not apply to the state it should.
  /// - Complexity: the head's sections once; then O(items) per event for a few events, else
  ///   O(items) to fold and unfold them plus the events (none at the head).
  @inlinable
  public func sections(at version: Version) throws(JournalReadIndexProblem) -> [(Section, ListOutline<Item>)]? {
    guard let events = try events(from: head, to: version) else { return nil }
    let sections = try headSections()
    if events.isEmpty { return sections }
    if events.count <= Self.outlineEditLimit {
      var patch = _OutlinePatch(sections)
      for event in events {
        do { try patch.apply(event) } catch {
          throw .damaged(path: path, offset: 0, reason: "an indexed event on the way to version \(version.rawValue) does not apply: \(error)")
        }
      }
      return patch.sections
    }
    var fold: ListFold<Section, Item>
    do { fold = try ListFold(sections: sections) } catch {
      throw .damaged(path: path, offset: 0, reason: "head state: \(error)")
    }
    for event in events {
      do { try fold.apply(event) } catch {
        throw .damaged(path: path, offset: 0, reason: "an indexed event on the way to version \(version.rawValue) does not apply: \(error)")
      }
    }
    return fold.sections()
  }
}

extension JournalReadIndex where Section == JournalValueElement, Item == JournalValueElement {
  /// Opens the read index of any app's journal with generic element values; nil when the index
  /// cannot be used.
  @inlinable
  public static func open(at path: String, limits: JournalLimits = JournalLimits()) throws(JournalStoreError) -> JournalReadIndex? {
    try open(at: path, codec: .generic(), limits: limits)
  }
}

/// What a ``JournalReadIndex`` has decoded so far.
@usableFromInline
struct _ReadIndexCache<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var versionTable: _ReadIndexVersionTable?
  @usableFromInline var children: _ReadIndexChildren?
  @usableFromInline var recent: _ReadIndexRecent<Section, Item>?
  @usableFromInline var redoChildren: [Int: Int?]?
  @usableFromInline var headSections: [(Section, ListOutline<Item>)]?
  @usableFromInline var head: ListSnapshot<Section, Item>?

  @inlinable
  init() {}
}

/// The decoded commits of the indexed versions.
@usableFromInline
struct _ReadIndexRecent<Section: ListElement, Item: ListElement>: Sendable {
  /// Ascending.
  @usableFromInline var versions: [Int] = []
  @usableFromInline var commits: [HistoryCommit<Section, Item>] = []

  @inlinable
  init() {}

  /// The commit that created `version`, if indexed.
  @inlinable
  func commit(of version: Int) -> HistoryCommit<Section, Item>? {
    var low = 0
    var high = versions.count
    while low < high {
      let middle = (low + high) / 2
      if versions[middle] < version { low = middle + 1 } else { high = middle }
    }
    return low < versions.count && versions[low] == version ? commits[low] : nil
  }

  /// The versions to revert (from `from` up, newest first) and to apply (down to `to`) on the
  /// way between two versions, when every one of them is indexed; nil otherwise.
  ///
  /// - Complexity: O(indexed versions on the two ancestries).
  @inlinable
  func path(from: Int, to: Int) -> (revert: [Int], apply: [Int])? {
    // `from`'s ancestry as far as the indexed commits tell it; the last entry may be a version
    // whose own commit is not indexed (it can still be the common ancestor).
    var ancestry = [from]
    var position = [from: 0]
    var cursor = from
    while let commit = commit(of: cursor) {
      cursor = commit.parent.rawValue
      position[cursor] = ancestry.count
      ancestry.append(cursor)
    }
    var apply: [Int] = []
    cursor = to
    while position[cursor] == nil {
      guard let commit = commit(of: cursor) else { return nil }
      apply.append(cursor)
      cursor = commit.parent.rawValue
    }
    return (Array(ancestry[0..<position[cursor]!]), apply.reversed())
  }
}

/// Every version's children, oldest first, from the parents column.
@usableFromInline
struct _ReadIndexChildren: Sendable {
  @usableFromInline var firstChild: [Int32]
  @usableFromInline var nextSibling: [Int32]

  @inlinable
  init(parents: [Int32]) {
    firstChild = [Int32](repeating: -1, count: parents.count)
    nextSibling = [Int32](repeating: -1, count: parents.count)
    // Newest first, each pushed in front: the lists end up oldest first.
    for version in parents.indices.reversed() where parents[version] >= 0 {
      let parent = Int(parents[version])
      nextSibling[version] = firstChild[parent]
      firstChild[parent] = Int32(version)
    }
  }

  @inlinable
  func children(of version: Int) -> [Int32] {
    guard version < firstChild.count else { return [] }
    var result: [Int32] = []
    var child = firstChild[version]
    while child >= 0 {
      result.append(child)
      child = nextSibling[Int(child)]
    }
    return result
  }
}

/// Whether an index file describes a journal, and its counters.
@usableFromInline
enum _ReadIndexCheck {
  /// The counters of `file` when it describes exactly the journal `reader` read.
  @usableFromInline
  static func counters(of file: JournalReadIndexFile, describing reader: JournalReader) throws(JournalReadIndexProblem)
    -> _ReadIndexCounters
  {
    let indexed = file.journal
    let journal = reader.prefix
    if indexed.salt != journal.salt {
      throw .stale(path: file.path, reason: "written for another journal or an older generation of it (salt differs)")
    }
    if indexed.length != journal.length {
      throw .stale(path: file.path, reason: "covers \(indexed.length) bytes, the journal has \(journal.length) valid bytes")
    }
    if indexed.lastChunkOffset != journal.lastChunkOffset || indexed.lastChunkChecksum != journal.lastChunkChecksum
      || indexed.lastSequence != journal.lastSequence
    {
      throw .stale(path: file.path, reason: "the journal's last chunk differs from the one indexed")
    }
    guard let bytes = try file.section(_ReadIndexSection.counters) else {
      throw .damaged(path: file.path, offset: 0, reason: "no section \(_ReadIndexSection.counters)")
    }
    let counters = try _ReadIndexCounters.decode(bytes, path: file.path)
    // Every record carries the newest version of its time, so the last one names the newest.
    let latest = reader.lastVersion ?? 0
    guard UInt64(counters.versionCount - 1) == latest,
      UInt64(counters.commitCount + counters.headMoveCount) <= reader.recordCount
    else {
      throw .damaged(
        path: file.path, offset: 0,
        reason: "counts \(counters.versionCount) versions, \(counters.commitCount) commits and \(counters.headMoveCount) head moves; the journal's newest version is \(latest) in \(reader.recordCount) records")
    }
    return counters
  }
}
