import ListLocking
import ListState

extension ListStore {
  /// A store that continues a record stream from its head, without replaying it: the head's
  /// state, the newest version and where the stream stands (``HistoryStreamPosition``) are
  /// given; the versions before are read from `source` when first needed (see
  /// ``_loadHistory()``). Commits go on at once, encoded exactly as the store that wrote the
  /// stream would have encoded them.
  ///
  /// ```swift
  /// let store = try ListStore(
  ///   resumingAt: head, latest: latest, state: headState, eventCount: events, position: position,
  ///   codec: codec, sink: sink, configuration: configuration, encodingInBackground: false, source: source)
  /// try store.appendItems([row])       // no replay
  /// try store.undo()                   // replays the history first
  /// ```
  /// - Throws: ``HistoryCodecError`` when the position's tables are malformed.
  /// - Complexity: O(the encoder tables), plus O(latest − head) for the nodes after the head.
  @usableFromInline
  package convenience init(
    resumingAt head: Version, latest: Version, state headState: Snapshot, eventCount: Int,
    position: HistoryStreamPosition, codec: HistoryCodec<Section, Item>, sink: any HistoryRecordSink,
    configuration: ListStoreConfiguration, encodingInBackground: Bool, source: HistorySource<Section, Item>
  ) throws(HistoryCodecError) {
    var codec = codec
    try codec.restoreEncoderTables(from: position.encoderTables)
    // Every change of this store is encoded in order, as after a replay.
    codec.tracksCurrentContents = true
    var graph = _HistoryGraph<Section, Item>(
      checkpointInterval: configuration.checkpointInterval, budget: configuration.checkpointBudget)
    graph.startUnloaded(through: latest.rawValue, head: head.rawValue, state: headState)
    var state = _StoreState(graph: graph, clock: configuration.clock)
    state.head = head.rawValue
    state.headSnapshot = headState
    state.journalCheckpointBytes = configuration.journalCheckpointBytes
    state.recordSequence = position.recordSequence
    state.checkpointSpacing = _CheckpointSpacing(
      bytesSinceCheckpoint: position.bytesSinceCheckpoint, lastCheckpointBytes: position.lastCheckpointBytes)
    state.lastCheckpointSequence = position.lastCheckpointSequence
    state.lastCheckpointItems = position.lastCheckpointItems
    state.checkpointDueSince = position.checkpointDueSince
    state.unloaded = _UnloadedHistory(
      latest: latest.rawValue, head: head.rawValue, headState: headState, eventCount: eventCount,
      redoChild: position.redoChild, source: source)
    if encodingInBackground {
      state.backgroundEncoder = _BackgroundRecordEncoder(
        codec: codec, sink: sink, journalCheckpointBytes: configuration.journalCheckpointBytes,
        spacing: state.checkpointSpacing, lastSequence: position.recordSequence,
        checkpointDueSince: position.checkpointDueSince, lastCheckpointItems: position.lastCheckpointItems)
    } else {
      state.codec = codec
      state.sink = sink
    }
    self.init(state: state)
  }

  /// Where this store's record stream stands (see ``HistoryStreamPosition``), for a store that
  /// continues it later; nil without a codec, after a checkpoint the background encoder had to
  /// skip (the stream's numbering then differs from the store's), or when the tables cannot be
  /// encoded. Meant for a store whose records are all written (a closed journal).
  ///
  /// - Complexity: O(the encoder tables).
  @usableFromInline
  package func _streamPosition() -> HistoryStreamPosition? {
    let encoder = backgroundEncoder.map { encoder in
      encoder.encoderSide.withLock { ($0.codec, $0.spacing, $0.dueSince, $0.refusedCheckpoints) }
    }
    return state.withLock { state -> HistoryStreamPosition? in
      let codec: HistoryCodec<Section, Item>
      let spacing: _CheckpointSpacing
      var dueSince = state.checkpointDueSince
      if let encoder {
        guard encoder.3 == 0 else { return nil }
        (codec, spacing, dueSince) = (encoder.0, encoder.1, encoder.2)
      } else {
        guard let own = state.codec else { return nil }
        (codec, spacing) = (own, state.checkpointSpacing)
      }
      guard let tables = try? codec.encodedEncoderTables() else { return nil }
      let redoChild: Int? =
        if let unloaded = state.unloaded, state.head == unloaded.head { unloaded.redoChild } else {
          state.graph.redoChild(of: state.head)
        }
      return HistoryStreamPosition(
        recordSequence: state.recordSequence, bytesSinceCheckpoint: spacing.bytesSinceCheckpoint,
        lastCheckpointBytes: spacing.lastCheckpointBytes, lastCheckpointSequence: state.lastCheckpointSequence,
        lastCheckpointItems: state.lastCheckpointItems, checkpointDueSince: dueSince, redoChild: redoChild,
        encoderTables: tables)
    }
  }

  /// Whether the store has not loaded its older history yet (opened from its head).
  @inlinable
  package var _isHistoryUnloaded: Bool { state.withLock { $0.unloaded != nil } }
}
