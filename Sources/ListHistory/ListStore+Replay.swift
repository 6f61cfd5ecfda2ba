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
  public convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)? = nil, checkpointInterval: Int = 4_096,
    checkpointBudget: CheckpointBudget = .default, journalCheckpointBytes: Int = 256 * 1024,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) throws(HistoryError) {
    try self.init(
      replaying: records, codec: codec, sink: sink, checkpointInterval: checkpointInterval,
      checkpointBudget: checkpointBudget, journalCheckpointBytes: journalCheckpointBytes,
      foldingFlat: checkpointInterval >= Self.flatReplayCheckpointInterval, clock: clock)
  }

  /// The replay above, folding into a ``ListFold`` or not as `foldingFlat` says, and handing
  /// records decoded after the first `pipeliningAfter` to a second thread (tests use both to
  /// exercise every way at any checkpoint interval and stream length).
  ///
  /// With `encodingInBackground` (and a sink), later changes are encoded and handed to the sink
  /// on a background queue (`_BackgroundRecordEncoder`): for a sink that writes later than the
  /// commit anyway. Its failures then show at the next change or at ``_drainRecords()``, and its
  /// checkpoint records follow the lagged rule.
  package convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)?, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int, foldingFlat: Bool,
    pipeliningAfter pipelineThreshold: Int = ListStore._replayPipelineThreshold,
    encodingInBackground: Bool = false,
    clock: @escaping @Sendable () -> Double
  ) throws(HistoryError) {
    var state = _StoreState<Section, Item>(
      graph: _HistoryGraph(checkpointInterval: checkpointInterval, budget: checkpointBudget), clock: clock)
    state.journalCheckpointBytes = journalCheckpointBytes
    // With sparse checkpoints almost no intermediate state is kept, so the events are folded
    // into a flat `ListFold` (a fraction of a persistent snapshot's cost per event) and the
    // head's snapshot is built once at the end (and at each checkpoint).
    let replay = _Replay(state: state, fold: foldingFlat ? ListFold() : nil)
    var codec = codec
    var iterator = records.makeIterator()
    var replayed = 0
    while replayed < pipelineThreshold, let record = iterator.next() {
      try replay.apply(Self._decode(record, with: &codec))
      replayed += 1
    }
    // A long stream: decoding (here) and folding (on a second thread) overlap.
    if replayed == pipelineThreshold { try Self._replayPipelined(&iterator, codec: &codec, into: replay) }
    state = replay.state
    if let fold = replay.fold { state.headSnapshot = fold.snapshot() }
    codec.continueEncodingAfterDecoding()
    codec.tracksCurrentContents = true
    if encodingInBackground, let sink {
      // It continues exactly where a store that never closed would stand (same checkpoints),
      // unless that store skipped a checkpoint over the sink's limit: the file keeps no trace
      // of it, so this one tries it once more.
      state.backgroundEncoder = _BackgroundRecordEncoder(
        codec: codec, sink: sink, journalCheckpointBytes: journalCheckpointBytes,
        bytesSinceCheckpoint: state.bytesSinceCheckpoint, lastCheckpointBytes: state.lastCheckpointBytes,
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
  package func _drainRecords() throws {
    try backgroundEncoder?.drain()
  }

  /// Later changes (and drains) throw `error`, which the sink reported outside the background
  /// encoder (a failed flush); what is still queued is dropped. A no-op without one.
  package func _failRecords(with error: any Error) {
    backgroundEncoder?.fail(with: error)
  }

  /// Later changes throw `error` (the sink is being closed); call before the last
  /// ``_drainRecords()``, which still writes what was queued.
  /// A no-op without a background encoder (the sink itself refuses them then).
  package func _closeRecords(failingLaterWith error: any Error) {
    backgroundEncoder?.close(failingLaterWith: error)
  }

  /// After this many records a replay decodes and folds on two threads (a few milliseconds of
  /// work: shorter replays never start a second thread).
  package static var _replayPipelineThreshold: Int { 8_192 }

  /// Records per hand-over between the decoding and the folding thread, and how many may wait.
  static var _replayBatchSize: Int { 256 }
  static var _replayPendingBatches: Int { 8 }

  /// Decodes one record for ``_Replay/apply(_:)``.
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

  /// Replays the rest of `iterator` on two threads: this one reads and decodes records (the
  /// codec's tables make decoding sequential), a worker folds them in order, in batches.
  ///
  /// The outcome is the single-threaded replay's: records are applied in order, and the first
  /// failing record in stream order is the one reported — a fold failure stops the decoding,
  /// and a decoding failure is reported only after every record before it was folded.
  static func _replayPipelined<Records: IteratorProtocol<HistoryRecord>>(
    _ iterator: inout Records, codec: inout HistoryCodec<Section, Item>, into replay: _Replay<Section, Item>
  ) throws(HistoryError) {
    let handOff = _BatchHandOff<_ReplayedRecord<Section, Item>>(capacity: _replayPendingBatches)
    let folded = DispatchGroup()
    folded.enter()
    DispatchQueue.global().async {
      defer { folded.leave() }
      while var batch = handOff.take() {
        // Each record is moved out of the batch (swapped with a placeholder), so each commit's
        // events keep a single owner for the history to take over. (Reversing the batch to pop
        // records off its end copied every record through the swaps.)
        for index in batch.indices {
          var record = _ReplayedRecord<Section, Item>.placeholder
          swap(&record, &batch[index])
          do throws(HistoryError) { try replay.apply(consume record) } catch {
            replay.failure = error
            handOff.stop()
            return
          }
        }
      }
    }
    var decodeFailure: HistoryError?
    var batch: [_ReplayedRecord<Section, Item>] = []
    batch.reserveCapacity(_replayBatchSize)
    var isStopped = false
    while let record = iterator.next() {
      do { batch.append(try _decode(record, with: &codec)) } catch {
        decodeFailure = error
        break
      }
      if batch.count == _replayBatchSize {
        let full = batch
        batch = []
        batch.reserveCapacity(_replayBatchSize)
        guard handOff.put(consume full) else {
          isStopped = true
          break
        }
      }
    }
    if !isStopped, !batch.isEmpty { _ = handOff.put(consume batch) }
    handOff.finish()
    folded.wait()
    if let failure = replay.failure { throw failure }
    if let decodeFailure { throw decodeFailure }
  }
}

/// A decoded record with what a replay's bookkeeping needs of the raw one.
struct _ReplayedRecord<Section: ListElement, Item: ListElement>: Sendable {
  var sequence: UInt64
  var kind: HistoryRecord.Kind
  var payloadBytes: Int
  var content: HistoryRecordContent<Section, Item>

  /// The content, moved out (the record is consumed).
  consuming func takeContent() -> HistoryRecordContent<Section, Item> { content }

  /// A record that owns nothing, to swap into a batch's place when its record is moved out.
  static var placeholder: Self {
    Self(
      sequence: 0, kind: .headMove, payloadBytes: 0,
      content: .headMove(HistoryHeadMove(kind: .checkout, from: .initial, to: .initial, latestVersion: .initial, timestamp: 0)))
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
final class _Replay<Section: ListElement, Item: ListElement>: @unchecked Sendable {
  @exclusivity(unchecked) var state: _StoreState<Section, Item>
  @exclusivity(unchecked) var fold: ListFold<Section, Item>?
  /// The worker's failure, read by the replaying thread after the worker finished.
  @exclusivity(unchecked) var failure: HistoryError?

  init(state: _StoreState<Section, Item>, fold: ListFold<Section, Item>?) {
    self.state = state
    self.fold = fold
  }

  /// Applies one decoded record (verifying every event) and keeps the journal bookkeeping.
  func apply(_ record: consuming _ReplayedRecord<Section, Item>) throws(HistoryError) {
    let sequence = record.sequence
    let kind = record.kind
    let payloadBytes = record.payloadBytes
    // Taken out of the record (which ends here): the content's event arrays then have one owner
    // when the history moves them in. Reading `record.content` would leave the record holding a
    // second reference until the end of this function, and the history would copy the arrays.
    let content = record.takeContent()
    do {
      if fold != nil { try state.replay(consume content, into: &fold!) } else { try state.replay(consume content) }
    } catch let error as HistoryError {
      throw .invalidRecord(sequence: sequence, reason: error.description)
    } catch {
      throw .invalidRecord(sequence: sequence, reason: "\(error)")
    }
    _ = state.graph.takeDroppedCheckpoints()  // freed here: nobody waits on a replay's commits
    state.recordSequence = sequence
    state.bytesSinceCheckpoint = kind == .checkpoint ? 0 : state.bytesSinceCheckpoint + payloadBytes
    if kind == .checkpoint {
      state.lastCheckpointBytes = payloadBytes
      // Where a background encoder continuing this stream stands (its lagged rule): the last
      // checkpoint, the list's size then (the state a checkpoint records is the head's), and
      // no checkpoint due yet.
      state.lastCheckpointSequence = sequence
      state.lastCheckpointItems = fold?.numberOfItems ?? state.headSnapshot.numberOfItems
      state.checkpointDueSince = nil
    } else if state.checkpointDueSince == nil
      && state.bytesSinceCheckpoint
        >= _StoreState<Section, Item>.checkpointThreshold(
          budget: state.journalCheckpointBytes, lastCheckpointBytes: state.lastCheckpointBytes)
    {
      state.checkpointDueSince = sequence
    }
  }
}

extension ListStore {
  /// From this in-memory checkpoint interval on, a replay folds into a ``ListFold`` (see
  /// ``init(replaying:codec:sink:checkpointInterval:checkpointBudget:journalCheckpointBytes:clock:)``):
  /// building a snapshot from it costs O(n), once per checkpoint, which pays off only when
  /// checkpoints are far apart. (The interval given decides, not the one a budget grows to.) The replayed head's snapshot then carries no reload or reconfigure markers.
  public static var flatReplayCheckpointInterval: Int { 1 << 18 }
}

extension _StoreState {
  /// Applies one decoded record to a store being rebuilt (verifying every event).
  mutating func replay(_ content: consuming HistoryRecordContent<Section, Item>) throws {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      // The head's storage is taken (the state keeps an empty placeholder), so the events
      // mutate uniquely referenced nodes in place instead of copying their paths — as a live
      // transaction does. A failure abandons the whole replay, so nothing needs restoring.
      var snapshot = headSnapshot
      headSnapshot = ListSnapshot()
      snapshot.clearMarkers()
      for index in commit.events.indices { try commit.events[index].apply(to: &snapshot, verifying: true) }
      var transaction = ListStore<Section, Item>.Transaction(snapshot: snapshot, label: commit.label)
      // Taken, not shared: the history moves the events out of a uniquely owned array.
      swap(&transaction.events, &commit.events)
      install(transaction: &transaction, parent: head, millis: HistoryCodec<Section, Item>.millis(commit.timestamp))
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      let (base, events) = headMovePlan(to: target)
      var final: ListSnapshot<Section, Item>
      if let base {
        final = base
      } else {
        final = headSnapshot
        headSnapshot = ListSnapshot()  // in place, as for a commit
        final.clearMarkers()
      }
      for event in events { try event.apply(to: &final, verifying: false) }
      if base != nil { final.clearMarkers() }
      head = target
      headSnapshot = final
      graph.visit(target)
    case .checkpoint(let checkpoint):
      try checkReplayed(checkpoint)
    }
  }

  /// ``replay(_:)`` into a flat fold state instead of the head's snapshot (which stays an empty
  /// placeholder until the replay ends); checkpoints due are built from the fold.
  mutating func replay(_ content: consuming HistoryRecordContent<Section, Item>, into fold: inout ListFold<Section, Item>) throws {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      for index in commit.events.indices { try fold.apply(commit.events[index], verifying: true) }
      // Taken, not shared: the history moves the events out of a uniquely owned array (a
      // shared one would be copied whole by the move).
      var events: [ListEvent<Section, Item>] = []
      swap(&events, &commit.events)
      let version = graph.add(
        parent: head, moving: &events, label: commit.label,
        timestampMillis: HistoryCodec<Section, Item>.millis(commit.timestamp), stateAfter: fold.snapshot())
      graph.visit(version)
      head = version
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      let (base, events) = headMovePlan(to: target)
      if let base { fold = ListFold(base) }
      for event in events { try fold.apply(event, verifying: false) }
      head = target
      graph.visit(target)
    case .checkpoint(let checkpoint):
      try checkReplayed(checkpoint)
    }
  }

  /// How a replayed head move reaches `target`: the events of a short path from the head (undo
  /// and redo: one transaction), with no base; otherwise a checkpoint's state and the events
  /// from it.
  func headMovePlan(to target: Int) -> (base: ListSnapshot<Section, Item>?, events: [ListEvent<Section, Item>]) {
    // Twice the current interval: what a fold from a checkpoint may cost (see `_HistoryGraph`).
    if let path = graph.path(from: head, to: target, limit: 2 * graph.checkpointInterval) {
      return (nil, graph.pathEvents(path))
    }
    let plan = graph.foldPlan(at: target)
    return (plan.base, plan.events)
  }

  /// Refuses a replayed commit that does not extend the history at the head.
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
  func checkReplayed(_ checkpoint: HistoryCheckpoint<Section, Item>) throws(HistoryError) {
    guard checkpoint.latestVersion.rawValue == graph.count - 1, checkpoint.head.rawValue == head else {
      throw .inconsistentEvent(
        reason: "checkpoint of \(checkpoint.head) (latest \(checkpoint.latestVersion)) while the head is v\(head) (latest v\(graph.count - 1)); journals that start after version 0 are not supported yet")
    }
  }
}

extension HistoryCodec {
  /// After decoding a stream, makes the encoder continue it: the encoder's intern tables become
  /// the ones the decoded records defined.
  mutating func continueEncodingAfterDecoding() {
    var tables = _EncoderTables<Section.ID, Item.ID>()
    tables.sectionList = decoderTables.sections
    for (index, id) in decoderTables.sections.enumerated() { tables.sections[id] = index }
    tables.items.reserveCapacity(decoderTables.items.count)
    for id in decoderTables.items { tables.items.append(id, hash: id.hashValue) }
    tables.strings.reserveCapacity(decoderTables.strings.count)
    for text in decoderTables.strings { tables.strings.append(text, hash: text.hashValue) }
    tables.shapeList = decoderTables.shapes
    for (index, keys) in decoderTables.shapes.enumerated() { tables.shapes[keys] = index }
    tables.itemContents = decoderTables.itemContents.map { $0?.content }
    // Whether a decoded content is the item's content at the head is not known (head moves).
    tables.currentContents = Array(repeating: false, count: tables.itemContents.count)
    tables.lastTimestamp = decoderTables.lastTimestamp
    tables.newItemBase = decoderTables.newItemBase
    encoderTables = tables
  }
}
