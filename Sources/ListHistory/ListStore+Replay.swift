import Dispatch
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
    sink: (any HistoryRecordSink)? = nil, checkpointInterval: Int = 4_096,
    checkpointBudget: CheckpointBudget = .default, journalCheckpointBytes: Int = 256 * 1024,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) throws(HistoryError) {
    try self.init(
      replaying: records, codec: codec, sink: sink, checkpointInterval: checkpointInterval,
      checkpointBudget: checkpointBudget, journalCheckpointBytes: journalCheckpointBytes,
      foldingFlat: Self.replayFoldsFlat(checkpointInterval: checkpointInterval), clock: clock)
  }

  /// How a replay at `checkpointInterval` folds: flat from the start (true) when the interval
  /// given is sparse, otherwise into snapshots until the budget has spread the checkpoints
  /// enough for flat folding to pay (nil; see ``_Replay/flatFromInterval``).
  @inlinable
  package static func replayFoldsFlat(checkpointInterval: Int) -> Bool? {
    checkpointInterval >= flatReplayCheckpointInterval ? true : nil
  }

  /// The replay above, folding into a ``ListFold`` or not as `foldingFlat` says (nil: into
  /// snapshots, then flat once checkpoints are far enough apart, at least `flatFromInterval`),
  /// and handing records decoded after the first `pipeliningAfter` to a second thread in
  /// batches of `batchRecords` records or `batchEvents` events (tests use these to exercise
  /// every way at any checkpoint interval and stream length).
  ///
  /// With `encodingInBackground` (and a sink), later changes are encoded and handed to the sink
  /// on a background queue (`_BackgroundRecordEncoder`): for a sink that writes later than the
  /// commit anyway. Its failures then show at the next change or at ``_drainRecords()``, and its
  /// checkpoint records follow the lagged rule.
  ///
  /// `expectedRecordCount`, when known (a journal's index counts its records), reserves room
  /// for that many versions and events (see `_HistoryGraph.reserveCapacity`); a hint only.
  @inlinable
  package convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)?, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int, foldingFlat: Bool?,
    flatFromInterval: Int = _Replay<Section, Item>.defaultFlatFromInterval,
    pipeliningAfter pipelineThreshold: Int = ListStore._replayPipelineThreshold,
    batchRecords: Int = ListStore._replayBatchSize, batchEvents: Int = ListStore._replayBatchEvents,
    encodingInBackground: Bool = false, expectedRecordCount: Int = 0,
    clock: @escaping @Sendable () -> Double
  ) throws(HistoryError) {
    // With sparse checkpoints almost no intermediate state is kept, so the events are folded
    // into a flat `ListFold` (a fraction of a persistent snapshot's cost per event) and the
    // head's snapshot is built once at the end (and at each checkpoint).
    let replay = _Replay<Section, Item>(
      state: _StoreState(graph: _HistoryGraph(checkpointInterval: checkpointInterval, budget: checkpointBudget), clock: clock),
      fold: foldingFlat == true ? ListFold() : nil, flatFromInterval: foldingFlat == nil ? flatFromInterval : nil)
    replay.state.journalCheckpointBytes = journalCheckpointBytes
    // Most records are commits of about one event: room for that many versions and events up
    // front (more events grow the arrays as usual). Reserved once the replay owns the state
    // alone: with a copy left behind, the first append would copy the arrays into storage
    // sized by their count, and the room would be lost.
    replay.state.graph.reserveCapacity(versions: expectedRecordCount, events: expectedRecordCount)
    var codec = codec
    // Without a sink nothing is encoded after the replay: the decoded contents need not stay.
    codec.decodingMode = sink != nil ? .keepingContents : .droppingContents
    var iterator = records.makeIterator()
    var replayed = 0
    while replayed < pipelineThreshold, let record = iterator.next() {
      try replay.apply(Self._decode(record, with: &codec))
      replayed += 1
    }
    // A long stream: decoding (here) and folding (on a second thread) overlap.
    if replayed == pipelineThreshold {
      try Self._replayPipelined(
        &iterator, codec: &codec, into: replay, batchRecords: max(1, batchRecords), batchEvents: max(1, batchEvents))
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
    if encodingInBackground, let sink {
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

  /// Returns once every change so far has been handed to the sink, when records are encoded
  /// in the background; throws the background encoder's failure (a ``HistoryError`` naming the
  /// record that could not be encoded, or the sink's error). A no-op otherwise. Never takes the
  /// store's lock (safe inside a transaction body or a callback that runs under it).
  @inlinable
  package func _drainRecords() throws {
    try backgroundEncoder?.drain()
  }

  /// Later changes (and drains) throw `error`, which the sink reported outside the background
  /// encoder (a failed flush); what is still queued is dropped. A no-op without one.
  @inlinable
  package func _failRecords(with error: any Error) {
    backgroundEncoder?.fail(with: error)
  }

  /// Later changes throw `error` (the sink is being closed); call before the last
  /// ``_drainRecords()``, which still writes what was queued.
  /// A no-op without a background encoder (the sink itself refuses them then).
  @inlinable
  package func _closeRecords(failingLaterWith error: any Error) {
    backgroundEncoder?.close(failingLaterWith: error)
  }

  /// After this many records a replay decodes and folds on two threads (a few milliseconds of
  /// work: shorter replays never start a second thread).
  @inlinable
  package static var _replayPipelineThreshold: Int { 8_192 }

  /// Records per hand-over between the decoding and the folding thread (a batch also ends once
  /// it holds `_replayBatchEvents` events), and how many batches may wait.
  ///
  /// Why these sizes: most records of a long history are one-event commits, and at 256 records
  /// a batch the two threads exchanged ~40,000 batches a second, the idle one woken each time
  /// (~8,000 context switches a second, both threads partly idle in the first seconds). At 2,048
  /// (measured in session 14, alternating): 10M events 6.02–6.35 → 5.75–6.06 s with the
  /// defaults, 5.82–6.28 → 5.65–5.92 s sparse; 1M 0.90–0.98 → 0.81–0.88 s; 100K alike. The
  /// event bound keeps a run of large transactions (a 1,000-item fill) from holding the fold
  /// back for a whole batch: 4,096 to 65,536 events measured alike.
  @inlinable
  static var _replayBatchSize: Int { 2_048 }
  @inlinable
  static var _replayBatchEvents: Int { 16_384 }
  @inlinable
  static var _replayPendingBatches: Int { 8 }

  /// Decodes one record for ``_Replay/apply(_:)``.
  @inlinable
  static func _decode(_ record: HistoryRecord, with codec: inout HistoryCodec<Section, Item>) throws(HistoryError)
    -> _ReplayedRecord<Section, Item>
  {
    do {
      return _ReplayedRecord(
        sequence: record.sequence, kind: record.kind, payloadBytes: record.payload.count,
        content: try codec.decode(record, checkpointState: false))
    } catch {
      throw .invalidRecord(sequence: record.sequence, reason: error.description)
    }
  }

  /// Decodes one record into `batch`: a commit's events go to the batch's shared buffer (see
  /// ``_ReplayBatch``).
  @inlinable
  static func _decode(
    _ record: HistoryRecord, with codec: inout HistoryCodec<Section, Item>, into batch: inout _ReplayBatch<Section, Item>
  ) throws(HistoryError) {
    let firstEvent = batch.events.count
    // The decoder lists its stand-ins straight into the batch (the list swapped in and out: no
    // copy per record), by index in the batch's buffer.
    swap(&batch.itemsFromState.entries, &codec.decoderTables.itemsFromState)
    defer { swap(&batch.itemsFromState.entries, &codec.decoderTables.itemsFromState) }
    let firstStandIn = codec.decoderTables.itemsFromState.count
    do {
      let content = try codec.decode(record, checkpointState: false, appendingEventsTo: &batch.events)
      let isCommit = record.kind == .commit
      batch.records.append(
        _ReplayedRecord(
          sequence: record.sequence, kind: record.kind, payloadBytes: record.payload.count, content: content,
          bufferedEvents: isCommit ? batch.events.count - firstEvent : nil,
          // Summed here, where the events were just written (in cache), and off the folding
          // thread, which bounds the replay: 3% of its samples at 10M events.
          bufferedWeight: isCommit
            ? _HistoryGraph<Section, Item>.replayWeight(of: batch.events, in: firstEvent..<batch.events.count) : 0))
    } catch {
      // The events of a commit that failed halfway belong to no record.
      batch.events.removeSubrange(firstEvent...)
      codec.decoderTables.itemsFromState.removeSubrange(firstStandIn...)
      throw .invalidRecord(sequence: record.sequence, reason: error.description)
    }
  }

  /// Replays the rest of `iterator` on two threads: this one reads and decodes records (the
  /// codec's tables make decoding sequential), a worker folds them in order, in batches of
  /// `batchRecords` records, or fewer that hold at least `batchEvents` events.
  ///
  /// The outcome is the single-threaded replay's: records are applied in order, and the first
  /// failing record in stream order is the one reported — a fold failure stops the decoding,
  /// and a decoding failure is reported only after every record before it was folded.
  @inlinable
  static func _replayPipelined<Records: IteratorProtocol<HistoryRecord>>(
    _ iterator: inout Records, codec: inout HistoryCodec<Section, Item>, into replay: _Replay<Section, Item>,
    batchRecords: Int, batchEvents: Int
  ) throws(HistoryError) {
    // Without contents to keep for an encoder, the decoding thread hands work to the folding
    // one: the remembered items (filled in from the state) and the page faults of the history's
    // appends. A replay that keeps contents stays as it was: storing each updated content there
    // releases the one before (a cold object), and its decoding thread bounds it (measured in
    // session 13, 10M events reopened for appending: 10.3-11.8 s this way against 9.5-11.3 s).
    let handsWorkToTheFold = codec.decodingMode != .keepingContents
    if handsWorkToTheFold { codec.decodingMode = .leavingRememberedItemsToTheState }
    defer { if handsWorkToTheFold { codec.decodingMode = .droppingContents } }
    let handOff = _BatchHandOff<_ReplayBatch<Section, Item>>(capacity: _replayPendingBatches)
    let prefaulter = _AppendPrefaulter()
    if handsWorkToTheFold { prefaulter.publish(replay.state.graph.appendRegions) }
    var pageRequests = _AppendPageRequests()
    let folded = DispatchGroup()
    folded.enter()
    DispatchQueue.global().async {
      defer { folded.leave() }
      while var batch = handOff.take() {
        // Each record is moved out of the batch (swapped with a placeholder), so each commit's
        // events keep a single owner for the history to take over. (Reversing the batch to pop
        // records off its end copied every record through the swaps.)
        var firstEvent = 0
        replay.prefetcher.reset()
        for index in batch.records.indices {
          var record = _ReplayedRecord<Section, Item>.placeholder
          swap(&record, &batch.records[index])
          let eventCount = record.bufferedEvents ?? 0
          do throws(HistoryError) {
            try replay.apply(
              consume record, bufferedEvents: &batch.events, from: firstEvent, itemsFromState: &batch.itemsFromState)
          } catch {
            replay.failure = error
            handOff.stop()
            return
          }
          firstEvent += eventCount
        }
        assert(batch.itemsFromState.next == batch.itemsFromState.entries.count, "a stand-in left unfilled")
        batch.removeAll()
        handOff.recycle(consume batch)
        if handsWorkToTheFold { prefaulter.publish(replay.state.graph.appendRegions) }
      }
    }
    var decodeFailure: HistoryError?
    var batch = _ReplayBatch<Section, Item>()
    batch.records.reserveCapacity(batchRecords)
    var isStopped = false
    while let record = iterator.next() {
      do { try _decode(record, with: &codec, into: &batch) } catch {
        decodeFailure = error
        break
      }
      if batch.records.count == batchRecords || batch.events.count >= batchEvents {
        let full = batch
        batch = handOff.spareBatch() ?? _ReplayBatch()
        batch.records.reserveCapacity(batchRecords)
        guard handOff.put(consume full) else {
          isStopped = true
          break
        }
        if handsWorkToTheFold { pageRequests.request(prefaulter.regions()) }
      }
    }
    if !isStopped, !batch.records.isEmpty { _ = handOff.put(consume batch) }
    handOff.finish()
    folded.wait()
    if let failure = replay.failure { throw failure }
    if let decodeFailure { throw decodeFailure }
  }
}

/// A decoded record with what a replay's bookkeeping needs of the raw one.
@usableFromInline
struct _ReplayedRecord<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var sequence: UInt64
  @usableFromInline var kind: HistoryRecord.Kind
  @usableFromInline var payloadBytes: Int
  @usableFromInline var content: HistoryRecordContent<Section, Item>
  /// For a commit decoded into a ``_ReplayBatch``: how many of the batch's buffered events are
  /// its own (its `events` are then empty). Nil when the commit holds its events itself.
  @usableFromInline var bufferedEvents: Int? = nil
  /// The replay work (``ListEvent/replayWeight``) of those buffered events. A remembered leaf's
  /// deletion weighs 1 before and after its stand-in is filled in.
  @usableFromInline var bufferedWeight = 0

  @inlinable
  init(sequence: UInt64, kind: HistoryRecord.Kind, payloadBytes: Int, content: HistoryRecordContent<Section, Item>, bufferedEvents: Int? = nil, bufferedWeight: Int = 0) {
    self.sequence = sequence
    self.kind = kind
    self.payloadBytes = payloadBytes
    self.content = content
    self.bufferedEvents = bufferedEvents
    self.bufferedWeight = bufferedWeight
  }

  /// The content, moved out (the record is consumed).
  @inlinable
  consuming func takeContent() -> HistoryRecordContent<Section, Item> { content }

  /// A record that owns nothing, to swap into a batch's place when its record is moved out.
  @inlinable
  static var placeholder: Self {
    Self(
      sequence: 0, kind: .headMove, payloadBytes: 0,
      content: .headMove(HistoryHeadMove(kind: .checkout, from: .initial, to: .initial, latestVersion: .initial, timestamp: 0)))
  }
}

/// A codec handed to the task that turns its decoder's tables into an encoder's while a replay
/// builds its snapshots (`_Replay.buildSnapshots(alongside:)`): only that task touches it until
/// they all returned.
@usableFromInline
final class _CodecInProgress<Section: ListElement, Item: ListElement>: @unchecked Sendable {
  @usableFromInline var codec: HistoryCodec<Section, Item>
  @inlinable
  init(_ codec: consuming HistoryCodec<Section, Item>) { self.codec = codec }
}

/// The records a pipelined replay hands from the decoding to the folding thread at once, with
/// the events of their commits in one buffer, in record order (see
/// ``_ReplayedRecord/bufferedEvents``).
///
/// Why one buffer: a commit of its own holds its events in an array of its own, which the
/// decoding thread allocated and the folding thread freed once the history had moved the events
/// out — an allocator round trip between two threads for every commit. A batch's buffer is
/// emptied and recycled instead (``_BatchHandOff/recycle(_:)``).
@usableFromInline
struct _ReplayBatch<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var records: [_ReplayedRecord<Section, Item>] = []
  @usableFromInline var events: [ListEvent<Section, Item>] = []
  /// The events of `events` decoded with a stand-in for a remembered item, in order, for the
  /// folding thread to fill in from its state (see `HistoryCodec.DecodingMode`).
  @usableFromInline var itemsFromState = _ItemsFromState<Item.ID>()

  @inlinable
  init(records: [_ReplayedRecord<Section, Item>] = [], events: [ListEvent<Section, Item>] = [], itemsFromState: _ItemsFromState<Item.ID> = _ItemsFromState<Item.ID>()) {
    self.records = records
    self.events = events
    self.itemsFromState = itemsFromState
  }

  /// Empties the batch, keeping its storage.
  @inlinable
  mutating func removeAll() {
    records.removeAll(keepingCapacity: true)
    events.removeAll(keepingCapacity: true)
    itemsFromState.removeAll()
  }
}

