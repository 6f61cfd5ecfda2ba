import Foundation
import ListJournal
import TestSupport
import Testing

/// The progress a replay reports (the `listjournal replay` bar): every record of the file is
/// counted, in steps, on the thread that opens the journal.
@Suite struct ReplayProgressTests {
  /// A replay long enough to decode and fold on two threads reports (0, total) first, then
  /// every 64 records read, then (total, total); `total` is the reader's record count
  /// (metadata included), and each report comes on the opening thread.
  @Test func aLongReplayReportsInStepsOnTheOpeningThread() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(clock: TickingClock().closure)))
    try journal.store.appendSections([TestSection("s")])
    try journal.store.appendItems([TestItem("a"), TestItem("b")])
    // Past the pipelining threshold (8,192 records); a two-item list keeps the debug build's
    // invariant checks cheap.
    for _ in 0..<5_000 {
      try journal.store.moveItem("a", afterItem: "b")
      try journal.store.moveItem("b", afterItem: "a")
    }
    try journal.close()
    let total = Int(try JournalReader.open(at: path).recordCount)
    #expect(total > 10_000)

    let opener = Thread.current
    var reports: [(done: Int, total: Int)] = []
    var onOtherThreads = 0
    let history = try JournalHistory<TestSection, TestItem>.open(
      at: path, codec: HistoryCodec(), checkpointInterval: 1 << 20
    ) { done, total in
      if Thread.current != opener { onOtherThreads += 1 }
      reports.append((done, total))
    }
    #expect(history.latestVersion.rawValue == 10_002)
    #expect(onOtherThreads == 0)
    #expect(reports.allSatisfy { $0.total == total })
    #expect(reports.map(\.done) == [0] + Array(stride(from: 64, through: total, by: 64)) + [total])
  }

  /// A replay that fails stops reporting where it failed: no (total, total).
  @Test func aFailedReplayDoesNotReportTheEnd() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("bad.journal")
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .strict, store: .init(clock: TickingClock().closure)))
    try journal.store.appendSections([TestSection("s")])
    try journal.close()
    let writer = try JournalWriter.open(at: path)
    _ = try writer.append(JournalRecord(kind: .init(rawValue: HistoryRecord.Kind.commit.rawValue), version: 2, payload: [0xFF, 0xFF]))
    try writer.close()
    let total = Int(try JournalReader.open(at: path).recordCount)

    var reports: [Int] = []
    #expect(throws: JournalStoreError.self) {
      _ = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), progress: { done, _ in reports.append(done) })
    }
    #expect(reports.first == 0)
    #expect(!reports.contains(total))
  }
}
