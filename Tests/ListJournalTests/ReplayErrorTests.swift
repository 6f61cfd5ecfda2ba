import Foundation
import ListJournal
import TestSupport
import Testing

/// Errors of a long replay, which decodes records on one thread while another applies them.
@Suite struct ReplayErrorTests {
  final class Collect: HistoryRecordSink, @unchecked Sendable {
    var records: [HistoryRecord] = []
    func write(_ record: HistoryRecord) throws { records.append(record) }
  }

  /// A record that decodes but does not apply, deep in a replay long enough to be pipelined:
  /// the error names that record (its sequence, version and frame), not the record the
  /// decoding thread had reached when the other thread found the failure.
  @Test func aRecordThatFailsToApplyIsNamedNotTheOneDecodedLast() throws {
    let sink = Collect()
    let store = ListStore<TestSection, TestItem>(
      codec: HistoryCodec(), sink: sink, journalCheckpointBytes: 1 << 30, clock: TickingClock().closure)
    try store.appendSections([TestSection("s")])
    try store.appendItems([TestItem("a"), TestItem("b")])
    // Many small commits (a list of two items keeps the debug build's invariant checks cheap).
    for _ in 0..<6_000 {
      try store.moveItem("a", afterItem: "b")
      try store.moveItem("b", afterItem: "a")
    }
    // The commit of v11,000 is left out: the next one (v11,001) then does not extend the head.
    let skipped = sink.records.firstIndex { $0.version == 11_000 }!
    let directory = TemporaryDirectory()
    let path = directory.file("gap.journal")
    var options = JournalOptions()
    options.durability = .relaxed
    options.frameTargetBytes = 4_096  // many frames, so the frame named is checked too
    let writer = try JournalWriter.open(at: path, options: options, createIfMissing: true)
    var failing: (sequence: UInt64, version: UInt64)?
    for (index, record) in sink.records.enumerated() where index != skipped {
      let receipt = try writer.append(
        JournalRecord(kind: .init(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
      if index == skipped + 1 { failing = (receipt.sequence, record.version) }
    }
    try writer.close()
    let expected = try #require(failing)
    let reader = try JournalReader.open(at: path)
    let frame = try #require(reader.frames.last { $0.firstSequence <= expected.sequence })
    #expect(reader.frames.count > 10)

    do {
      _ = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec())
      Issue.record("a journal with a missing commit opened")
    } catch {
      guard case .invalidRecord(let offset, let sequence, let version, let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(sequence == expected.sequence)
      #expect(version == expected.version)
      #expect(offset == frame.offset)
      #expect(reason.contains("commit creates v11001, expected v11000"), "\(reason)")
    }
    // `verify` reports the same record.
    let report = JournalMaintenance.verify(at: path, codec: HistoryCodec<TestSection, TestItem>())
    guard case .invalidRecord(let offset, let sequence, let version, _)? = report.problem else {
      Issue.record("verify found \(String(describing: report.problem))")
      return
    }
    #expect(sequence == expected.sequence)
    #expect(version == expected.version)
    #expect(offset == frame.offset)
  }
}
