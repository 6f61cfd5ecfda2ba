import ListHistory
import TestSupport
import Testing

/// The store against the naive reference model: random transactions (with invalid operations),
/// undo, redo and checkout; every version's state, live and after a full replay of the records,
/// equals the reference state built by applying the same operations to the parent's reference.
/// See ``ReferenceHistoryRun`` for every check. `LISTJOURNAL_PROPERTY_STEPS` runs longer.
@Suite struct ReferenceHistoryPropertyTests {
  /// Seeds with the live store's checkpoint interval (1: a checkpoint after every version;
  /// 1 << 20: none after version 0, so time travel walks from the head or folds from version 0)
  /// and budget (32 KiB: a few checkpoints of these lists, so the interval doubles and the
  /// checkpoints are thinned several times during the run, reopens included).
  @Test(arguments: [
    (1, 4, .unbounded), (2, 4, .unbounded), (3, 16, .unbounded), (4, 1, .unbounded), (5, 1 << 20, .unbounded),
    (6, 1, .bytes(32 << 10)), (7, 4, .bytes(32 << 10)),
  ] as [(UInt64, Int, CheckpointBudget)])
  func storeFollowsTheReferenceModel(seed: UInt64, checkpointInterval: Int, budget: CheckpointBudget) throws {
    let steps = SeededRandom.propertySteps(default: 250)
    var run = ReferenceHistoryRun(seed: seed, checkpointInterval: checkpointInterval, checkpointBudget: budget)
    if let failure = run.run(steps: steps) {
      Issue.record("\(failure)")
      return
    }
    if budget.maximumBytes != nil {
      #expect(run.store.checkpointInterval >= 4 * checkpointInterval, "the budget thinned the checkpoints")
    }
    // The run exercised real work: many versions, branches, refusals, every kind of head move,
    // and checkpoint records in the stream.
    let statistics = run.statistics
    #expect(statistics.commits > steps / 5, "\(statistics)")
    #expect(statistics.refusedTransactions > 0 && statistics.refusedHeadMoves > 0, "\(statistics)")
    #expect(statistics.undos > 0 && statistics.redos > 0 && statistics.checkouts > 0 && statistics.reopens > 0, "\(statistics)")
    #expect(statistics.maxItemCount >= 10, "\(statistics)")
    #expect(run.versions.indices.contains { run.store.children(of: Version($0)).count > 1 }, "no branch")
    #expect(run.sink.records.contains { $0.kind == .checkpoint })
  }
}
