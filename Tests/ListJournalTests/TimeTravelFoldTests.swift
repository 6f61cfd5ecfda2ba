import Foundation
import ListJournal
import TestSupport
import Testing

/// Time travel in the file applies a path's events to the persistent snapshot, or — for a path
/// long against the list's size — to a flat `ListFold`: both ways give the replayed history's
/// states on every branch, and report an event that does not apply alike.
@Suite struct TimeTravelFoldTests {
  final class Collect: HistoryRecordSink, @unchecked Sendable {
    var records: [HistoryRecord] = []
    func write(_ record: HistoryRecord) throws { records.append(record) }
  }

  /// Random transactions, undo, redo and checkout (abandoned branches), several checkpoints:
  /// every version through either way equals the replay's state and the live one.
  @Test(arguments: [4, 5] as [UInt64])
  func bothWaysGiveTheReplayedStates(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("t.journal")
    var driver = RandomHistoryDriver(seed: seed)
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: .relaxed,
        store: .init(checkpointInterval: 7, journalCheckpointBytes: 1_500, clock: TickingClock().closure)))
    for _ in 0..<propertySteps(500) { try driver.step(journal.store) }
    try journal.close()
    let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec())
    #expect(history.versions.contains { entry in entry.parent.map { $0.rawValue != entry.version.rawValue - 1 } ?? false }, "branches")
    #expect(history.info.checkpointCount > 1)
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    for number in 0...history.latestVersion.rawValue {
      let version = Version(number)
      let expected = try history.state(at: version)
      #expect(expected == driver.live[number], "replay of v\(number)")
      #expect(try travel.state(at: version, foldingFlat: true) == expected, "fold to v\(number)")
      #expect(try travel.state(at: version, foldingFlat: false) == expected, "snapshot to v\(number)")
    }
  }

  /// Thousands of commits after the last checkpoint on a list of a few items, with undos and
  /// commits on the undone versions: travels far from the checkpoint choose the fold by
  /// themselves, and every branch's versions come out as replayed.
  @Test func longPathsFoldAndMatchTheReplay() throws {
    let (records, abandoned) = try Self.longHistory()
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    try Self.write(records, to: path)
    let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec())
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    let latest = history.latestVersion.rawValue
    #expect(latest > 5_000)
    #expect(JournalTimeTravel<TestSection, TestItem>._foldsFlat(events: latest - 10, items: 4))
    var versions = Array(stride(from: 0, through: latest, by: 97)) + [latest - 1, latest] + abandoned
    versions.sort()
    for number in versions {
      let version = Version(number)
      let expected = try history.state(at: version)
      #expect(try travel.state(at: version) == expected, "travel to v\(number)")
      #expect(try travel.state(at: version, foldingFlat: false) == expected, "snapshot to v\(number)")
    }
  }

  /// A commit replaced by a foreign one (an item deleted) makes the next commit's move fail:
  /// both ways throw `.invalidRecord` naming that commit's version and frame.
  @Test func anEventThatDoesNotApplyFailsAlikeBothWays() throws {
    var (records, _) = try Self.longHistory()
    // The same history up to v4,999, then v5,000 deletes "a" instead of moving it.
    let foreign = Collect()
    let other = Self.store(sink: foreign)
    try other.appendSections([TestSection("s")])
    try other.appendItems([TestItem("a"), TestItem("b"), TestItem("c")])
    while other.latestVersion.rawValue < 4_999 { try Self.commitMove(other) }
    try other.deleteItems(["a"])
    let index = try #require(records.firstIndex { $0.kind == .commit && $0.version == 5_000 })
    records[index] = try #require(foreign.records.last)
    let directory = TemporaryDirectory()
    let path = directory.file("foreign.journal")
    try Self.write(records, to: path)
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    let reader = try JournalReader.open(at: path)
    let frame = try #require(reader.frameIndex(containing: 5_001))
    for foldingFlat in [true, false, nil] as [Bool?] {
      do {
        _ = try travel.state(at: 5_800, foldingFlat: foldingFlat)
        Issue.record("travel through a commit that does not apply succeeded (foldingFlat \(String(describing: foldingFlat)))")
      } catch {
        guard case .invalidRecord(let offset, let sequence, let version, let reason) = error else {
          Issue.record("unexpected error \(error)")
          continue
        }
        #expect(version == 5_001, "\(reason)")
        #expect(sequence == 0)
        #expect(offset == reader.frames[frame].offset)
      }
    }
    // Versions before it are unaffected.
    #expect(try travel.state(at: 4_999, foldingFlat: true) == travel.state(at: 4_999, foldingFlat: false))
  }

  static func store(sink: Collect) -> ListStore<TestSection, TestItem> {
    ListStore(codec: HistoryCodec(), sink: sink, journalCheckpointBytes: 1 << 30, clock: TickingClock().closure)
  }

  /// Moves "a" to the end of the section (a list of three items keeps the debug build's
  /// invariant checks cheap).
  static func commitMove(_ store: ListStore<TestSection, TestItem>) throws {
    let last = store.snapshot.itemIdentifiers.last!
    if last == "a" { try store.moveItem("b", afterItem: "a") } else { try store.moveItem("a", afterItem: last) }
  }

  /// ~6,000 single-move commits after one checkpoint, with an undo of three versions (then new
  /// commits on the older one) every 1,000; returns the records and versions left on abandoned
  /// branches.
  static func longHistory() throws -> (records: [HistoryRecord], abandoned: [Int]) {
    let sink = Collect()
    let store = store(sink: sink)
    try store.appendSections([TestSection("s")])
    try store.appendItems([TestItem("a"), TestItem("b"), TestItem("c")])
    var abandoned: [Int] = []
    for step in 1...6_000 {
      if step % 1_000 == 0 {
        abandoned.append(store.head.rawValue)
        for _ in 0..<3 { try store.undo() }
        try store.updateItem(TestItem("c", content: "step \(step)"))
      }
      try commitMove(store)
    }
    return (sink.records, abandoned)
  }

  static func write(_ records: [HistoryRecord], to path: String) throws {
    var options = JournalOptions()
    options.durability = .relaxed
    let writer = try JournalWriter.open(at: path, options: options, createIfMissing: true)
    for record in records {
      _ = try writer.append(
        JournalRecord(kind: .init(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    }
    try writer.close()
  }
}
