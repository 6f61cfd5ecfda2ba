@testable import ListHistory
import Testing

/// The checkpoint budget's rule (`_CheckpointSpacing`), shared by the synchronous store, the
/// background encoder and a replay that continues a stream.
@Suite struct CheckpointSpacingTests {
  @Test func aCheckpointIsDueAfterTheBudgetAndSeveralTimesTheLastCheckpoint() {
    var spacing = _CheckpointSpacing()
    spacing.add(recordOf: 999)
    #expect(!spacing.isDue(budget: 1_000))
    spacing.add(recordOf: 1)
    #expect(spacing.isDue(budget: 1_000))  // no checkpoint yet: the budget alone

    spacing.restart(afterCheckpointOf: 500, written: true)
    #expect(spacing.bytesSinceCheckpoint == 0 && spacing.lastCheckpointBytes == 500)
    spacing.add(recordOf: 3_999)
    #expect(!spacing.isDue(budget: 1_000))  // 8 × 500 = 4,000 outweighs the budget
    spacing.add(recordOf: 1)
    #expect(spacing.isDue(budget: 1_000))

    // A checkpoint that could not be written only raises the last size (never lowers it).
    spacing.restart(afterCheckpointOf: 300, written: false)
    #expect(spacing.lastCheckpointBytes == 500 && spacing.bytesSinceCheckpoint == 0)
    spacing.restart(afterCheckpointOf: 2_000, written: false)
    #expect(spacing.lastCheckpointBytes == 2_000)
    spacing.add(recordOf: 15_999)
    #expect(!spacing.isDue(budget: 1_000))
    spacing.add(recordOf: 1)
    #expect(spacing.isDue(budget: 1_000))
    // A written one replaces it, smaller or not.
    spacing.restart(afterCheckpointOf: 100, written: true)
    #expect(spacing.lastCheckpointBytes == 100)
  }
}
