import Dispatch
import ListLocking

/// The store's persistence hook on a journal writer: each history record becomes one journal
/// record (checkpoints start a zstd frame), and commit records are registered with the
/// durability tracker.
///
/// With `defersWrites`, records are held in memory and handed to the writer together — one
/// chunk, one zstd flush, one `pwrite`. Once `deferredByteLimit` bytes are held, the batch goes
/// to a background queue (`_BackgroundAppender`), which compresses and writes it while the
/// store goes on committing; ``flush()`` hands over what is held and waits until everything is
/// written. Batches are handed over under the lock, so a flush from another thread and a store
/// commit never reorder records; the lock is not held while waiting for the writes.
@usableFromInline
final class _JournalWriterSink: HistoryRecordSink {
  @usableFromInline let writer: JournalWriter
  @usableFromInline let tracker: _DurabilityTracker
  @usableFromInline let defersWrites: Bool
  /// Payload bytes held back before `write` hands them to the background writer (the default
  /// grouped chunk size).
  @inlinable
  static var deferredByteLimit: Int { 64 * 1024 }
  /// Batches of `deferredByteLimit` that may wait for the background writer before `write`
  /// blocks: enough to ride out a slow write or a descheduled writer thread, and a bounded
  /// amount of memory (about 256 KiB of payload, more when a record is larger than a batch).
  @inlinable
  static var deferredBatchesInFlight: Int { 4 }

  @usableFromInline
  struct Deferred {
    @usableFromInline var records: [JournalRecord] = []
    @usableFromInline var bytes = 0
    /// Set by `close()`: later changes must fail as they would writing through (holding them
    /// would lose them silently).
    @usableFromInline var isClosed = false

    @inlinable
    init(records: [JournalRecord] = [], bytes: Int = 0, isClosed: Bool = false) {
      self.records = records
      self.bytes = bytes
      self.isClosed = isClosed
    }
  }
  @usableFromInline let deferred = ListMutex(Deferred())
  /// The deferred writes' background writer (nil without `defersWrites`). It keeps the first
  /// failed write: from then on every `write`, `flush` and `close` throws it.
  @usableFromInline let background: _BackgroundAppender?

  /// Commit and head-move records handed to the writer (for the read index's counts).
  @usableFromInline let commitRecords = ListMutex<Int>(0)
  @usableFromInline let headMoveRecords = ListMutex<Int>(0)

  /// Counts a record the writer took (or that is held for it).
  @inlinable
  func count(_ kind: HistoryRecord.Kind) {
    switch kind {
    case .commit: commitRecords.withLock { $0 += 1 }
    case .headMove: headMoveRecords.withLock { $0 += 1 }
    case .checkpoint, .gap: break
    }
  }

  /// The writer's record limit: the store skips a checkpoint larger than this.
  @inlinable
  var maximumPayloadBytes: Int? { writer.maximumRecordPayload }

  @inlinable
  init(writer: JournalWriter, tracker: _DurabilityTracker, defersWrites: Bool = false) {
    self.writer = writer
    self.tracker = tracker
    self.defersWrites = defersWrites
    background =
      defersWrites ? _BackgroundAppender(writer: writer, tracker: tracker, capacity: Self.deferredBatchesInFlight) : nil
  }

  @inlinable
  func write(_ record: HistoryRecord) throws {
    let journalRecord = JournalRecord(
      kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload)
    guard let background else {
      let receipt = try writer.append(journalRecord)
      if record.kind == .commit { tracker.register(sequence: receipt.sequence, version: Int(record.version)) }
      count(record.kind)
      return
    }
    // Refused here, not by the background writer: there the failure would be sticky and fail
    // every later change, while the store only has to skip this record (a checkpoint of a list
    // too large for the limit; see `_StoreState.checkpointIfDue()`).
    try writer.checkPayloadFits(record.payload.count)
    try deferred.withLock { (held) throws(JournalError) in
      if let failure = background.failure {
        // What is held can never be written after the failed batch (it would leave a gap).
        held.records = []
        held.bytes = 0
        throw failure
      }
      if held.isClosed { throw .writerClosed(cause: "closed") }
      held.records.append(journalRecord)
      held.bytes += record.payload.count
      count(record.kind)
      if held.bytes >= Self.deferredByteLimit { background.enqueue(takeHeld(&held)) }
    }
  }

  /// Writes the held-back records and waits until every record handed to the background writer
  /// is in the file; throws the first failed write (this one's or an earlier background one).
  @inlinable
  func flush() throws(JournalError) {
    try flush(closing: false)
  }

  /// Flushes, then refuses later changes (the journal is being closed). When it returns, no
  /// batch is pending or being written.
  @inlinable
  func close() throws(JournalError) {
    try flush(closing: true)
  }

  @inlinable
  func flush(closing: Bool) throws(JournalError) {
    guard let background else { return }
    let written = try deferred.withLock { (held) throws(JournalError) -> DispatchSemaphore? in
      if closing { held.isClosed = true }
      if background.isIdle {
        // Nothing in flight, and no batch can be handed over meanwhile (that takes this lock):
        // write on this thread, sparing the wait for the queue's thread to wake. After a
        // failure this throws it, and the held records are dropped.
        if !held.records.isEmpty { try background.append(takeHeld(&held)) }
        return nil
      }
      // The queue drops it after a failure.
      if !held.records.isEmpty { background.enqueue(takeHeld(&held)) }
      // Signalled after every batch handed over so far, this one included.
      return background.markAfterEnqueuedBatches()
    }
    written?.wait()
    if let failure = background.failure { throw failure }
  }

  /// The held records, leaving none held.
  @inlinable
  func takeHeld(_ held: inout Deferred) -> [JournalRecord] {
    let records = held.records
    held.records = []
    held.records.reserveCapacity(records.count)
    held.bytes = 0
    return records
  }
}
