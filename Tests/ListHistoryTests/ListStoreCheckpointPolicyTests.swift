@testable import ListHistory
import ListState
import TestSupport
import Testing

/// Time travel picks the cheapest of three ways to a version: the checkpoint before it folded
/// forwards, a checkpoint after it on the redo line folded backwards (inverse events), or the
/// path from the head. Every choice must give the state the version had when it was live — on
/// every branch, in a live store and in one rebuilt from its records (where the replay placed
/// the checkpoints and took its own jumps).
@Suite struct ListStoreCheckpointPolicyTests {
  typealias Store = ListStore<String, TestRow>

  /// A long random history with branches (undo, then commit), redo and far checkouts; returns
  /// the live state of every version as it was created. `afterStep` sees the store after each step.
  func randomHistory(
    seed: UInt64, steps: Int, interval: Int, budget: CheckpointBudget = .unbounded,
    afterStep: (Store) -> Void = { _ in }
  ) throws -> (store: Store, sink: RecordingSink, live: [Int: Canonical<String, TestRow>]) {
    let sink = RecordingSink()
    let store = RandomHistory.recordingStore(
      sink: sink, checkpointInterval: interval, checkpointBudget: budget, journalCheckpointBytes: 4_096)
    var history = RandomHistory(seed: seed, mix: .init(undo: 8, undosPerStep: 1...6, redo: 4, checkout: 2), checks: .liveState)
    try history.drive(store, sink: sink, steps: steps, afterStep: afterStep)
    return (store, sink, history.live)
  }

  /// A budget of a few checkpoints of the random histories' lists (each estimated at 1 KiB plus
  /// 128 bytes an item and section).
  static let smallBudget = CheckpointBudget.bytes(24 << 10)

