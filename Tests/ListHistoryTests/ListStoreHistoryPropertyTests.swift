import ListHistory
import ListState
import TestSupport
import Testing

/// Random operation sequences with random undo, redo and checkout: every state reached live is
/// reproduced by time travel (checkpointed), by full replay of the records, and by the generic
/// decoder; undo-then-redo is the identity.
@Suite struct ListStoreHistoryPropertyTests {
  typealias Store = ListStore<String, TestRow>

  struct Run {
    var store: Store
    var sink: RecordingSink
    var live: [Int: Canonical<String, TestRow>]
    var failures: Int
  }

  /// Every step checked as it is taken (see ``RandomHistory/Checks``): head moves, refused
  /// transactions (all or nothing) and the head's live state.
  func randomRun(
    seed: UInt64, steps: Int, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .unbounded
  ) throws -> Run {
    let sink = RecordingSink()
    let store = RandomHistory.recordingStore(
      sink: sink, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget, journalCheckpointBytes: 512)
    var history = RandomHistory(seed: seed, mix: .init(undo: 10, redo: 5, checkout: 4), checks: .all)
    try history.drive(store, sink: sink, steps: steps)
    return Run(store: store, sink: sink, live: history.live, failures: history.refusedTransactions)
  }

  /// Seeds with the budget of the live store (and of the replays with dense checkpoints):
  /// unbounded, or 16 KiB (a few checkpoints of these lists: thinned during the run).
  @Test(arguments: [(1, .unbounded), (2, .unbounded), (3, .bytes(16 << 10))] as [(UInt64, CheckpointBudget)])
  func timeTravelAndReplayReproduceEveryVersion(seed: UInt64, budget: CheckpointBudget) throws {
    let run = try randomRun(
      seed: seed, steps: SeededRandom.propertySteps(default: 150), checkpointInterval: 5, checkpointBudget: budget)
    let store = run.store
    if budget.maximumBytes != nil { #expect(store.checkpointInterval > 5, "the budget thinned the checkpoints") }
    #expect(run.live.count == store.latestVersion.rawValue + 1)
    // The run exercised real work: many versions, some refused transactions, several checkpoints.
    #expect(run.live.count > 50 && run.failures > 0)
    #expect(run.sink.records.contains { $0.kind == .checkpoint })

    // Checkpointed time travel equals the live state of every version, on every branch.
    for (version, expected) in run.live {
      #expect(Canonical(try store.state(at: Version(version))) == expected, "state(at: v\(version))")
    }

    // Full replay of the records rebuilds every branch, the head and redo memory: folding into
    // the snapshot or into a `ListFold`, without useful checkpoints or with many (built from
    // the fold).
    for (interval, flat) in [(1 << 30, true), (1 << 30, false), (7, true)] {
      let replayed = try ListStore<String, TestRow>(
        replaying: run.sink.records, codec: HistoryCodec(), sink: nil, checkpointInterval: interval,
        checkpointBudget: budget, journalCheckpointBytes: .max, options: .init(folding: flat ? .flat : .snapshots),
        clock: { 0 })
      #expect(replayed.head == store.head)
      #expect(replayed.latestVersion == store.latestVersion)
      #expect(replayed.redoTarget == store.redoTarget)
      #expect(Canonical(replayed.snapshot) == Canonical(store.snapshot))
      var random = SeededRandom(seed: seed)
      for (version, expected) in run.live {
        // Full replay from version 0 is quadratic over all versions: check a sample.
        if interval < 100 || Int.random(in: 0..<8, using: &random) == 0 {
          #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version)), interval \(interval), flat \(flat)")
        }
        #expect(replayed.info(for: Version(version)) == store.info(for: Version(version)))
        #expect(replayed.children(of: Version(version)) == store.children(of: Version(version)))
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)))
      }
      // Redo memory of every version survives the replay.
      for version in 0...store.latestVersion.rawValue {
        try store.checkout(Version(version))
        try replayed.checkout(Version(version))
        #expect(replayed.redoTarget == store.redoTarget)
      }
    }

    // The generic decoder (no app types) replays the same history to the same shapes.
    let generic = try ListStore<JournalValueElement, JournalValueElement>(
      replaying: run.sink.records, codec: .generic())
    for (version, expected) in run.live {
      let state = try generic.state(at: Version(version))
      #expect(state.sectionIdentifiers == expected.sections.map { .string($0) })
      #expect(state.itemIdentifiers == expected.outlines.flatMap(\.itemIdentifiers).map { .int(Int64($0)) })
      let contents = state.itemIdentifiers.compactMap { state.item($0)?.content["title"] }
      let titles = expected.outlines.flatMap { outline in allItems(outline).map { JournalValue.string($0.title) } }
      #expect(contents == titles)
    }
  }

  /// Sink failures at random moments: each failed commit or head move leaves the store and the
  /// codec as before (identifiers, strings, remembered contents, bases), so the stream of the
  /// records that were stored replays — with both encodings — to the live history.
  @Test(arguments: [(3, 1), (4, 1), (5, 0)] as [(UInt64, UInt16)])
  func failedWritesLeaveTheStreamDecodable(seed: UInt64, formatMinor: UInt16) throws {
    let sink = RecordingSink()
    var codec = HistoryCodec<String, TestRow>()
    codec.encoderFormatMinor = formatMinor
    let store = RandomHistory.recordingStore(sink: sink, codec: codec, checkpointInterval: 5, journalCheckpointBytes: 512)
    // A failed write leaves the store as before (head, latest version, state, records).
    var history = RandomHistory(
      seed: seed, mix: .init(undo: 12, redo: 6, checkout: 0), writeFailures: .random(oneIn: 4), checks: .refusals)
    try history.drive(store, sink: sink, steps: SeededRandom.propertySteps(default: 300))
    #expect(history.failedWrites > 20)
    #expect(sink.records.contains { $0.kind == .checkpoint })
    for formatMinorOfReader in [0, 1] as [UInt16] {
      var readerCodec = HistoryCodec<String, TestRow>()
      readerCodec.encoderFormatMinor = formatMinorOfReader  // decoding accepts every encoding
      let replayed = try ListStore<String, TestRow>(replaying: sink.records, codec: readerCodec, checkpointInterval: 7)
      #expect(replayed.head == store.head && replayed.latestVersion == store.latestVersion)
      for (version, expected) in history.live {
        #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version))")
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)))
      }
    }
  }

  @Test func eventsBetweenVersionsFoldToTheTarget() throws {
    let run = try randomRun(seed: 9, steps: SeededRandom.propertySteps(default: 200), checkpointInterval: 8)
    var random = SeededRandom(seed: 99)
    for _ in 0..<50 {
      let a = Int.random(in: 0...run.store.latestVersion.rawValue, using: &random)
      let b = Int.random(in: 0...run.store.latestVersion.rawValue, using: &random)
      var state = try run.store.state(at: Version(a))
      for event in try run.store.events(from: Version(a), to: Version(b)) { try event.apply(to: &state) }
      #expect(Canonical(state) == run.live[b])
    }
  }

  func allItems(_ outline: ListOutline<TestRow>) -> [TestRow] {
    var result: [TestRow] = []
    func visit(_ nodes: [ListOutline<TestRow>.Node]) {
      for node in nodes {
        result.append(node.item)
        visit(node.children)
      }
    }
    visit(outline.roots)
    return result
  }
}