extension ListEvent {
  /// Replaces the stand-in a decoder left for the remembered item `id` (see ``_ItemFromState``)
  /// with `item`, the state's item of that identifier just before this event: an update's old
  /// item, or the leaf a deletion removes. With no such item in the state, an update is left
  /// as it is (applying it then fails on the unknown item) and a deletion fails here, as its
  /// application would.
  ///
  /// The state's item is the remembered one exactly when the stream is consistent, and the
  /// application that follows verifies the event against the state as before (the deleted
  /// leaf's place, that it is a collapsed leaf).
  ///
  /// - Complexity: O(1).
  @inlinable
  mutating func _fillStandIn(for id: Item.ID, with item: Item?) throws(HistoryError) {
    switch self {
    case .updateItem(_, let new):
      if let item { self = .updateItem(old: item, new: new) }
    case .deleteItems(let outline, let location) where outline.roots.isEmpty:
      guard let item else { throw .inconsistentEvent(reason: "deleteItems: item \(id) is not at \(location)") }
      self = .deleteItems(ListOutline([.init(item)]), from: location)
    default:
      // Never listed by the decoder; refused rather than applied without its item.
      throw .inconsistentEvent(reason: "an event with no stand-in listed for item \(id)")
    }
  }
}

/// A batch's events decoded with a stand-in for a remembered item (``_ItemFromState``), in
/// event order, and how far the replay has filled them in.
@usableFromInline
struct _ItemsFromState<ItemID: Hashable & Sendable>: Sendable {
  @usableFromInline var entries: [_ItemFromState<ItemID>] = []
  /// The first entry not yet filled in.
  @usableFromInline var next = 0

