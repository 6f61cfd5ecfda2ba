import Foundation
import ListJournal
import TestSupport
import Testing

/// Time travel in the file keeps the checkpoints it decoded within a budget, the most recently
/// used last: travels in any order give the replayed states whatever the budget, and the budget
/// decides what stays.
@Suite struct TimeTravelCacheTests {
  /// A journal of random transactions, undo, redo and checkout with many checkpoints.
  static func journal(seed: UInt64, in directory: TemporaryDirectory) throws -> (path: String, live: [Int: TestSnapshot]) {
    let path = directory.file("c.journal")
    var driver = RandomHistoryDriver(seed: seed)
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: .relaxed,
        store: .init(checkpointInterval: 7, journalCheckpointBytes: 1_000, clock: TickingClock().closure)))
    for _ in 0..<propertySteps(200) { try driver.step(journal.store) }
    try journal.close()
    return (path, driver.live)
  }

  /// Versions visited in a shuffled order (jumping between checkpoints) come out as replayed,
  /// with every checkpoint kept and with only the last one kept; an unbounded cache ends up
  /// holding several checkpoints, a zero budget one.
  @Test(arguments: [11, 12] as [UInt64])
  func travelsInAnyOrderGiveTheReplayedStates(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let (path, live) = try Self.journal(seed: seed, in: directory)
    let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec())
    #expect(history.info.checkpointCount > 1)
    let keepingAll = try JournalTimeTravel<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointCache: .unbounded)
    let keepingOne = try JournalTimeTravel<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointCache: .bytes(0))
    var random = SeededRandom(seed: seed)
    var versions = Array(0...history.latestVersion.rawValue)
    versions.shuffle(using: &random)
    // Twice over: the second pass starts from a full cache.
    for number in versions + versions.reversed() {
      let version = Version(number)
      let expected = try history.state(at: version)
      #expect(expected == live[number], "replay of v\(number)")
      #expect(try keepingAll.state(at: version) == expected, "v\(number), every checkpoint kept")
      #expect(try keepingOne.state(at: version) == expected, "v\(number), one checkpoint kept")
    }
    #expect(keepingAll.checkpoints.withLock { $0.frames.count } > 1)
    #expect(keepingOne.checkpoints.withLock { $0.frames.count } == 1)
  }

  /// The least recently used checkpoint goes first when the estimate exceeds the budget; a
  /// checkpoint larger than the budget is still kept, alone.
  @Test func theLeastRecentlyUsedCheckpointGoesFirst() throws {
    typealias Kept = _DecodedCheckpoints<TestSection, TestItem>
    func checkpoint(items: Int) throws -> HistoryCheckpoint<TestSection, TestItem> {
      var snapshot = ListSnapshot<TestSection, TestItem>()
      try snapshot.appendSections([TestSection("s")])
      try snapshot.appendItems((0..<items).map { TestItem("i\($0)") })
      return HistoryCheckpoint(head: Version(1), latestVersion: Version(1), snapshot: snapshot)
    }
    let small = try checkpoint(items: 100)
    let cost = Kept.estimatedCost(of: small)
    var kept = Kept(budget: .bytes(2 * cost))
    let codec = HistoryCodec<TestSection, TestItem>()
    kept.keep(frame: 1, codec: codec, checkpoint: small)
    kept.keep(frame: 2, codec: codec, checkpoint: small)
    #expect(kept.frames == [1, 2])
    #expect(kept.take(frame: 1)?.frame == 1)
    #expect(kept.frames == [2, 1], "taking a checkpoint makes it the most recently used")
    #expect(kept.take(frame: 3) == nil)
    kept.keep(frame: 3, codec: codec, checkpoint: small)
    #expect(kept.frames == [1, 3], "frame 2 was the least recently used")
    #expect(kept.cost == 2 * cost)
    kept.keep(frame: 4, codec: codec, checkpoint: try checkpoint(items: 1_000))
    #expect(kept.frames == [4], "a checkpoint over the budget is kept alone")
  }
}
