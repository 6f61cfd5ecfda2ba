import ListState

extension ListStore {
  /// Rebuilds a store from the records a sink received (in order): every version and branch,
  /// the head and the redo memory come back exactly. The in-memory checkpoints are placed (and
  /// thinned by `checkpointBudget`) as they were in the store that wrote the records, given the
  /// same interval and budget. Every event is verified against the state
  /// it applies to, so a foreign or corrupt stream is refused, not silently misapplied.
  ///
  /// With a `sink`, later changes are appended to the same stream: the codec continues with
  /// the intern tables the records defined, and record sequence numbers continue.
  ///
  /// ```swift
  /// let reopened = try ListStore<String, String>(replaying: sink.records, codec: HistoryCodec())
  /// reopened.head == store.head   // true
  /// ```
  /// - Throws: ``HistoryError/invalidRecord(sequence:reason:)`` naming the record (and byte offset).
  /// - Complexity: O(total events · log n) plus the head moves' paths.
  @inlinable
  public convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)? = nil, checkpointInterval: Int = ListStoreConfiguration.defaultCheckpointInterval,
    checkpointBudget: CheckpointBudget = .default, journalCheckpointBytes: Int = ListStoreConfiguration.defaultJournalCheckpointBytes,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) throws(HistoryError) {
    try self.init(
      replaying: records, codec: codec, sink: sink, checkpointInterval: checkpointInterval,
      checkpointBudget: checkpointBudget, journalCheckpointBytes: journalCheckpointBytes, options: ReplayOptions(),
      clock: clock)
  }

  /// The replay above, with the store's settings as one value (``ListStoreConfiguration``).
  ///
  /// ```swift
  /// let reopened = try ListStore<String, String>(
  ///   replaying: sink.records, codec: HistoryCodec(), sink: nil, configuration: .init(checkpointInterval: 1_024))
  /// ```
  @inlinable
  public convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)?, configuration: ListStoreConfiguration
  ) throws(HistoryError) {
    try self.init(
      replaying: records, codec: codec, sink: sink, checkpointInterval: configuration.checkpointInterval,
      checkpointBudget: configuration.checkpointBudget, journalCheckpointBytes: configuration.journalCheckpointBytes,
      options: ReplayOptions(), clock: configuration.clock)
  }

  /// The replay above, done as `options` say: how it folds, when it hands records to a second
  /// thread, whether the rebuilt store encodes in the background (see ``ReplayOptions``). The
  /// store it gives is the same whatever the options.
  ///
  /// The replay itself is ``_Replay``: records are decoded and applied in order on this thread,
  /// then (a long stream) decoded here and folded on a second thread
  /// (``_Replay/replayPipelined(_:codec:batchRecords:batchEvents:)``). A replay that folded
  /// flat ends by building the snapshots it left pending.
  @inlinable
  package convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)?, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int, options: ReplayOptions, clock: @escaping @Sendable () -> Double
  ) throws(HistoryError) {
    let replay = _Replay<Section, Item>(
      state: _StoreState(graph: _HistoryGraph(checkpointInterval: checkpointInterval, budget: checkpointBudget), clock: clock),
      folding: options.folding.resolved(checkpointInterval: checkpointInterval))
    replay.state.journalCheckpointBytes = journalCheckpointBytes
    // Most records are commits of about one event: room for that many versions and events up
    // front (more events grow the arrays as usual). Reserved once the replay owns the state
    // alone: with a copy left behind, the first append would copy the arrays into storage
    // sized by their count, and the room would be lost.
    replay.state.graph.reserveCapacity(versions: options.expectedRecordCount, events: options.expectedRecordCount)
    var codec = codec
    // Without a sink nothing is encoded after the replay: the decoded contents need not stay.
    codec.decodingMode = sink != nil ? .keepingContents : .droppingContents
    try replay.run(records, codec: &codec, options: options)
    if replay.state.awaitsResumption {
      throw .invalidRecord(
        sequence: replay.state.recordSequence, reason: "the stream ends after a gap, without the checkpoint that resumes it")
    }
    // Only a store with a sink encodes (the codec's encoder tables cost O(items) to build).
    if replay.fold != nil {
      // Those tables are built beside the snapshots a flat replay ends with: independent work.
      let encoding = _CodecInProgress(consume codec)  // moved: a copy would share (and then copy) its tables
      do {
        try replay.buildSnapshots(alongside: sink == nil ? [] : [{ encoding.codec.continueEncodingAfterDecoding() }])
      } catch {
        throw .invalidRecord(sequence: replay.markerSequence, reason: error.description)
      }
      codec = encoding.codec
      // The fold (a record per item, each holding its item) goes on a background queue: freeing
      // it is a pass over cold memory that the caller need not wait for.
      _releaseInBackground(replay.fold.take())
    } else if sink != nil {
      codec.continueEncodingAfterDecoding()
    }
    var state = replay.state
    codec.tracksCurrentContents = true
    if options.encodingInBackground, let sink {
      // It continues exactly where a store that never closed would stand (same checkpoints),
      // unless that store skipped a checkpoint over the sink's limit: the file keeps no trace
      // of it, so this one tries it once more.
      state.backgroundEncoder = _BackgroundRecordEncoder(
        codec: codec, sink: sink, journalCheckpointBytes: journalCheckpointBytes, spacing: state.checkpointSpacing,
        lastSequence: state.recordSequence, checkpointDueSince: state.checkpointDueSince,
        lastCheckpointItems: state.lastCheckpointItems)
    } else {
      state.codec = codec
      state.sink = sink
    }
    self.init(state: state)
  }
}

/// A codec handed to the task that turns its decoder's tables into an encoder's while a replay
/// builds its snapshots (``_Replay/buildSnapshots(alongside:)``): only that task touches it
/// until they all returned.
@usableFromInline
final class _CodecInProgress<Section: ListElement, Item: ListElement>: @unchecked Sendable {
  @usableFromInline var codec: HistoryCodec<Section, Item>
  @inlinable
  init(_ codec: consuming HistoryCodec<Section, Item>) { self.codec = codec }
}