  @inlinable
  init(entries: [_ItemFromState<ItemID>] = [], next: Int = 0) {
    self.entries = entries
    self.next = next
  }

  /// The identifier of the remembered item event `index` (of the batch's buffer) stands in
  /// for, if it does; events are asked about in order.
  ///
  /// - Complexity: O(1).
  @inlinable
  @inline(__always)
  mutating func id(forEvent index: Int) -> ItemID? {
    // An entry passed by would leave its stand-in in place (a deletion of nothing): never.
    assert(next == entries.count || entries[next].event >= index, "a stand-in passed by unfilled")
    guard next < entries.count, entries[next].event == index else { return nil }
    defer { next += 1 }
    return entries[next].id
  }

  @inlinable
  mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    next = 0
  }
}

/// The state a replay builds: the store's state, and the flat fold it folds into when it does.
///
/// A class, so that a replay's second thread can work on it in place. It is owned by one thread
/// at a time: the replaying thread, except while a pipelined replay's worker runs, which the
/// replaying thread waits for (`DispatchGroup.wait()` orders the two threads' accesses).
///
/// That ownership is also why its properties skip the dynamic exclusivity checks: a check on
/// every access (four a record) cost ~8% of the folding thread's instructions, and no two
/// accesses ever overlap.
@usableFromInline
final class _Replay<Section: ListElement, Item: ListElement>: @unchecked Sendable {
  @usableFromInline @exclusivity(unchecked) var state: _StoreState<Section, Item>
  @usableFromInline @exclusivity(unchecked) var fold: ListFold<Section, Item>?
  /// The worker's failure, read by the replaying thread after the worker finished.
  @usableFromInline @exclusivity(unchecked) var failure: HistoryError?
  /// When the replay moves from snapshots to `fold`: once the checkpoint budget has spread the
  /// checkpoints to at least this interval and ``foldPays(interval:items:minimumInterval:)``
  /// (nil: never). A store opened with the library's default interval of 4,096 keeps every
  /// state at first, but its budget soon doubles the interval (to 2^17 at 1M events on a
  /// 200K-item list, 2^22 at 10M); folding every event into a persistent snapshot then costs
  /// more than building a snapshot from a flat fold at each checkpoint.
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

