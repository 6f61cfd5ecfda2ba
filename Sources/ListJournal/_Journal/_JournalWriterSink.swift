import Synchronization

/// The store's persistence hook on a journal writer: each history record becomes one journal
/// record (checkpoints start a zstd frame), and commit records are registered with the
/// durability tracker.
///
/// With `defersWrites`, records are held in memory and handed to the writer together — one
/// chunk, one zstd flush, one `pwrite` — at ``flush()`` or once `deferredByteLimit` bytes are
/// held. The lock is held across the writer call, so a flush from another thread and a store
/// commit never reorder records.
final class _JournalWriterSink: HistoryRecordSink {
  let writer: JournalWriter
  let tracker: _DurabilityTracker
  let defersWrites: Bool
  /// Payload bytes held back before `write` flushes by itself (the default grouped chunk size).
  static var deferredByteLimit: Int { 64 * 1024 }

  private struct Deferred {
    var records: [JournalRecord] = []
    var bytes = 0
    /// Set once the writer is closed or a deferred write failed: later changes must fail as
    /// they would writing through (holding them would lose them silently).
    var stopped: JournalError?
  }
  private let deferred = Mutex(Deferred())

  init(writer: JournalWriter, tracker: _DurabilityTracker, defersWrites: Bool = false) {
    self.writer = writer
    self.tracker = tracker
    self.defersWrites = defersWrites
  }

  func write(_ record: HistoryRecord) throws {
    let journalRecord = JournalRecord(
      kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload)
    guard defersWrites else {
      let receipt = try writer.append(journalRecord)
      if record.kind == .commit { tracker.register(sequence: receipt.sequence, version: Int(record.version)) }
      return
    }
    try deferred.withLock { (held) throws(JournalError) in
      if let stopped = held.stopped { throw stopped }
      held.records.append(journalRecord)
      held.bytes += record.payload.count
      if held.bytes >= Self.deferredByteLimit { try flush(&held) }
    }
  }

  /// Writes the held-back records (nothing when there are none).
  func flush() throws(JournalError) {
    try deferred.withLock { (held) throws(JournalError) in try flush(&held) }
  }

  /// Flushes, then refuses later changes (the journal is being closed).
  func close() throws(JournalError) {
    try deferred.withLock { (held) throws(JournalError) in
      defer { if held.stopped == nil { held.stopped = .writerClosed(cause: "closed") } }
      try flush(&held)
    }
  }

  private func flush(_ held: inout Deferred) throws(JournalError) {
    guard !held.records.isEmpty else { return }
    let records = held.records
    // Dropped whether or not the write succeeds: a failed write closes the writer for good.
    held.records.removeAll(keepingCapacity: true)
    held.bytes = 0
    let last: AppendReceipt?
    do {
      last = try writer.append(contentsOf: records)
    } catch {
      held.stopped = .writerClosed(cause: "stopped after failure: \(error)")
      throw error
    }
    guard let last else { return }
    let first = last.sequence + 1 - UInt64(records.count)
    for (offset, record) in records.enumerated() where record.kind == .commit {
      tracker.register(sequence: first + UInt64(offset), version: Int(record.version))
    }
  }
}
