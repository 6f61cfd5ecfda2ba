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

  /// The replay above, folding into a ``ListFold`` or not as `foldingFlat` says (tests use it
  /// to exercise both ways at any checkpoint interval).
  package convenience init(
    replaying records: some Sequence<HistoryRecord>, codec: HistoryCodec<Section, Item>,
    sink: (any HistoryRecordSink)?, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int, foldingFlat: Bool, clock: @escaping @Sendable () -> Double
  ) throws(HistoryError) {
    var state = _StoreState<Section, Item>(
      graph: _HistoryGraph(checkpointInterval: checkpointInterval, budget: checkpointBudget), clock: clock)
    state.journalCheckpointBytes = journalCheckpointBytes
    var codec = codec
    // With sparse checkpoints almost no intermediate state is kept, so the events are folded
    // into a flat `ListFold` (a fraction of a persistent snapshot's cost per event) and the
    // head's snapshot is built once at the end (and at each checkpoint).
    var fold: ListFold<Section, Item>? = foldingFlat ? ListFold() : nil
    for record in records {
      let content: HistoryRecordContent<Section, Item>
      do { content = try codec.decode(record, checkpointState: false) } catch {
        throw .invalidRecord(sequence: record.sequence, reason: error.description)
      }
      do {
        if fold != nil { try state.replay(content, into: &fold!) } else { try state.replay(content) }
      } catch let error as HistoryError {
        throw .invalidRecord(sequence: record.sequence, reason: error.description)
      } catch {
        throw .invalidRecord(sequence: record.sequence, reason: "\(error)")
      }
      _ = state.graph.takeDroppedCheckpoints()  // freed here: nobody waits on a replay's commits
      state.recordSequence = record.sequence
      state.bytesSinceCheckpoint = record.kind == .checkpoint ? 0 : state.bytesSinceCheckpoint + record.payload.count
      if record.kind == .checkpoint { state.lastCheckpointBytes = record.payload.count }
    }
    if let fold { state.headSnapshot = fold.snapshot() }
    codec.continueEncodingAfterDecoding()
    codec.tracksCurrentContents = true
    state.codec = codec
    state.sink = sink
    self.init(state: state)
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
  mutating func replay(_ content: HistoryRecordContent<Section, Item>) throws {
    switch content {
    case .commit(let commit):
      try checkReplayed(commit)
      // The head's storage is taken (the state keeps an empty placeholder), so the events
      // mutate uniquely referenced nodes in place instead of copying their paths — as a live
      // transaction does. A failure abandons the whole replay, so nothing needs restoring.
      var snapshot = headSnapshot
      headSnapshot = ListSnapshot()
      snapshot.clearMarkers()
      for event in commit.events { try event.apply(to: &snapshot, verifying: true) }
      var transaction = ListStore<Section, Item>.Transaction(snapshot: snapshot, label: commit.label)
      transaction.events = commit.events
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
  mutating func replay(_ content: HistoryRecordContent<Section, Item>, into fold: inout ListFold<Section, Item>) throws {
    switch content {
    case .commit(let commit):
      try checkReplayed(commit)
      for event in commit.events { try fold.apply(event, verifying: true) }
      var events = commit.events
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
    tables.itemList = decoderTables.items
    for (index, id) in decoderTables.items.enumerated() { tables.items[id] = index }
    tables.stringList = decoderTables.strings
    for (index, text) in decoderTables.strings.enumerated() { tables.strings[text] = index }
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