  @inlinable
  init(state: _StoreState<Section, Item>, fold: ListFold<Section, Item>? = nil, flatFromInterval: Int? = nil) {
    self.state = state
    self.fold = fold
    self.flatFromInterval = flatFromInterval
  }

  /// The smallest interval at which a replay of the library's defaults folds flat: the library's
  /// default interval itself, so a default replay folds flat as soon as the list is at most
  /// eight intervals long (32K items), or once the budget has spread the checkpoints that far.
  ///
  /// Measured in session 11 (release, `store-profile replay` with the default interval and
  /// budget), once the flat replay's threads exchanged less memory: against 2^14, the 1M-event
  /// mixed journal replayed in 1.08–1.10 s instead of 1.47–1.62 s and a 300K-event one in
  /// 0.52–0.53 s instead of 0.85–0.91 s; 10M events alike (9.7–9.8 s against 9.2–10.0 s). A
  /// journal that is almost only a 100K-item fill lost 50 ms (0.21 s against 0.17 s): it builds
  /// its head's snapshot from the fold at the end. (Session 10 had chosen 2^14.)
  @inlinable
  static var defaultFlatFromInterval: Int { 1 << 12 }

  /// Whether folding flat pays at checkpoint interval `interval` on a list of `items` items: a
  /// checkpoint then costs a snapshot built from the fold, O(items), instead of nothing, but
  /// every event folds in a fraction of its cost on a persistent snapshot (which also copies
  /// paths that the checkpoints share). Measured on the mixed workload (release, `store-profile
  /// replay` with the default interval and budget): switching once the interval reaches an
  /// eighth of the list replayed 1M events in 2.37 s (2.77 s never switching, 2.52 s at a
  /// quarter, 2.57–2.91 s at a half) and 10M in 14.4 s (23.8 s never; 15.9 s at a half).
  @inlinable
  static func foldPays(interval: Int, items: Int, minimumInterval: Int) -> Bool {
    interval >= minimumInterval && interval >= items / 8
  }

