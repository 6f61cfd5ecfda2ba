import ListLocking
import ListState

/// Where a store opened from its head (``ListStore/init(resumingAt:)``) finds the versions it did
/// not read: what can be answered cheaply (a version's facts, the events of recent versions)
/// and, once anything else is asked, the whole history as it was at open.
@usableFromInline
package struct HistorySource<Section: ListElement, Item: ListElement>: Sendable {
  /// A version's parent, time, label and size (nil: not known here).
  @usableFromInline package var info: @Sendable (Version) -> VersionInfo?
  /// The events of a version (nil: not known here; the whole history is loaded for them).
  @usableFromInline package var events: @Sendable (Version) -> [ListEvent<Section, Item>]?
  /// The history as it was at open, replayed from the records (no sink): called once, the first
  /// time something needs more than the above.
  @usableFromInline package var replay: @Sendable () throws(HistoryError) -> ListStore<Section, Item>

  package init(
    info: @escaping @Sendable (Version) -> VersionInfo?, events: @escaping @Sendable (Version) -> [ListEvent<Section, Item>]?,
    replay: @escaping @Sendable () throws(HistoryError) -> ListStore<Section, Item>
  ) {
    self.info = info
    self.events = events
    self.replay = replay
  }
}

/// What a store opened from its head knows of the history it has not loaded, and the load.
///
/// The store holds versions `0...latest` as a run without nodes (no memory per version) but for
/// the opened head, whose state it has; commits made since are real versions on top of it.
/// Nothing moves the head before the history is loaded, so those commits form a chain from the
/// opened head. Loading replays the records of versions `0...latest` (immutable since open) off
/// the store's lock, then adds the chain to them (``ListStore/_loadHistory()``).
@usableFromInline
final class _UnloadedHistory<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline typealias Snapshot = ListSnapshot<Section, Item>

  /// The newest version when the store was opened.
  @usableFromInline let latest: Int
  /// The head when the store was opened, and its state.
  @usableFromInline let head: Int
  @usableFromInline let headState: Snapshot
  /// Events of versions `0...latest`.
  @usableFromInline let eventCount: Int
  /// The opened head's redo child (nil: none).
  @usableFromInline let redoChild: Int?
  @usableFromInline let source: HistorySource<Section, Item>
  /// The replayed history (or why it failed), computed once; taken by the store that merges it.
  @usableFromInline let loaded = ListMutex<Result<ListStore<Section, Item>, HistoryError>?>(nil)

  @inlinable
  init(latest: Int, head: Int, headState: Snapshot, eventCount: Int, redoChild: Int?, source: HistorySource<Section, Item>) {
    self.latest = latest
    self.head = head
    self.headState = headState
    self.eventCount = eventCount
    self.redoChild = redoChild
    self.source = source
  }

  /// Replays the history unless that was done (or failed) before; threads that ask meanwhile
  /// wait for the one replay.
  @usableFromInline
  func load() {
    loaded.withLock { result in
      guard result == nil else { return }
      result = Result { () throws(HistoryError) in try source.replay() }
    }
  }

  /// The replayed history, taken out (a failure stays, for the next caller).
  @inlinable
  func takeLoaded() throws(HistoryError) -> ListStore<Section, Item> {
    try loaded.withLock { result throws(HistoryError) in
      switch result {
      case .success(let store)?:
        result = nil
        return store
      case .failure(let error)?: throw error
      case nil: throw .invalidRecord(sequence: 0, reason: "the history was not loaded")
      }
    }
  }
}

extension ListStore {
  /// Loads the history a store opened from its head has not read yet: replays the journal's
  /// versions up to the opened head (off the lock, once), checks that they end where the store
  /// started, and adds the commits made since. A no-op for a store with its whole history.
  ///
  /// - Throws: ``HistoryError/invalidRecord(sequence:reason:)`` when the records cannot be
  ///   replayed or do not end at the state the store was opened with (the store then stays
  ///   as it is, every history read failing the same way).
  /// - Complexity: O(history) once; O(1) afterwards.
  @usableFromInline
  package func _loadHistory() throws(HistoryError) {
    guard let unloaded = state.withLock({ $0.unloaded }) else { return }
    unloaded.load()
    try state.withLock { state throws(HistoryError) in
      guard state.unloaded === unloaded else { return }
      let replayed = try unloaded.takeLoaded()
      // Moved out, not copied: a graph the replayed store still shared would be copied whole by
      // the first commit added below.
      var (graph, replayedHead, replayedState) = replayed.state.withLock { replayedState in
        var taken = _HistoryGraph<Section, Item>(checkpointInterval: 1, budget: .default)
        swap(&taken, &replayedState.graph)
        return (taken, replayedState.head, replayedState.headSnapshot)
      }
      guard graph.count == unloaded.latest + 1, replayedHead == unloaded.head else {
        throw .invalidRecord(
          sequence: 0,
          reason: "the journal's records end at v\(graph.count - 1) with the head at v\(replayedHead), "
            + "not v\(unloaded.latest) and v\(unloaded.head) as its read index said")
      }
      guard replayedState == unloaded.headState else {
        throw .invalidRecord(
          sequence: 0, reason: "the journal's records give another state of v\(unloaded.head) than its read index")
      }
      // The commits since open: a chain from the opened head (nothing moved the head meanwhile).
      var stateAfter = unloaded.headState
      for version in (unloaded.latest + 1)..<state.graph.count {
        let node = state.graph.node(version)
        var events = Array(state.graph.events(of: version))
        do {
          for event in events { try event.apply(to: &stateAfter, verifying: false) }
        } catch {
          throw .inconsistentEvent(reason: "v\(version) does not apply after the loaded history: \(error)")
        }
        let added = graph.add(
          parent: Int(node.parent), moving: &events, label: node.label, timestampMillis: node.timestampMillis,
          stateAfter: stateAfter)
        assert(added == version, "v\(version) moved to v\(added)")
        graph.visit(added)
      }
      state.graph = graph
      state.unloaded = nil
    }
  }

  /// Loads the history for a read that cannot fail; a failure leaves the store answering from
  /// what it has (the next throwing call reports it).
  @inlinable
  func _loadHistoryForReading() { try? _loadHistory() }
}
