extension ListStore {
  /// How a replay goes about rebuilding a store: how it folds the events, when it hands records
  /// to a second thread and in what batches, how the rebuilt store encodes, and how many
  /// records to expect. None of it changes the store a replay gives (the same versions,
  /// checkpoints, head and markers), only its speed. The defaults are the library's; tests set
  /// the knobs to take every way at any checkpoint interval and stream length.
  ///
  /// ```swift
  /// let options = ListStore<String, Row>.ReplayOptions(folding: .flat, pipeliningAfter: 0, batchRecords: 256)
  /// ```
  @usableFromInline
  package struct ReplayOptions: Sendable {
    /// What a replay folds the events into.
    @usableFromInline
    package enum Folding: Sendable, Hashable {
      /// The library's choice for the checkpoint interval: flat from the first record when the
      /// interval is at least ``ReplayOptions/flatCheckpointInterval``, otherwise into snapshots
      /// and then flat from ``ReplayOptions/flatFromInterval``.
      case automatic
      /// The head's persistent snapshot, every record (each checkpoint a copy of it).
      case snapshots
      /// A flat ``ListFold`` from the first record: a fraction of a persistent snapshot's cost
      /// per event, but each checkpoint and the head's snapshot are then built from the fold
      /// (O(items) each, at the end), which pays when checkpoints are far apart.
      case flat
      /// Snapshots until the checkpoint budget has spread the checkpoints to at least
      /// `fromInterval` events and an eighth of the list (``_Replay/foldPays(interval:items:minimumInterval:)``),
      /// then flat.
      case snapshotsThenFlat(fromInterval: Int)

      /// `.automatic` made concrete for a replay at `checkpointInterval`; any other as it is.
      @inlinable
      func resolved(checkpointInterval: Int) -> Folding {
        guard case .automatic = self else { return self }
        return checkpointInterval >= ReplayOptions.flatCheckpointInterval
          ? .flat : .snapshotsThenFlat(fromInterval: ReplayOptions.flatFromInterval)
      }
    }

    @usableFromInline package var folding: Folding
    /// After this many records the replay decodes and folds on two threads (shorter replays
    /// never start a second thread).
    @usableFromInline package var pipelineThreshold: Int
    /// Records per hand-over between the decoding and the folding thread; a batch also ends
    /// once it holds `batchEvents` events.
    @usableFromInline package var batchRecords: Int
    @usableFromInline package var batchEvents: Int
    /// With a sink, later changes are encoded and handed to it on a background queue
    /// (``_BackgroundRecordEncoder``), for a sink that writes later than the commit anyway. Its
    /// failures then show at the next change or at ``ListStore/_drainRecords()``, and its
    /// checkpoint records follow the lagged rule.
    @usableFromInline package var encodingInBackground: Bool
    /// How many records the stream holds, when known (a journal's index counts them): room for
    /// that many versions and events is reserved up front (`_HistoryGraph.reserveCapacity`). A
    /// hint only.
    @usableFromInline package var expectedRecordCount: Int

    /// The library's defaults, with those given changed.
    ///
    /// Why these batch sizes: most records of a long history are one-event commits, and smaller
    /// batches had the two threads wake each other thousands of times a second; the event bound
    /// keeps a run of large transactions from holding the fold back for a whole batch. See
    /// Tools/Benchmarks/README.md, Replay.
    @inlinable
    package init(
      folding: Folding = .automatic, pipeliningAfter pipelineThreshold: Int = 8_192, batchRecords: Int = 2_048,
      batchEvents: Int = 16_384, encodingInBackground: Bool = false, expectedRecordCount: Int = 0
    ) {
      self.folding = folding
      self.pipelineThreshold = pipelineThreshold
      self.batchRecords = batchRecords
      self.batchEvents = batchEvents
      self.encodingInBackground = encodingInBackground
      self.expectedRecordCount = expectedRecordCount
    }

    /// From this in-memory checkpoint interval on, `.automatic` folding is flat from the first
    /// record: building a snapshot from the fold costs O(items), once per checkpoint, which
    /// pays only when checkpoints are far apart. Either way the result is the same store.
    @inlinable
    static var flatCheckpointInterval: Int { 1 << 18 }

    /// The smallest checkpoint interval at which `.automatic` folding turns flat: the library's
    /// default interval, so a default replay folds flat as soon as the list is at most eight
    /// intervals long, or once the budget has spread the checkpoints that far. (A journal that
    /// is almost only one large fill pays a little: its head's snapshot is built from the fold.)
    @inlinable
    static var flatFromInterval: Int { 1 << 12 }

    /// How many full batches may wait for the folding thread.
    @inlinable
    static var pendingBatches: Int { 8 }
  }
}