  /// Ends a flat replay: builds the pending checkpoints' snapshots and the head's, with `work`
  /// as further tasks, two at a time (each is an independent O(items) build from a fold; the
  /// head's, the largest, on the calling thread, which may recurse as deep as the outline).
  ///
  /// - Throws: an error restoring the head's markers (see ``headSnapshot(from:restoringMarkersOf:)``).
  @inlinable
  func buildSnapshots(alongside work: [() -> Void] = []) throws(HistoryError) {
    let fold = self.fold!
    let markerEvents = self.markerEvents()
    var head: Result<ListSnapshot<Section, Item>, HistoryError>?
    state.graph.buildPendingCheckpoints(alongside: work) {
      head = Result { () throws(HistoryError) in try Self.headSnapshot(from: fold, restoringMarkersOf: markerEvents) }
    }
    state.headSnapshot = try head!.get()
  }

  /// The events of the record that last changed the head (see `markerSource`), copied out of
  /// the history (a few events: a commit's, or a short path's).
  @inlinable
  func markerEvents() -> [ListEvent<Section, Item>] {
    switch markerSource {
    case .none: []
    case .commit(let version): Array(state.graph.events(of: version))
    case .move(let from, let to): state.graph.pathEvents(state.graph.path(from: from, to: to))
    }
  }