  /// Seeds with the minimum interval and the budget: unbounded (a checkpoint every `interval`
  /// events) or small (the interval doubles several times, with thinning, over the history).
  @Test(arguments: [
    (11, 4, .unbounded), (12, 16, .unbounded), (13, 64, .unbounded), (14, 1, Self.smallBudget), (15, 4, Self.smallBudget),
  ] as [(UInt64, Int, CheckpointBudget)])
  func timeTravelMatchesLiveStatesWhicheverCheckpointItUses(seed: UInt64, interval: Int, budget: CheckpointBudget) throws {
    let (store, sink, live) = try randomHistory(
      seed: seed, steps: SeededRandom.propertySteps(default: 600), interval: interval, budget: budget)
    #expect(live.count > 200)
    if budget.maximumBytes != nil {
      #expect(store.checkpointInterval >= 8 * interval, "the budget thinned the checkpoints several times")
    }

    // From the final head, then from random heads (the head decides whether the path wins).
    var random = SeededRandom(seed: seed)
    for round in 0..<3 {
      if round > 0 { try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &random))) }
      for (version, expected) in live {
        #expect(Canonical(try store.state(at: Version(version))) == expected, "state(at: v\(version)), round \(round)")
      }
    }
    // Checkouts walk or jump through a checkpoint; the head state is the version's.
    for _ in 0..<60 {
      let version = Int.random(in: 0...store.latestVersion.rawValue, using: &random)
      try store.checkout(Version(version))
      #expect(Canonical(store.snapshot) == live[version], "checkout(v\(version))")
    }

    // Rebuilt from the records (into snapshots, a flat fold, or snapshots then a flat fold once
    // the interval is 8 or more and an eighth of the list): the replay places and thins the
    // checkpoints as the live store did, and time travel gives the live states.
    let checkpointed = { (store: Store) in store.state.withLock { $0.graph.checkpoints.keys.sorted() } }
    for flat in [false, true, nil] as [Bool?] {
      let replayed = try Store(
        replaying: sink.records, codec: HistoryCodec(), sink: nil, checkpointInterval: interval,
        checkpointBudget: budget, journalCheckpointBytes: .max,
        options: .init(folding: flat.map { $0 ? .flat : .snapshots } ?? .snapshotsThenFlat(fromInterval: 8)), clock: { 0 })
      #expect(Canonical(replayed.snapshot) == Canonical(store.snapshot))
      #expect(replayed.checkpointInterval == store.checkpointInterval, "flat \(String(describing: flat))")
      #expect(checkpointed(replayed) == checkpointed(store), "flat \(String(describing: flat))")
      // A flat replay keeps its checkpoints as folds until the end, then builds the kept ones.
      #expect(replayed.state.withLock { $0.graph.pendingCheckpoints.isEmpty })
      for (version, expected) in live {
        #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version)), flat \(String(describing: flat))")
      }
    }
  }

  /// What the budget promises, after every step of long random histories with branches, undo,
  /// redo and far checkouts: the checkpoints' estimate stays within the budget (so their number
  /// stays bounded), version 0 keeps its checkpoint, the cached work since the last checkpoint is
  /// right for every version, and the kept checkpoints are spaced by the current interval.
  @Test(arguments: [(21, 1), (22, 4), (23, 16)] as [(UInt64, Int)])
  func checkpointsStayWithinTheBudget(seed: UInt64, interval: Int) throws {
    // A few checkpoints of the largest lists these longer histories reach: a budget smaller
    // than one checkpoint would leave only version 0's (and an interval that stays large).
    let budget = CheckpointBudget.bytes(64 << 10)
    let limit = budget.maximumBytes!
    var mostCheckpoints = 0
    var checks = 0
    let (store, _, live) = try randomHistory(
      seed: seed, steps: SeededRandom.propertySteps(default: 1_500), interval: interval, budget: budget
    ) { store in
      store.state.withLock { state in
        let problems = Self.checkpointProblems(state.graph)
        #expect(problems.isEmpty, "after v\(state.graph.count - 1): \(problems.prefix(5))")
        #expect(state.graph.checkpointBytes <= limit, "\(state.graph.checkpointBytes) estimated bytes")
        mostCheckpoints = max(mostCheckpoints, state.graph.checkpoints.count)
        #expect(state.graph.droppedCheckpoints.isEmpty, "dropped checkpoints are handed off, not kept")
      }
      checks += 1
    }
    // Each checkpoint but version 0's is estimated at 1 KiB or more.
    #expect(mostCheckpoints - 1 <= limit / 1_024)
    #expect(checks > 1_000 && live.count > 500)

    // The history needed thinning: without a budget its checkpoints are estimated far beyond it.
    let (unbounded, _, _) = try randomHistory(
      seed: seed, steps: SeededRandom.propertySteps(default: 1_500), interval: interval)
    let unboundedBytes = unbounded.state.withLock { $0.graph.checkpointBytes }
    #expect(unboundedBytes > 4 * limit)
    #expect(unbounded.checkpointInterval == interval)
    // ... and the budgeted store still has checkpoints spread over it, and folds less than twice
    // its interval to reach any version.
    let (count, currentInterval) = store.state.withLock { ($0.graph.checkpoints.count, $0.graph.checkpointInterval) }
    #expect(count >= 3 && currentInterval >= 8 * interval, "\(count) checkpoints, interval \(currentInterval), \(store.snapshot.numberOfItems) items, \(store.latestVersion)")
    for version in 0...store.latestVersion.rawValue {
      let forward = store.state.withLock { $0.graph.checkpointedAncestor(of: version).events }
      #expect(forward < 2 * currentInterval, "v\(version): \(forward) events from its checkpoint")
    }
  }

  /// On a linear history of one-event versions on a list of constant size (equal estimates),
  /// each thinning keeps every other checkpoint: the kept ones stay exactly one current interval
  /// apart, and there are always between half the budget's worth and the budget's worth of them.
  @Test func thinningKeepsEveryOtherCheckpoint() throws {
    let rows = (1...10).map { TestRow($0, "r\($0)") }
    var sample = ListSnapshot<String, TestRow>()
    try sample.appendSections(["S"])
    try sample.appendItems(rows, toSection: "S")
    let store = Store(checkpointInterval: 10, checkpointBudget: .bytes(8 * CheckpointBudget.estimatedCost(of: sample)))
    try store.transaction { tx in  // v1, weight 12: a checkpoint
      try tx.appendSections(["S"])
      try tx.appendItems(rows, toSection: "S")
    }
    var thinnings = 0
    var interval = 10
    for round in 1...2_000 {
      try store.updateItem(TestRow(round % 10 + 1, "u\(round)"))
      let (versions, current) = store.state.withLock { state in
        (state.graph.checkpoints.keys.filter { $0 != 0 }.map(Int.init).sorted(), state.graph.checkpointInterval)
      }
      if current != interval {
        #expect(current == 2 * interval, "one doubling at a time here")
        thinnings += 1
        interval = current
      }
      #expect(versions.count <= 8, "round \(round): \(versions)")
      if thinnings > 0 { #expect(versions.count >= 4, "round \(round): \(versions)") }
      #expect(zip(versions, versions.dropFirst()).allSatisfy { $1 - $0 == current }, "round \(round): \(versions)")
    }
    #expect(thinnings >= 4)
    #expect(try store.state(at: 1_000).item(1)?.title == "u990")
  }

  /// Where the graph's checkpoint bookkeeping is wrong (empty when it is right): see the
  /// invariants in `_HistoryGraph`'s documentation.
  static func checkpointProblems(_ graph: _HistoryGraph<String, TestRow>) -> [String] {
    var problems: [String] = []
    if graph.checkpoints[0] == nil { problems.append("version 0 lost its checkpoint") }
    let estimate = graph.checkpoints.reduce(0) { $0 + ($1.key == 0 ? 0 : CheckpointBudget.estimatedCost(of: $1.value)) }
    if estimate != graph.checkpointBytes { problems.append("estimate \(graph.checkpointBytes), checkpoints \(estimate)") }
    var interval = graph.minimumCheckpointInterval
    while interval < graph.checkpointInterval { interval *= 2 }
    if interval != graph.checkpointInterval { problems.append("interval \(graph.checkpointInterval) is not a doubling") }
    if graph.nodes[0].eventsSinceCheckpoint != 0 { problems.append("v0 has work since its checkpoint") }
    for version in 1..<graph.count {
      let work = graph.events(of: version).reduce(0) { $0 + $1.replayWeight }
      let since = graph.nodes[Int(graph.nodes[version].parent)].eventsSinceCheckpoint + work
      let cached = graph.nodes[version].eventsSinceCheckpoint
      if graph.checkpoints[Int32(version)] != nil {
        if cached != 0 { problems.append("checkpoint v\(version) caches \(cached)") }
        if since < graph.checkpointInterval { problems.append("checkpoint v\(version) only \(since) after the previous one") }
      } else {
        if cached != since { problems.append("v\(version) caches \(cached), expected \(since)") }
        if since >= 2 * graph.checkpointInterval { problems.append("v\(version) is \(since) after its checkpoint") }
      }
    }
    return problems
  }

  /// On a linear history of one-event versions, a version just before a checkpoint is reached
  /// backwards from it, one just after forwards: at most half an interval of events either way.
  @Test func foldPlansUseTheNearerCheckpoint() throws {
    let store = Store(checkpointInterval: 100)
    try store.appendSections(["S"])
    for id in 1...1_000 { try store.appendItems([TestRow(id, "r\(id)")], toSection: "S") }
    // Version 1 inserted the section (weight 1); each later version one item (weight 1).
    let checkpointed = store.state.withLock { state in
      (0...state.graph.count - 1).filter { state.graph.checkpoints[Int32($0)] != nil }
    }
    #expect(checkpointed == Array(stride(from: 0, through: 1_000, by: 100)))
    for (version, expectedEvents) in [(190, 10), (110, 10), (150, 50), (199, 1), (200, 0), (1_000, 0)] {
      let plan = store.state.withLock { $0.graph.foldPlan(at: version) }
      #expect(plan.events.count == expectedEvents, "plan for v\(version)")
      var state = plan.base
      for event in plan.events { try event.apply(to: &state, verifying: true) }
      #expect(state.itemIdentifiers.count == version - 1, "v\(version)")
    }
    // The version after the last checkpoint has no checkpoint after it: forwards only.
    #expect(store.latestVersion == Version(1_001))
    #expect(store.state.withLock { $0.graph.foldPlan(at: 1_001) }.events.count == 1)
  }
}
