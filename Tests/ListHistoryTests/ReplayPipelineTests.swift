@testable import ListHistory
import ListState
import TestSupport
import Testing

/// A long replay decodes records on the calling thread and folds them on a second one. Its
/// outcome must be the single-threaded replay's: the same store on every version, and for a
/// damaged stream the same first error (or the same success).
@Suite struct ReplayPipelineTests {
  typealias Store = ListStore<String, TestRow>

  /// Records of a long random history: thousands of single-operation commits, undos, redos and
  /// checkouts (enough for many hand-overs, and for the decoding thread to wait for room).
  func longHistory(seed: UInt64, steps: Int, operationsPerCommit: ClosedRange<Int> = 1...1) throws -> (Store, [HistoryRecord]) {
    let sink = RecordingSink()
    let store = Store(codec: HistoryCodec(), sink: sink, checkpointInterval: 64, journalCheckpointBytes: 4_096, clock: { 0 })
    var operations = RandomOperations(seed: seed)
    for _ in 0..<steps {
      switch Int.random(in: 0..<100, using: &operations.random) {
      case 0..<6: if store.canUndo { try store.undo() }
      case 6..<9: if store.redoTarget != nil { try store.redo() }
      case 9..<10: try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &operations.random)))
      default:
        let count = Int.random(in: operationsPerCommit, using: &operations.random)
        do {
          try store.transaction { tx in
            for _ in 0..<count { try operations.apply(to: &tx) }
          }
        } catch is ListError<String, Int> {}
      }
    }
    return (store, sink.records)
  }

  /// A replay in batches of 256 records (the library's are larger: these tests' streams then
  /// span many batches), or of `batchEvents` events.
  func replay(
    _ records: [HistoryRecord], flat: Bool, pipeliningAfter threshold: Int, batchEvents: Int = .max
  ) throws(HistoryError) -> Store {
    try Store(
      replaying: records, codec: HistoryCodec(), sink: nil, checkpointInterval: flat ? 1 << 30 : 256,
      journalCheckpointBytes: 4_096,
      options: .init(
        folding: flat ? .flat : .snapshots, pipeliningAfter: threshold, batchRecords: 256, batchEvents: batchEvents),
      clock: { 0 })
  }

  @Test(arguments: [true, false])
  func pipelinedReplayRebuildsTheSameHistory(flat: Bool) throws {
    let (store, records) = try longHistory(seed: 21, steps: 3_500)
    #expect(records.count > 8 * 256 + 100)  // more batches than may wait at once
    for threshold in [0, 1, 1_000] {
      let replayed = try replay(records, flat: flat, pipeliningAfter: threshold)
      #expect(replayed.head == store.head)
      #expect(replayed.latestVersion == store.latestVersion)
      #expect(replayed.redoTarget == store.redoTarget)
      #expect(replayed.eventCount == store.eventCount)
      #expect(replayed.snapshot == store.snapshot)
      var random = SeededRandom(seed: 3)
      for _ in 0..<40 {
        let version = Version(Int.random(in: 0...store.latestVersion.rawValue, using: &random))
        #expect(try replayed.state(at: version) == store.state(at: version), "v\(version), after \(threshold)")
        #expect(try replayed.events(of: version) == store.events(of: version))
        #expect(replayed.info(for: version) == store.info(for: version))
      }
      // The replayed store continues the stream: a new commit encodes against its tables.
      let sink = RecordingSink()
      let continued = try Store(
        replaying: records, codec: HistoryCodec(), sink: sink, checkpointInterval: 256, journalCheckpointBytes: 4_096,
        options: .init(folding: flat ? .flat : .snapshots, pipeliningAfter: threshold, batchRecords: 256), clock: { 0 })
      try continued.appendSections(["continued"])
      #expect(sink.records.count == 1 && sink.records[0].sequence == records.last!.sequence + 1)
    }
  }

  @Test func aDamagedStreamFailsAtTheSameRecordAsTheSingleThreadedReplay() throws {
    let (_, records) = try longHistory(seed: 22, steps: 2_500)
    var random = SeededRandom(seed: 4)
    var failures = 0
    for round in 0..<24 {
      var damaged = records
      // Past the first hand-over, at a random record: garbled bytes, a dropped record (the
      // next one no longer extends the head) or a record moved later in the stream.
      let index = Int.random(in: 300..<records.count, using: &random)
      switch round % 3 {
      case 0:
        let byte = Int.random(in: 0..<damaged[index].payload.count, using: &random)
        damaged[index].payload[byte] ^= UInt8.random(in: 1...255, using: &random)
      case 1: damaged.remove(at: index)
      default: damaged.swapAt(index, min(index + 5, records.count - 1))
      }
      for flat in [true, false] {
        if expectSameOutcome(damaged, flat: flat, pipeliningAfter: 100, "round \(round)") { failures += 1 }
      }
    }
    #expect(failures > 20)  // most damage is detected (a garbled content byte may still decode)
  }

  /// Replays `records` sequentially and pipelined (after `threshold` records) and expects the
  /// same outcome: the same first failure, or the same store. Returns whether both failed.
  func expectSameOutcome(
    _ records: [HistoryRecord], flat: Bool, pipeliningAfter threshold: Int, batchEvents: Int = .max, _ context: String
  ) -> Bool {
    let sequential = Result { () throws(HistoryError) in try replay(records, flat: flat, pipeliningAfter: .max) }
    let pipelined = Result { () throws(HistoryError) in
      try replay(records, flat: flat, pipeliningAfter: threshold, batchEvents: batchEvents)
    }
    switch (sequential, pipelined) {
    case (.failure(let expected), .failure(let actual)):
      #expect(actual == expected)
      return true
    case (.success(let expected), .success(let actual)):
      #expect(actual.snapshot == expected.snapshot && actual.head == expected.head)
      #expect(actual.eventCount == expected.eventCount)
    default:
      Issue.record("\(context), flat \(flat): sequential \(sequential), pipelined \(pipelined)")
    }
    return false
  }

  /// Commits of several events each: a pipelined replay decodes their events into a buffer
  /// shared by a whole batch (`_ReplayBatch`), and a commit that fails to decode halfway must
  /// leave no events behind that a later record would take for its own. Garbled bytes anywhere
  /// in such commits fail at the record the single-threaded replay names, or both succeed alike.
  @Test func commitsOfManyEventsReplayAndFailAsTheSingleThreadedReplay() throws {
    let (store, records) = try longHistory(seed: 23, steps: 2_000, operationsPerCommit: 1...5)
    let events = try (1...store.latestVersion.rawValue).map { try store.events(of: Version($0)).count }
    #expect(events.filter { $0 > 1 }.count > 500)
    for flat in [true, false] {
      // Batches end at 64 events (about 20 of these commits), not at 256 records.
      let replayed = try replay(records, flat: flat, pipeliningAfter: 50, batchEvents: 64)
      #expect(replayed.head == store.head && replayed.eventCount == store.eventCount)
      #expect(replayed.snapshot == store.snapshot)
      for version in stride(from: 0, through: store.latestVersion.rawValue, by: 37) {
        #expect(try replayed.state(at: Version(version)) == store.state(at: Version(version)))
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)))
      }
    }
    var random = SeededRandom(seed: 5)
    var failures = 0
    let multiEventCommits = records.indices.filter { index in
      index >= 100 && records[index].kind == .commit && events[Int(records[index].version) - 1] > 2
    }
    for round in 0..<30 {
      var damaged = records
      let index = multiEventCommits.randomElement(using: &random)!
      // In the back half of the payload: past the first event, most often.
      let payload = damaged[index].payload.count
      let byte = Int.random(in: payload / 2..<payload, using: &random)
      damaged[index].payload[byte] ^= UInt8.random(in: 1...255, using: &random)
      for flat in [true, false] {
        if expectSameOutcome(damaged, flat: flat, pipeliningAfter: 50, batchEvents: 64, "round \(round)") { failures += 1 }
      }
    }
    #expect(failures > 20)
  }

  /// The head's reload and reconfigure markers, which `==` does not compare.
  struct Markers: Equatable {
    var items: Set<Int>
    var reconfigured: Set<Int>
    var sections: Set<String>
    init(_ snapshot: ListSnapshot<String, TestRow>) {
      items = snapshot.reloadedItemIdentifiers
      reconfigured = snapshot.reconfiguredItemIdentifiers
      sections = snapshot.reloadedSectionIdentifiers
    }
  }

  /// A replay with a small interval folds into snapshots, then flat once the budget has spread
  /// the checkpoints (the library's default way). Cut at many records — after commits, undos,
  /// redos and checkouts — it gives the replay into snapshots' store: the same head state and
  /// markers, the same checkpoints, the same states; the flat replay from the start too.
  @Test func aReplayThatSwitchesToFlatFoldingGivesTheSameStoreAndMarkers() throws {
    let (store, records) = try longHistory(seed: 23, steps: 1_500)
    let budget = CheckpointBudget.bytes(16 << 10)  // a few checkpoints: the interval doubles
    func replay(_ records: ArraySlice<HistoryRecord>, foldingFlat: Bool?) throws(HistoryError) -> Store {
      try Store(
        replaying: records, codec: HistoryCodec(), sink: nil, checkpointInterval: 16, checkpointBudget: budget,
        journalCheckpointBytes: 4_096,
        options: .init(
          folding: foldingFlat.map { $0 ? .flat : .snapshots } ?? .snapshotsThenFlat(fromInterval: 64),
          pipeliningAfter: 500, batchRecords: 256),
        clock: { 0 })
    }
    let checkpointed = { (store: Store) in store.state.withLock { $0.graph.checkpoints.keys.sorted() } }
    var random = SeededRandom(seed: 7)
    // Cuts after random records, after commits that mark items or sections, and after head
    // moves (whose markers come from their path).
    var codec = HistoryCodec<String, TestRow>()
    var afterMarkingCommits: [Int] = []
    for (index, record) in records.enumerated() {
      guard case .commit(let commit) = try codec.decode(record, checkpointState: false) else { continue }
      let marks = commit.events.contains { event in
        switch event {
        case .updateItem, .replaceItem, .reloadItems, .reconfigureItems, .updateSection, .replaceSection, .reloadSections: true
        default: false
        }
      }
      if marks { afterMarkingCommits.append(index + 1) }
    }
    let afterMoves = records.indices.filter { records[$0].kind == .headMove }.map { $0 + 1 }
    var cuts = (0..<8).map { _ in Int.random(in: 1...records.count, using: &random) }
    cuts += (0..<8).map { _ in afterMarkingCommits.randomElement(using: &random)! }
    cuts += (0..<8).map { _ in afterMoves.randomElement(using: &random)! }
    cuts.append(records.count)
    var markedHeads: [HistoryRecord.Kind: Int] = [:]
    for cut in cuts {
      let reference = try replay(records[..<cut], foldingFlat: false)
      for foldingFlat in [nil, true] as [Bool?] {
        let replayed = try replay(records[..<cut], foldingFlat: foldingFlat)
        let way = "cut \(cut), foldingFlat \(String(describing: foldingFlat))"
        #expect(replayed.head == reference.head, "\(way)")
        #expect(replayed.snapshot == reference.snapshot, "\(way)")
        #expect(Markers(replayed.snapshot) == Markers(reference.snapshot), "\(way)")
        #expect(replayed.checkpointInterval == reference.checkpointInterval, "\(way)")
        #expect(checkpointed(replayed) == checkpointed(reference), "\(way)")
        #expect(replayed.state.withLock { $0.graph.pendingCheckpoints.isEmpty }, "\(way)")
        for _ in 0..<5 {
          let version = Version(Int.random(in: 0...reference.latestVersion.rawValue, using: &random))
          #expect(try replayed.state(at: version) == reference.state(at: version), "\(way), v\(version)")
        }
      }
      if Markers(reference.snapshot) != Markers(ListSnapshot()) { markedHeads[records[cut - 1].kind, default: 0] += 1 }
    }
    #expect(markedHeads[.commit, default: 0] >= 4 && markedHeads[.headMove, default: 0] >= 1)  // there were markers to lose
    // The whole stream: the live store's head, markers included.
    let replayed = try replay(records[...], foldingFlat: nil)
    #expect(replayed.snapshot == store.snapshot && Markers(replayed.snapshot) == Markers(store.snapshot))
    // The replay switched (at the first commit past both thresholds), well before the end.
    #expect(replayed.checkpointInterval >= 4 * 64 && replayed.checkpointInterval >= store.snapshot.numberOfItems / 8)
  }

  /// A pipelined replay leaves the items records name as remembered (an update's old content, a
  /// remembered leaf's deletion) to its state: the decoder gives those events stand-ins, and the
  /// folding thread fills them in from the fold or the head's snapshot. Every version's events,
  /// their old items included, must come out as the live store recorded them.
  @Test(arguments: [true, false])
  func rememberedItemsComeFromTheStateOfAPipelinedReplay(flat: Bool) throws {
    let (store, records) = try longHistory(seed: 23, steps: 2_500)
    // The stream names remembered items often (or this would test nothing).
    var codec = HistoryCodec<String, TestRow>()
    codec.decodingMode = .leavingRememberedItemsToTheState  // as a pipelined replay without a sink
    var standIns = (updates: 0, deletions: 0)
    var events: [ListEvent<String, TestRow>] = []
    for record in records {
      events.removeAll()
      _ = try codec.decode(record, checkpointState: false, appendingEventsTo: &events)
      for entry in codec.decoderTables.itemsFromState {
        switch events[entry.event] {
        case .updateItem(let old, let new):
          #expect(old == new && new.id == entry.id)  // the stand-in: the new item
          standIns.updates += 1
        case .deleteItems(let outline, _):
          #expect(outline.roots.isEmpty)
          standIns.deletions += 1
        default: Issue.record("a stand-in in \(events[entry.event])")
        }
      }
      codec.decoderTables.itemsFromState.removeAll()
    }
    #expect(standIns.updates > 100 && standIns.deletions > 20, "\(standIns)")
    for threshold in [0, 700] {
      let replayed = try replay(records, flat: flat, pipeliningAfter: threshold)
      for version in 0...store.latestVersion.rawValue {
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)), "v\(version)")
      }
      #expect(replayed.snapshot == store.snapshot)
      #expect(replayed.head == store.head)
    }
  }

  /// A crafted stream can name as remembered a content that is not the item's in the state (a
  /// writer never does: it stops treating what it remembers as current when the head moves).
  /// A short replay (sequential, the decoder's remembered item) refuses the record; a pipelined
  /// one takes the state's item as the old one, so every version holds the stream's contents and
  /// undoing the update restores the state's.
  @Test(arguments: [true, false])
  func aRememberedContentThatIsNotTheStatesIsTheStatesWhenPipelined(flat: Bool) throws {
    var codec = HistoryCodec<String, TestRow>()
    let contents: [HistoryRecordContent<String, TestRow>] = [
      .commit(
        HistoryCommit(
          version: Version(1), parent: Version(0), timestamp: 0, label: nil,
          events: [.insertSection("S", items: ListOutline(items: [TestRow(1, "A"), TestRow(2, "x")]), at: 0)])),
      .commit(
        HistoryCommit(
          version: Version(2), parent: Version(1), timestamp: 0, label: nil,
          events: [.updateItem(old: TestRow(1, "A"), new: TestRow(1, "B"))])),
      .headMove(HistoryHeadMove(kind: .undo, from: Version(2), to: Version(1), latestVersion: Version(2), timestamp: 0)),
      // The encoder remembers "B" for item 1 (the last content it wrote): the remembered form
      // (as for the update before), although the state holds "A" again.
      .commit(
        HistoryCommit(
          version: Version(3), parent: Version(1), timestamp: 0, label: nil,
          events: [.updateItem(old: TestRow(1, "B"), new: TestRow(1, "C"))])),
    ]
    let records = try contents.enumerated().map { try codec.encode($1, sequence: UInt64($0 + 1)) }
    var decoder = HistoryCodec<String, TestRow>()
    decoder.decodingMode = .leavingRememberedItemsToTheState
    for record in records { _ = try decoder.decode(record, checkpointState: false) }
    #expect(decoder.decoderTables.itemsFromState.count == 2, "both updates are written in the remembered form")

    let sequential = Result { () throws(HistoryError) in try replay(records, flat: flat, pipeliningAfter: .max) }
    guard case .failure(.invalidRecord(sequence: 4, _)) = sequential else {
      Issue.record("sequential: \(sequential)")
      return
    }
    let pipelined = try replay(records, flat: flat, pipeliningAfter: 0)
    func rows(_ snapshot: ListSnapshot<String, TestRow>) -> [TestRow?] { snapshot.itemIdentifiers(inSection: "S").map(snapshot.item) }
    #expect(rows(pipelined.snapshot) == [TestRow(1, "C"), TestRow(2, "x")])
    #expect(try pipelined.events(of: Version(3)) == [.updateItem(old: TestRow(1, "A"), new: TestRow(1, "C"))])
    #expect(try rows(pipelined.state(at: Version(2))) == [TestRow(1, "B"), TestRow(2, "x")])
    try pipelined.undo()
    #expect(rows(pipelined.snapshot) == [TestRow(1, "A"), TestRow(2, "x")])
  }

  /// Records of commits with hand-written events (a foreign or crafted stream: a live store
  /// never writes an identifier twice in one reload).
  func craftedRecords(_ commits: [[ListEvent<String, String>]]) throws -> [HistoryRecord] {
    var codec = HistoryCodec<String, String>()
    return try commits.enumerated().map { index, events in
      try codec.encode(
        .commit(HistoryCommit(version: Version(index + 1), parent: Version(index), timestamp: 0, label: nil, events: events)),
        sequence: UInt64(index + 1))
    }
  }

  /// A replay refuses the same records whichever way it folds (a fold that accepted what a
  /// snapshot refuses would keep versions that cannot be undone); the error names the record,
  /// also when it is the last one (whose events the switching replay redoes for the markers).
  @Test(arguments: [true, false])
  func everyWayOfFoldingRefusesARecordThatNamesAnIdentifierTwice(lastRecord: Bool) throws {
    var commits: [[ListEvent<String, String>]] = [
      [.insertSection("S", items: ListOutline(items: ["a", "b"]), at: 0)], [.reloadItems(["a", "a"])],
    ]
    if !lastRecord { commits.append([.reloadSections(["S"])]) }
    for events in [[ListEvent<String, String>.reconfigureItems(["b", "b"])], [.reloadSections(["S", "S"])]] {
      for (index, records) in [try craftedRecords(commits), try craftedRecords([commits[0], events])].enumerated() {
        for foldingFlat in [false, true, nil] as [Bool?] {
          let outcome = Result { () throws(HistoryError) in
            try ListStore<String, String>(
              replaying: records, codec: HistoryCodec(), sink: nil, checkpointInterval: 1, checkpointBudget: .bytes(1),
              journalCheckpointBytes: .max,
              options: .init(folding: foldingFlat.map { $0 ? .flat : .snapshots } ?? .snapshotsThenFlat(fromInterval: 1)),
              clock: { 0 })
          }
          guard case .failure(.invalidRecord(sequence: 2, _)) = outcome else {
            Issue.record("stream \(index), foldingFlat \(String(describing: foldingFlat)): \(outcome)")
            continue
          }
        }
      }
    }
  }
}
