import ListState

/// A replay in progress: the store's state being rebuilt from records, and — while it folds
/// flat — the fold, the checkpoints still to build from it, and where the head's markers come
/// from.
///
/// ``run(_:codec:options:)`` is the driver: the first records are decoded and applied here, in
/// order; a long stream's rest is decoded on this thread and folded on a second one
/// (``replayPipelined(_:codec:batchRecords:batchEvents:)``). Each record goes through
/// ``apply(_:bufferedEvents:from:itemsFromState:)``, which folds it into snapshots
/// (`_StoreState.replay(_:itemsFromState:firstEvent:)`) or into `fold`
/// (`_StoreState.replay(_:bufferedEvents:in:into:pendingCheckpoints:prefetching:itemsFromState:)`)
/// and keeps the journal bookkeeping. A flat replay ends with ``buildSnapshots(alongside:)``.
///
/// A class, so that a replay's second thread can work on it in place. It is owned by one thread
/// at a time: the replaying thread, except while a pipelined replay's worker runs, which the
/// replaying thread waits for (`DispatchGroup.wait()` orders the two threads' accesses).
///
/// That ownership is also why its properties skip the dynamic exclusivity checks: the folding
/// thread would pay a check on every access (four a record), and no two accesses ever overlap.
@usableFromInline
final class _Replay<Section: ListElement, Item: ListElement>: @unchecked Sendable {
  @usableFromInline @exclusivity(unchecked) var state: _StoreState<Section, Item>
  /// The flat fold the events go into, while the replay folds flat (the head's snapshot is then
  /// an empty placeholder until ``buildSnapshots(alongside:)``).
  @usableFromInline @exclusivity(unchecked) var fold: ListFold<Section, Item>?
  /// The states of the checkpoints the history left pending while folding flat.
  @usableFromInline @exclusivity(unchecked) var pendingCheckpoints = _PendingCheckpoints<Section, Item>()
  /// The worker's failure, read by the replaying thread after the worker finished.
  @usableFromInline @exclusivity(unchecked) var failure: HistoryError?
  /// When the replay moves from snapshots to `fold`: once the checkpoint budget has spread the
  /// checkpoints to at least this interval and ``foldPays(interval:items:minimumInterval:)``
  /// (nil: never).
  @usableFromInline let flatFromInterval: Int?
  /// Where the head's reload and reconfigure markers come from while folding flat (a fold
  /// keeps none): the record that last changed the head. ``buildSnapshots(alongside:)`` redoes it.
  @usableFromInline @exclusivity(unchecked) var markerSource: _MarkerSource = .none
  /// The sequence number of the record `markerSource` names (for an error redoing it).
  @usableFromInline @exclusivity(unchecked) var markerSequence: UInt64 = 0
  /// Requests the memory of a batch's next events while the fold applies the current one.
  @usableFromInline @exclusivity(unchecked) var prefetcher = _FoldPrefetcher()

  @usableFromInline
  enum _MarkerSource {
    /// Markers cleared (a head move rebuilt from a checkpoint), or none set.
    case none
    /// The commit that created this version.
    case commit(Int)
    /// A head move along a short path of transactions.
    case move(from: Int, to: Int)
  }

  /// A replay into `state` (a new store's), folding as `folding` says (resolved: never
  /// `.automatic`).
  @inlinable
  init(state: _StoreState<Section, Item>, folding: ListStore<Section, Item>.ReplayOptions.Folding) {
    self.state = state
    switch folding {
    case .automatic, .snapshots:
      assert(folding != .automatic, "an unresolved folding")
      (fold, flatFromInterval) = (nil, nil)
    case .flat: (fold, flatFromInterval) = (ListFold(), nil)
    case .snapshotsThenFlat(let interval): (fold, flatFromInterval) = (nil, interval)
    }
  }

  /// Whether folding flat pays at checkpoint interval `interval` on a list of `items` items: a
  /// checkpoint then costs a snapshot built from the fold, O(items), instead of nothing, but
  /// every event folds in a fraction of its cost on a persistent snapshot (which also copies
  /// paths that the checkpoints share). Switching once the interval reaches an eighth of the
  /// list replayed long mixed histories fastest (see Tools/Benchmarks/README.md, Replay).
  @inlinable
  static func foldPays(interval: Int, items: Int, minimumInterval: Int) -> Bool {
    interval >= minimumInterval && interval >= items / 8
  }

  /// Replays `records` with `codec`: the first `options.pipelineThreshold` on this thread, the
  /// rest (a long stream) pipelined.
  ///
  /// - Throws: ``HistoryError/invalidRecord(sequence:reason:)`` for the first record in stream
  ///   order that fails.
  @inlinable
  func run(
    _ records: some Sequence<HistoryRecord>, codec: inout HistoryCodec<Section, Item>,
    options: ListStore<Section, Item>.ReplayOptions
  ) throws(HistoryError) {
    var iterator = records.makeIterator()
    var replayed = 0
    while replayed < options.pipelineThreshold, let record = iterator.next() {
      try apply(_ReplayedRecord(decoding: record, with: &codec))
      replayed += 1
    }
    // A long stream: decoding (here) and folding (on a second thread) overlap.
    if replayed == options.pipelineThreshold {
      try replayPipelined(
        &iterator, codec: &codec, batchRecords: max(1, options.batchRecords), batchEvents: max(1, options.batchEvents))
    }
  }

