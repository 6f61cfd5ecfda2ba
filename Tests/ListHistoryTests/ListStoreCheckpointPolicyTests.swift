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
  /// the live state of every version as it was created.
  func randomHistory(seed: UInt64, steps: Int, interval: Int) throws -> (
    store: Store, sink: RecordingSink, live: [Int: Canonical<String, TestRow>]
  ) {
    let sink = RecordingSink()
    let store = RandomHistory.recordingStore(sink: sink, checkpointInterval: interval, journalCheckpointBytes: 4_096)
    var history = RandomHistory(seed: seed, mix: .init(undo: 8, undosPerStep: 1...6, redo: 4, checkout: 2), checks: .liveState)
    try history.drive(store, sink: sink, steps: steps)
    return (store, sink, history.live)
  }

  @Test(arguments: [(11, 4), (12, 16), (13, 64)] as [(UInt64, Int)])
  func timeTravelMatchesLiveStatesWhicheverCheckpointItUses(seed: UInt64, interval: Int) throws {
    let (store, sink, live) = try randomHistory(
      seed: seed, steps: SeededRandom.propertySteps(default: 600), interval: interval)
    #expect(live.count > 200)

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

    // Rebuilt from the records: its checkpoints are where the replay put them.
    let replayed = try Store(replaying: sink.records, codec: HistoryCodec(), checkpointInterval: interval)
    #expect(Canonical(replayed.snapshot) == Canonical(store.snapshot))
    for (version, expected) in live {
      #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version))")
    }
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
