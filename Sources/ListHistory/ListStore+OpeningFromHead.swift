import ListLocking
import ListState

extension ListStore {
  /// A store that continues a record stream from its head, without replaying it: the head's
  /// state, the newest version and where the stream stands (``HistoryStreamPosition``) are
  /// given; the versions before are read from `source` when first needed (see
  /// ``_loadHistory()``). Commits go on at once, encoded exactly as the store that wrote the
  /// stream would have encoded them. `codec` continues the stream: its encoder tables are the
  /// position's (``HistoryCodec/restoreEncoderTables(from:)`` of `position.encoderTables`).
  ///
  /// ```swift
  /// var codec = codec
  /// try codec.restoreEncoderTables(from: position.encoderTables)
  /// let store = ListStore(
  ///   resumingAt: head, latest: latest, state: headState, eventCount: events, position: position,
  ///   codec: codec, sink: sink, configuration: configuration, encodingInBackground: false, source: source)
  /// try store.appendItems([row])       // no replay
  /// try store.undo()                   // replays the history first
  /// ```
  /// - Complexity: O(latest − head) for the nodes after the head.
  @inlinable
  package convenience init(
    resumingAt head: Version, latest: Version, state headState: Snapshot, eventCount: Int,
    position: HistoryStreamPosition, codec: HistoryCodec<Section, Item>, sink: any HistoryRecordSink,
    configuration: ListStoreConfiguration, encodingInBackground: Bool, source: HistorySource<Section, Item>
  ) {
    var codec = codec
    // Every change of this store is encoded in order, as after a replay.
    codec.tracksCurrentContents = true
    var graph = _HistoryGraph<Section, Item>(
      checkpointInterval: configuration.checkpointInterval, budget: configuration.checkpointBudget)
    graph.startUnloaded(through: latest.rawValue, head: head.rawValue, state: headState)
    graph.setRedoChild(of: head.rawValue, to: .some(position.redoChild))
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
    state.window = _UnloadedWindow(root: head.rawValue)
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
    // The head's redo child is part of the position: a window that did not read it loads it.
    if state.withLock({ $0.knownRedoChild(of: $0.head) == nil }) { _loadHistoryForReading() }
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
      guard let redoChild = state.knownRedoChild(of: state.head) else { return nil }
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

  /// The events of `version` when the store has them without loading its history (always
  /// once loaded); nil otherwise, or for an unknown or lost version.
  @inlinable
  package func _eventsAtHand(of version: Version) -> [Event]? {
    // The window's root has its state in the graph, not its events.
    let unloaded = state.withLock { state in
      state.isMaterialized(version.rawValue) && version.rawValue != state.window?.root ? nil : state.unloaded
    }
    if let unloaded { return unloaded.source.events(version) }
    return state.withLock { state in
      guard state.graph.contains(version.rawValue), state.graph.lostError(version.rawValue) == nil else { return nil }
      return Array(state.graph.events(of: version.rawValue))
    }
  }

  /// The state at `version` from the history's source, for a store that has not loaded its
  /// history and does not hold that version (not the window's, not a commit since open); nil
  /// otherwise, when the source cannot tell, or once loading the history failed.
  ///
  /// - Complexity: the window's read, the first time; then what the source's rebuild costs
  ///   (for a journal: a checkpoint near the version and the records from it).
  @inlinable
  package func _stateFromSource(at version: Version) -> Snapshot? {
    let unloaded = state.withLock { state -> _UnloadedHistory<Section, Item>? in
      guard let unloaded = state.unloaded, version.rawValue >= 0, version.rawValue <= unloaded.latest else { return nil }
      return state.holdsReadingTheWindow(CollectionOfOne(version.rawValue)) ? nil : unloaded
    }
    guard let unloaded, !unloaded.failedToLoad else { return nil }
    return unloaded.source.state(version)
  }

  /// The child redo goes to from `version` when the store knows it without loading its history
  /// (always once loaded): `.some(nil)` for none, nil when not known.
  @inlinable
  package func _redoChildAtHand(of version: Version) -> Version?? {
    let unloaded = state.withLock { $0.isMaterialized(version.rawValue) ? nil : $0.unloaded }
    if let unloaded { return unloaded.source.redoChild(version) }
    return state.withLock { state in
      guard state.graph.contains(version.rawValue) else { return nil }
      return state.knownRedoChild(of: version.rawValue).map { $0.map { Version($0) } }
    }
  }
}