  /// Applies one decoded record (verifying every event) and keeps the journal bookkeeping.
  @inlinable
  func apply(_ record: consuming _ReplayedRecord<Section, Item>) throws(HistoryError) {
    var noBuffer: [ListEvent<Section, Item>] = []
    var none = _ItemsFromState<Item.ID>()
    try apply(record, bufferedEvents: &noBuffer, from: 0, itemsFromState: &none)
  }

  /// ``apply(_:)`` for a record of a ``_ReplayBatch``: a commit's events are those of `buffer`
  /// from `firstEvent` on (``_ReplayedRecord/bufferedEvents`` of them), moved out of it, and
  /// those `itemsFromState` lists get their remembered items from the state first.
  @inlinable
  func apply(
    _ record: consuming _ReplayedRecord<Section, Item>, bufferedEvents buffer: inout [ListEvent<Section, Item>],
    from firstEvent: Int, itemsFromState: inout _ItemsFromState<Item.ID>
  ) throws(HistoryError) {
    let sequence = record.sequence
    let kind = record.kind
    let payloadBytes = record.payloadBytes
    let bufferedWeight = record.bufferedWeight
    let buffered = record.bufferedEvents.map { (range: firstEvent..<(firstEvent + $0), weight: bufferedWeight) }
    // Taken out of the record (which ends here): the content's event arrays then have one owner
    // when the history moves them in. Reading `record.content` would leave the record holding a
    // second reference until the end of this function, and the history would copy the arrays.
    let content = record.takeContent()
    do {
      try state.checkResumed(kind)
      if fold != nil {
        let from = state.head
        let usedBase = try state.replay(
          consume content, bufferedEvents: &buffer, in: buffered, into: &fold!, pendingCheckpoints: &pendingCheckpoints,
          prefetching: &prefetcher, itemsFromState: &itemsFromState)
        switch kind {
        case .commit: (markerSource, markerSequence) = (.commit(state.head), sequence)
        case .headMove: (markerSource, markerSequence) = (usedBase ? .none : .move(from: from, to: state.head), sequence)
        case .checkpoint: if usedBase { (markerSource, markerSequence) = (.none, sequence) }
        case .gap: (markerSource, markerSequence) = (.none, sequence)
        }
      } else {
        var content = consume content
        if let buffered { content = Self.movingEvents(in: buffered.range, outOf: &buffer, into: content) }
        try state.replay(consume content, itemsFromState: &itemsFromState, firstEvent: firstEvent)
        if let flatFromInterval, kind == .commit,
          Self.foldPays(
            interval: state.graph.checkpointInterval, items: state.headSnapshot.numberOfItems,
            minimumInterval: flatFromInterval)
        {
          // From here on, flat (see `flatFromInterval`); the head's snapshot stays a placeholder
          // until the replay ends.
          fold = ListFold(state.headSnapshot)
          state.headSnapshot = ListSnapshot()
          (markerSource, markerSequence) = (.commit(state.head), sequence)
        }
      }
    } catch let error as HistoryError {
      throw .invalidRecord(sequence: sequence, reason: error.description)
    } catch {
      throw .invalidRecord(sequence: sequence, reason: "\(error)")
    }
    _ = state.graph.takeDroppedCheckpoints()  // freed here: nobody waits on a replay's commits
    state.recordSequence = sequence
    if kind == .checkpoint {
      state.checkpointSpacing.restart(afterCheckpointOf: payloadBytes, written: true)
      // Where a background encoder continuing this stream stands (its lagged rule): the last
      // checkpoint, the list's size then (the state a checkpoint records is the head's), and
      // no checkpoint due yet.
      state.lastCheckpointSequence = sequence
      state.lastCheckpointItems = fold?.numberOfItems ?? state.headSnapshot.numberOfItems
      state.checkpointDueSince = nil
    } else {
      state.checkpointSpacing.add(recordOf: payloadBytes)
      if state.checkpointDueSince == nil && state.checkpointSpacing.isDue(budget: state.journalCheckpointBytes) {
        state.checkpointDueSince = sequence
      }
    }
  }

  /// `content` with a commit's events moved out of `buffer`'s `range` into its own array (for
  /// folding into snapshots, which takes a commit as a transaction).
  @inlinable
  static func movingEvents(
    in range: Range<Int>, outOf buffer: inout [ListEvent<Section, Item>], into content: consuming HistoryRecordContent<Section, Item>
  ) -> HistoryRecordContent<Section, Item> {
    switch consume content {
    case .commit(var commit):
      commit.events.reserveCapacity(range.count)
      for index in range { commit.events.append(_HistoryGraph<Section, Item>.take(&buffer[index])) }
      return .commit(commit)
    case let other:
      return other
    }
  }
}