  /// The head's snapshot built from `fold`, with the markers the same replay into snapshots
  /// leaves (those of the record that last changed the head): `markerEvents` are undone and
  /// redone on the built snapshot, O(their count).
  @inlinable
  static func headSnapshot(
    from fold: ListFold<Section, Item>, restoringMarkersOf markerEvents: [ListEvent<Section, Item>]
  ) throws(HistoryError) -> ListSnapshot<Section, Item> {
    var snapshot = fold.snapshot()
    guard !markerEvents.isEmpty else { return snapshot }
    for event in markerEvents.reversed() { try event.inverse.apply(to: &snapshot, verifying: false) }
    snapshot.clearMarkers()
    for event in markerEvents { try event.apply(to: &snapshot, verifying: false) }
    return snapshot
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
      if fold != nil {
        let from = state.head
        let usedBase = try state.replay(
          consume content, bufferedEvents: &buffer, in: buffered, into: &fold!,
          prefetching: &prefetcher, itemsFromState: &itemsFromState)
        switch kind {
        case .commit: (markerSource, markerSequence) = (.commit(state.head), sequence)
        case .headMove: (markerSource, markerSequence) = (usedBase ? .none : .move(from: from, to: state.head), sequence)
        case .checkpoint: break
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
}

extension ListStore {
  /// From this in-memory checkpoint interval on, a replay folds into a ``ListFold`` from its
  /// first record (see
  /// ``init(replaying:codec:sink:checkpointInterval:checkpointBudget:journalCheckpointBytes:clock:)``):
  /// building a snapshot from it costs O(n), once per checkpoint, which pays off only when
  /// checkpoints are far apart. A replay given a smaller interval folds into snapshots until its
  /// budget has spread the checkpoints to 2^12 events and an eighth of the list, then flat.
  /// Either way the result is the same store: the same checkpoints, and the head's snapshot with
  /// the reload and reconfigure markers of the record that last changed it.
  @inlinable
  public static var flatReplayCheckpointInterval: Int { 1 << 18 }
}

extension _StoreState {
  /// Applies one decoded record to a store being rebuilt (verifying every event); a commit's
  /// events that `itemsFromState` lists (by index in a batch's buffer, where the commit's
  /// first event was at `firstEvent`) get their remembered items from the head's state first.
  @inlinable
  mutating func replay(
    _ content: consuming HistoryRecordContent<Section, Item>, itemsFromState: inout _ItemsFromState<Item.ID>,
    firstEvent: Int
  ) throws {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      // The head's storage is taken (the state keeps an empty placeholder), so the events
      // mutate uniquely referenced nodes in place instead of copying their paths — as a live
      // transaction does. A failure abandons the whole replay, so nothing needs restoring.
      var snapshot = headSnapshot
      headSnapshot = ListSnapshot()
      snapshot.clearMarkers()
      for index in commit.events.indices {
        if let id = itemsFromState.id(forEvent: firstEvent + index) {
          try commit.events[index]._fillStandIn(for: id, with: snapshot.item(id))
        }
        try commit.events[index].apply(to: &snapshot, verifying: true)
      }
      var transaction = ListStore<Section, Item>.Transaction(snapshot: snapshot, label: commit.label)
      // Taken, not shared: the history moves the events out of a uniquely owned array.
      swap(&transaction._events, &commit.events)
      install(transaction: &transaction, parent: head, millis: HistoryCodec<Section, Item>.millis(commit.timestamp))
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      let (baseVersion, events) = headMovePlan(to: target)
      var final: ListSnapshot<Section, Item>
      if let baseVersion {
        final = graph.checkpoints[Int32(baseVersion)]!
      } else {
        final = headSnapshot
        headSnapshot = ListSnapshot()  // in place, as for a commit
        final.clearMarkers()
      }
      for event in events { try event.apply(to: &final, verifying: false) }
      if baseVersion != nil { final.clearMarkers() }
      head = target
      headSnapshot = final
      graph.visit(target)
    case .checkpoint(let checkpoint):
      try checkReplayed(checkpoint)
    }
  }

  /// ``replay(_:)`` into a flat fold state instead of the head's snapshot (which stays an empty
  /// placeholder until the replay ends); checkpoints due are built from the fold.
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
    prefetching prefetcher: inout _FoldPrefetcher, itemsFromState: inout _ItemsFromState<Item.ID>
  ) throws -> Bool {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      if let buffered {
        try replayCommit(
          commit, events: &buffer, in: buffered.range, weight: buffered.weight, into: &fold, prefetching: &prefetcher,
          itemsFromState: &itemsFromState)
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
          commit, events: &events, in: all, weight: nil, into: &fold, prefetching: &prefetcher, itemsFromState: &none)
      }
      return false
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      let (baseVersion, events) = headMovePlan(to: target)
      if let baseVersion { fold = graph.pendingFold(at: baseVersion) ?? ListFold(graph.checkpoints[Int32(baseVersion)]!) }
      for event in events { try fold.apply(event, verifying: false) }
      head = target
      graph.visit(target)
      return baseVersion != nil
    case .checkpoint(let checkpoint):
      try checkReplayed(checkpoint)
      return false
    }
  }

  /// Folds the commit whose events are `events[range]` (in place, of replay work `weight` when
  /// known) and moves them into the history. A checkpoint due keeps a copy of the fold, built
  /// into a snapshot at the end of the replay if thinning has not dropped it (see
  /// `_HistoryGraph.pendingCheckpoints`).
  @inlinable
  mutating func replayCommit(
    _ commit: HistoryCommit<Section, Item>, events: inout [ListEvent<Section, Item>], in range: Range<Int>,
    weight: Int?, into fold: inout ListFold<Section, Item>, prefetching prefetcher: inout _FoldPrefetcher,
    itemsFromState: inout _ItemsFromState<Item.ID>
  ) throws {
    for index in range {
      prefetcher.advance(to: index, in: &events, fold: fold)
      if let id = itemsFromState.id(forEvent: index) { try events[index]._fillStandIn(for: id, with: fold._item(id)) }
      try fold._apply(&events[index], verifying: true)
    }
    let version = graph.add(
      parent: head, movingEventsIn: range, of: &events, weight: weight, label: commit.label,
      timestampMillis: HistoryCodec<Section, Item>.millis(commit.timestamp), pendingState: fold)
    graph.visit(version)
    head = version
  }

  /// How a replayed head move reaches `target`: the events of a short path from the head (undo
  /// and redo: one transaction), with no base; otherwise the version of a checkpoint and the
  /// events from its state (in a flat replay the checkpoint may be pending: see
  /// ``_HistoryGraph/pendingFold(at:)``).
  @inlinable
  func headMovePlan(to target: Int) -> (baseVersion: Int?, events: [ListEvent<Section, Item>]) {
    // Twice the current interval: what a fold from a checkpoint may cost (see `_HistoryGraph`).
    if let path = graph.path(from: head, to: target, limit: 2 * graph.checkpointInterval) {
      return (nil, graph.pathEvents(path))
    }
    let plan = graph.foldPlanFromVersion(at: target)
    return (plan.baseVersion, plan.events)
  }

  /// Refuses a replayed commit that does not extend the history at the head.
  @inlinable
  func checkReplayed(_ commit: HistoryCommit<Section, Item>) throws(HistoryError) {
    guard commit.version.rawValue == graph.count else {
      throw .inconsistentEvent(reason: "commit creates \(commit.version), expected v\(graph.count)")
    }
    guard commit.parent.rawValue == head else {
      throw .inconsistentEvent(reason: "commit on \(commit.parent) while the head is v\(head)")
    }
  }

  /// Refuses a replayed head move that does not start at the head or does not go where its
  /// kind says.
  @inlinable
  func checkReplayed(_ move: HistoryHeadMove) throws(HistoryError) {
    guard move.from.rawValue == head, move.latestVersion.rawValue == graph.count - 1 else {
      throw .inconsistentEvent(
        reason: "\(move.kind) from \(move.from) (latest \(move.latestVersion)) while the head is v\(head) (latest v\(graph.count - 1))")
    }
    let target = move.to.rawValue
    switch move.kind {
    case .undo:
      guard graph.parent(of: head) == target else { throw .inconsistentEvent(reason: "undo to \(move.to) is not to the parent") }
    case .redo:
      guard graph.redoChild(of: head) == target else { throw .inconsistentEvent(reason: "redo to \(move.to) is not the redo child") }
    case .checkout: break
    }
  }

  /// Refuses a replayed checkpoint that does not describe the head of the history so far.
  @inlinable
  func checkReplayed(_ checkpoint: HistoryCheckpoint<Section, Item>) throws(HistoryError) {
    guard checkpoint.latestVersion.rawValue == graph.count - 1, checkpoint.head.rawValue == head else {
      throw .inconsistentEvent(
        reason: "checkpoint of \(checkpoint.head) (latest \(checkpoint.latestVersion)) while the head is v\(head) (latest v\(graph.count - 1)); journals that start after version 0 are not supported yet")
    }
  }
}

