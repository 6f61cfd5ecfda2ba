import ListState

extension _StoreState {
  /// ``replay(_:itemsFromState:firstEvent:)`` into a flat fold state instead of the head's
  /// snapshot (which stays an empty placeholder until the replay ends). A checkpoint due keeps
  /// a copy of the fold in `pendingCheckpoints`, built into a snapshot at the end of the replay
  /// if thinning has not dropped it.
  ///
  /// A commit's events are in `buffer`'s `buffered.range` when one is given (see
  /// ``_ReplayBatch``), of replay work `buffered.weight`, and are moved out of it.
  ///
  /// - Returns: whether a head move started from a checkpoint's state (not from the head).
  @inlinable
  @discardableResult
  mutating func replay(
    _ content: consuming HistoryRecordContent<Section, Item>, bufferedEvents buffer: inout [ListEvent<Section, Item>],
    in buffered: (range: Range<Int>, weight: Int)?, into fold: inout ListFold<Section, Item>,
    pendingCheckpoints: inout _PendingCheckpoints<Section, Item>, prefetching prefetcher: inout _FoldPrefetcher,
    itemsFromState: inout _ItemsFromState<Item.ID>
  ) throws -> Bool {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      if graph.lost.contains(head) {
        // On a lost version: lost too (its events, if buffered, stay behind as the batch's, and
        // their stand-ins unfilled).
        for index in buffered?.range ?? 0..<0 { _ = itemsFromState.id(forEvent: index) }
        graph.addLost(through: commit.version.rawValue)
        head = commit.version.rawValue
        return false
      }
      if let buffered {
        try replayCommit(
          commit, events: &buffer, in: buffered.range, weight: buffered.weight, into: &fold,
          pendingCheckpoints: &pendingCheckpoints, prefetching: &prefetcher, itemsFromState: &itemsFromState)
      } else {
        // Taken, not shared: the history moves the events out of a uniquely owned array (a
        // shared one would be copied whole by the move).
        var events: [ListEvent<Section, Item>] = []
        swap(&events, &commit.events)
        let all = events.indices
        // Its hints look into this array: the prefetcher starts over here and after it.
        prefetcher.reset()
        defer { prefetcher.reset() }
        var none = _ItemsFromState<Item.ID>()  // only a batch's events have stand-ins
        try replayCommit(
          commit, events: &events, in: all, weight: nil, into: &fold, pendingCheckpoints: &pendingCheckpoints,
          prefetching: &prefetcher, itemsFromState: &none)
      }
      return false
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      if graph.lost.contains(target) {
        head = target
        fold = ListFold()  // unknown; nothing reads a lost head's state
        graph.visit(target)
        return true
      }
      let (baseVersion, events) = headMovePlan(to: target)
      if let baseVersion {
        fold = pendingCheckpoints.fold(at: baseVersion) ?? ListFold(graph.checkpoints[Int32(baseVersion)]!)
      }
      for event in events { try fold.apply(event, verifying: false) }
      head = target
      graph.visit(target)
      return baseVersion != nil
    case .checkpoint(let checkpoint):
      if awaitsResumption {
        fold = ListFold(try resume(at: checkpoint))
        return true
      }
      try checkReplayed(checkpoint)
      return false
    case .gap(let gap):
      try replayGap(gap)
      fold = ListFold()
      return true
    }
  }

  /// Folds the commit whose events are `events[range]` (in place, of replay work `weight` when
  /// known) and moves them into the history, keeping a copy of the fold for a checkpoint due.
  ///
  /// Never inlined: inlined into `_Replay.apply`, the fold became the replay's stored property
  /// there instead of an `inout` parameter, and the optimizer copied it out for each event.
  @inlinable
  @inline(never)
  mutating func replayCommit(
    _ commit: HistoryCommit<Section, Item>, events: inout [ListEvent<Section, Item>], in range: Range<Int>,
    weight: Int?, into fold: inout ListFold<Section, Item>, pendingCheckpoints: inout _PendingCheckpoints<Section, Item>,
    prefetching prefetcher: inout _FoldPrefetcher, itemsFromState: inout _ItemsFromState<Item.ID>
  ) throws {
    for index in range {
      prefetcher.advance(to: index, in: &events, fold: fold)
      if let id = itemsFromState.id(forEvent: index) { try events[index]._fillStandIn(for: id, with: fold._item(id)) }
      try fold._apply(&events[index], verifying: true)
    }
    let (version, isCheckpoint) = graph.add(
      parent: head, movingEventsIn: range, of: &events, weight: weight, label: commit.label,
      timestampMillis: HistoryCodec<Section, Item>.millis(commit.timestamp),
      pendingCheckpointBytes: CheckpointBudget.estimatedCost(of: fold))
    if isCheckpoint { pendingCheckpoints.keep(fold, at: version) }
    // Thinning may have dropped pending checkpoints, this one included (rare: tested first, so
    // that a commit pays no call for it).
    if !graph.droppedPendingCheckpoints.isEmpty { pendingCheckpoints.drop(graph.takeDroppedPendingCheckpoints()) }
    graph.visit(version)
    head = version
  }
}
