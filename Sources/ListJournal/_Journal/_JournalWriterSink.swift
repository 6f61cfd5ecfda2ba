/// The store's persistence hook on a journal writer: each history record becomes one journal
/// record (checkpoints through `appendCheckpoint`, so they start a zstd frame), and commit
/// records are registered with the durability tracker.
final class _JournalWriterSink: HistoryRecordSink {
  let writer: JournalWriter
  let tracker: _DurabilityTracker

  init(writer: JournalWriter, tracker: _DurabilityTracker) {
    self.writer = writer
    self.tracker = tracker
  }

  func write(_ record: HistoryRecord) throws {
    let receipt: AppendReceipt
    switch record.kind {
    case .checkpoint:
      receipt = try writer.appendCheckpoint(version: record.version, payload: record.payload)
    case .commit, .headMove:
      receipt = try writer.append(
        JournalRecord(kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    }
    if record.kind == .commit { tracker.register(sequence: receipt.sequence, version: Int(record.version)) }
  }
}