extension HistoryCodec {
  /// After decoding a stream, makes the encoder continue it: the encoder's intern tables become
  /// the ones the decoded records defined. The decoder's tables are emptied (their contents
  /// move to the encoder's): from here on the codec encodes.
  ///
  /// - Complexity: O(entries in the tables), on the replay's serial tail: each item's entry is
  ///   read field by field and its content moved, not copied (iterating the entries copied
  ///   each whole, retaining and releasing its values: a tenth of a 10M-event store's reopening).
  @inlinable
  mutating func continueEncodingAfterDecoding() {
    var tables = _EncoderTables<Section.ID, Item.ID>()
    tables.sectionList = decoderTables.sections
    for (index, id) in decoderTables.sections.enumerated() { tables.sections[id] = index }
    let itemCount = decoderTables.itemIDs.count
    tables.items.reserveCapacity(itemCount)
    tables.itemContents.reserveCapacity(itemCount)
    for index in 0..<itemCount {
      let id = decoderTables.itemIDs[index]
      tables.items.append(id, hash: id.hashValue)
      tables.itemContents.append(decoderTables.items[index].content.take())
    }
    tables.strings.reserveCapacity(decoderTables.strings.count)
    for text in decoderTables.strings { tables.strings.append(text, hash: text.hashValue) }
    tables.shapeList = decoderTables.shapes
    for (index, keys) in decoderTables.shapes.enumerated() { tables.shapes[keys] = index }
    // Whether a decoded content is the item's content at the head is not known (head moves).
    tables.currentContents = Array(repeating: false, count: itemCount)
    tables.lastTimestamp = decoderTables.lastTimestamp
    tables.newItemBase = decoderTables.newItemBase
    encoderTables = tables
    decoderTables = _DecoderTables()
  }
}
