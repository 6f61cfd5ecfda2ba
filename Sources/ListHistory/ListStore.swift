import ListState
import ListLocking

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The library's main entry point: a list with its whole history — transactions, an undo tree
/// that never throws a branch away, time travel to any version, observers, and a persistence
/// hook that receives every change as an encoded record.
///
/// The API is synchronous and thread-safe (one lock), so UI code applies list changes on the
/// main thread without `await`. Transaction bodies run while the lock is held: read and change
/// the list through the `Transaction` value, never by calling back into the same store.
///
/// ```swift
/// let store = ListStore<String, String>()
/// try store.transaction(label: "Add Fruit") { tx in
///     try tx.appendSections(["Fruit"])
///     try tx.appendItems(["Apple", "Pear"])
/// }
/// try store.moveItem("Pear", beforeItem: "Apple")     // one-operation transaction
/// try store.undo()                                    // back to ["Apple", "Pear"]
/// try store.redo()
/// let before = try store.state(at: 1)                 // time travel without moving the head
/// ```
///
/// - Complexity: a commit costs its operations (O(log n) each) plus O(1) bookkeeping (amortized:
///   see ``CheckpointBudget`` for the rare thinning pass); undo and redo cost O(events of the
///   transaction); `state(at:)` costs at most one checkpoint plus fewer than twice the current
///   ``checkpointInterval`` events plus one transaction (folded from the nearer checkpoint).
public final class ListStore<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>
  public typealias Event = ListEvent<Section, Item>
  public typealias Change = ListChange<Section, Item>

  @usableFromInline let state: ListMutex<_StoreState<Section, Item>>
  /// The state's background encoder, if any (set once, at init): kept outside the lock so that
  /// draining it never takes the store's lock — a flush may come from inside a transaction body
  /// or a callback that runs under it.
  @usableFromInline let backgroundEncoder: _BackgroundRecordEncoder<Section, Item>?

  /// An in-memory store without persistence.
  ///
  /// ```swift
  /// let store = ListStore<String, Row>()                                   // the defaults
  /// let phone = ListStore<String, Row>(configuration: .init(checkpointBudget: .bytes(32 << 20)))
  /// ```
  /// - Parameter configuration: in-memory checkpoints and the clock (``ListStoreConfiguration``).
  @inlinable
  public init(configuration: Configuration) {
    backgroundEncoder = nil
    state = ListMutex(
      _StoreState<Section, Item>(
        graph: _HistoryGraph(
          checkpointInterval: configuration.checkpointInterval, budget: configuration.checkpointBudget),
        clock: configuration.clock))
  }

  /// An in-memory store without persistence: ``init(configuration:)`` with these settings.
  @inlinable
  public convenience init(
    checkpointInterval: Int = Configuration.defaultCheckpointInterval, checkpointBudget: CheckpointBudget = .default,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) {
    self.init(
      configuration: Configuration(checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget, clock: clock))
  }

  /// A store that encodes every commit and head move with `codec` and hands the records to
  /// `sink` before they take effect.
  ///
  /// ```swift
  /// let store = ListStore<String, Row>(codec: HistoryCodec(), sink: records)
  /// ```
  /// - Parameter configuration: in-memory checkpoints, the checkpoint records' spacing
  ///   (``ListStoreConfiguration/journalCheckpointBytes``) and the clock.
  @inlinable
  public init(
    codec: HistoryCodec<Section, Item>, sink: (any HistoryRecordSink)?, configuration: Configuration
  ) {
    var initial = _StoreState<Section, Item>(
      graph: _HistoryGraph(checkpointInterval: configuration.checkpointInterval, budget: configuration.checkpointBudget),
      clock: configuration.clock)
    initial.codec = codec
    // Every change of this store is encoded in order (see `_StoreState.forgetCurrentContents`).
    initial.codec?.tracksCurrentContents = true
    initial.sink = sink
    initial.journalCheckpointBytes = configuration.journalCheckpointBytes
    backgroundEncoder = nil
    state = ListMutex(initial)
  }

  /// A store that encodes its changes: ``init(codec:sink:configuration:)`` with these settings.
  @inlinable
  public convenience init(
    codec: HistoryCodec<Section, Item>, sink: (any HistoryRecordSink)?,
    checkpointInterval: Int = Configuration.defaultCheckpointInterval, checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int = Configuration.defaultJournalCheckpointBytes,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) {
    self.init(
      codec: codec, sink: sink,
      configuration: Configuration(
        checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
        journalCheckpointBytes: journalCheckpointBytes, clock: clock))
  }

  @inlinable
  init(state initial: _StoreState<Section, Item>) {
    backgroundEncoder = initial.backgroundEncoder
    state = ListMutex(initial)
  }


  // MARK: Reading

  /// The list at the head. Its reload/reconfigure markers are those of the last change. Empty
  /// when the head is a version a repair lost (see ``lostVersions``; the store then refuses
  /// commits until the head moves to a known version).
  @inlinable
  public var snapshot: Snapshot { state.withLock { $0.headSnapshot } }
  /// The current version.
  @inlinable
  public var head: Version { state.withLock { Version($0.head) } }
  /// The newest version of the history (on any branch).
  @inlinable
  public var latestVersion: Version { state.withLock { Version($0.graph.count - 1) } }
  /// Total recorded events of every version.
  @inlinable
  public var eventCount: Int {
    state.withLock { $0.graph.eventCount + ($0.unloaded?.eventCount ?? 0) - ($0.window?.eventCount ?? 0) }
  }
  /// The current spacing of in-memory checkpoints (in events along a branch): the interval the
  /// store was created with, doubled each time the ``CheckpointBudget`` thinned the checkpoints.
  /// Time travel folds fewer than twice this many events plus one transaction.
  @inlinable
  public var checkpointInterval: Int { state.withLock { $0.graph.checkpointInterval } }

  /// How many checkpoint records were skipped for exceeding the sink's payload limit, by the
  /// store or its background encoder (for tests: a skipped checkpoint is not retried at every
  /// change).
  @inlinable
  package var _refusedCheckpoints: Int {
    state.withLock { $0.refusedCheckpoints + ($0.backgroundEncoder?.refusedCheckpoints ?? 0) }
  }
  /// Whether the history has versions a repair lost, now or before a checkpoint resumed one
  /// (then versions other than 0 may have no parent).
  @inlinable
  package var _hasGap: Bool { state.withLock { $0.graph.hasGap } }
  /// How many version nodes the undo tree stores (a trimmed journal's dropped versions take none).
  @inlinable
  package var _storedVersionNodes: Int { state.withLock { $0.graph.nodes.storage.count } }
  /// Whether ``undo()`` would succeed.
  @inlinable
  public var canUndo: Bool {
    state.withLock { state in
      // The oldest version a store that has not loaded its history holds: every version but 0
      // has a parent (a journal with lost or dropped versions is never opened so).
      if state.unloaded != nil, let window = state.window, state.head == window.root { return window.root != 0 }
      return state.graph.parent(of: state.head) != nil
    }
  }
  /// What ``redo()`` would move to, if anything.
  @inlinable
  public var redoTarget: Version? {
    if state.withLock({ $0.knownRedoChild(of: $0.head) == nil }) { _loadHistoryForReading() }
    return state.withLock { state in state.graph.redoChild(of: state.head).map { Version($0) } }
  }

  /// Parent, time, label and size of a version; nil when unknown or lost (see
  /// ``lostVersions``). The version a repaired journal's history resumed at has no parent.
  @inlinable
  public func info(for version: Version) -> VersionInfo? {
    if let unloaded = state.withLock({ $0.unloaded }), version.rawValue <= unloaded.latest {
      return unloaded.source.info(version)
    }
    return state.withLock {
      $0.graph.contains(version.rawValue) && !$0.graph.lost.contains(version.rawValue) ? $0.graph.info(of: version.rawValue) : nil
    }
  }

  /// The versions lost when the store's journal was repaired (see ``HistoryGap``), as runs;
  /// empty for every history that was never damaged.
  ///
  /// ```swift
  /// store.lostVersions   // [v151...v198]: v199 came back from a checkpoint
  /// ```
  /// - Complexity: O(runs).
  @inlinable
  public var lostVersions: [ClosedRange<Version>] {
    state.withLock { $0.graph.lost.runs.map { Version($0.lowerBound)...Version($0.upperBound) } }
  }

  /// Where the kept history starts when the journal's older history was dropped (`compact
  /// --keep-last`/`--keep-since`, ``HistoryGap/Reason/retention``): the version whose state the
  /// trimmed journal kept, with no parent; nil for a history that keeps everything. Every version
  /// before it, and every later one on a branch that left the history before it, is dropped:
  /// reading one throws ``HistoryError/versionDropped(_:keptFrom:)``.
  ///
  /// ```swift
  /// if let start = store.keptHistoryStart { print("history since \(start)") }
  /// ```
  @inlinable
  public var keptHistoryStart: Version? {
    state.withLock { $0.graph.droppedThrough > 0 ? Version($0.graph.keptFrom) : nil }
  }

  /// The versions committed directly on top of `version`, oldest first.
  @inlinable
  public func children(of version: Version) -> [Version] {
    _loadHistoryForReading()
    return state.withLock { $0.graph.contains(version.rawValue) ? $0.graph.children(of: version.rawValue).map { Version($0) } : [] }
  }

  /// The events of the transaction that created `version` (empty for version 0, and for the
  /// version a repaired journal resumed at, whose transaction was lost).
  ///
  /// - Throws: ``HistoryError/unknownVersion(_:)``; ``HistoryError/versionLost(_:lost:)``.
  @inlinable
  public func events(of version: Version) throws(HistoryError) -> [Event] {
    if let unloaded = state.withLock({ $0.unloaded }), version.rawValue <= unloaded.latest {
      if let events = unloaded.source.events(version) { return events }
      try _loadHistory()
    }
    return try state.withLock { state throws(HistoryError) in
      guard state.graph.contains(version.rawValue) else { throw .unknownVersion(version) }
      if let error = state.graph.lostError(version.rawValue) { throw error }
      return Array(state.graph.events(of: version.rawValue))
    }
  }

  /// The events that turn the state at `from` into the state at `to` (across branches: the
  /// inverses of the versions back to their common ancestor, then the versions down to `to`).
  /// This is what an event-derived diff folds.
  ///
  /// - Complexity: O(events along the path).
  @inlinable
  public func events(from: Version, to: Version) throws(HistoryError) -> [Event] {
    try _materialize(from, to)
    return try state.withLock { state throws(HistoryError) in
      for version in [from, to] {
        guard state.graph.contains(version.rawValue) else { throw .unknownVersion(version) }
        if let error = state.graph.lostError(version.rawValue) { throw error }
      }
      guard let path = state.graph.path(from: from.rawValue, to: to.rawValue) else {
        throw state.graph.gapError(between: from.rawValue, and: to.rawValue)
      }
      return state.graph.pathEvents(path)
    }
  }

  /// The state at any version, on any branch, without moving the head (markers cleared).
  ///
  /// - Throws: ``HistoryError/unknownVersion(_:)``; ``HistoryError/versionLost(_:lost:)``.
  /// - Complexity: at most one checkpoint lookup plus fewer than twice the current
  ///   ``checkpointInterval`` events plus the events of one transaction — or the events on the
  ///   path from the head, when fewer (so versions near the head are cheap whatever the
  ///   interval); O(1) for the head. A store opened from its journal's head that has not loaded
  ///   its history rebuilds a version it does not hold from the file instead: the nearest
  ///   checkpoint record and the records after it, as `JournalTimeTravel` does.
  @inlinable
  public func state(at version: Version) throws(HistoryError) -> Snapshot {
    // A store opened from its head knows the states around it; older ones come from the file
    // near them, and only when that fails from the loaded history.
    if let travelled = _stateFromSource(at: version) { return travelled }
    try _materialize(version)
    // Collect the base and the events under the lock (O(interval)); fold outside it.
    let plan = try state.withLock { state throws(HistoryError) -> (Snapshot, [Event]) in
      guard state.graph.contains(version.rawValue) else { throw .unknownVersion(version) }
      if let error = state.graph.lostError(version.rawValue) { throw error }
      if version.rawValue == state.head { return (state.headSnapshot, []) }
      return state.graph.foldPlan(at: version.rawValue, orFrom: state.head, state: state.headSnapshot)
    }
    let (base, events) = plan
    var result = base
    for event in events { try event.apply(to: &result, verifying: false) }
    result.clearMarkers()
    return result
  }
}

extension ListStore {
  /// Makes sure the graph holds `versions` (see ``_StoreState/isMaterialized(_:)``): reads the
  /// window around the opened head of a store that has not loaded its history, and loads the
  /// history when that is not enough. A no-op for a store with its whole history.
  @inlinable
  func _materialize(_ versions: Version...) throws(HistoryError) {
    let held = state.withLock { state in
      state.unloaded == nil || state.holdsReadingTheWindow(versions.lazy.map { $0.rawValue })
    }
    if !held { try _loadHistory() }
  }
}

extension _HistoryGraph {
  @inlinable
  func pathEvents(_ path: (revert: [Int], apply: [Int])) -> [Event] {
    // Plain loops: a `lazy.map(\.inverse)` here instantiated a generic key path per version
    // (`swift_getKeyPath`), a third of the cost of each undo replayed from a journal.
    var result: [Event] = []
    for version in path.revert { appendInverses(of: version, to: &result) }
    for version in path.apply { result.append(contentsOf: events(of: version)) }
    return result
  }
}

/// Seconds since 1970 from the system clock.
@inlinable
@Sendable public func _systemClock() -> Double { Date().timeIntervalSince1970 }
