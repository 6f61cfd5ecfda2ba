import Dispatch
import JournalFormat
import ListLocking

/// Appends batches of journal records on a background serial queue, in the order they are
/// handed over, and registers their commit records with the durability tracker: the deferred
/// write path of `_JournalWriterSink`, which keeps zstd compression and the `pwrite` off the
/// committing thread.
///
/// At most ``capacity`` batches are pending or being written: ``enqueue(_:)`` waits for room
/// beyond that, so a producer faster than the writer is slowed down to it instead of queueing
/// without bound. The first failure is kept for good: batches after it are dropped unwritten
/// (appending them would leave a gap in the file), and ``failure`` reports it from then on.
///
/// Callers order their calls themselves (the sink makes them under its lock): the queue runs
/// batches and markers in the order they were enqueued.
///
/// Why a serial `DispatchQueue` with a semaphore, not a long-lived consumer thread: a store is
/// idle most of its life, and a serial queue holds no thread then — a consumer blocked on an
/// empty queue would pin one of libdispatch's pool threads (or need a raw pthread) per open
/// journal, and must be woken and joined at close or deinit. Here nothing outlives the last
/// batch: each work item retains the appender until it has run, and once the queue is empty
/// there is nothing to stop. The dispatch costs microseconds per batch, against the
/// compression of 64 KiB.
///
/// ```swift
/// let appender = _BackgroundAppender(writer: writer, tracker: tracker)
/// appender.enqueue(records)                      // returns at once while fewer than 4 are pending
/// appender.markAfterEnqueuedBatches().wait()     // every batch above was written (or dropped)
/// if let error = appender.failure { throw error }
/// ```
/// - Complexity: O(1) per call, plus the waits described; the batches' appends run on the queue.
@usableFromInline
final class _BackgroundAppender: Sendable {
  @usableFromInline let writer: JournalWriter
  @usableFromInline let tracker: _DurabilityTracker
  /// Batches that may be pending or being written at once.
  @usableFromInline let capacity: Int

  @usableFromInline
  struct Status {
    /// The first failed append (set once).
    @usableFromInline var failure: JournalError?
    /// Batches enqueued and not yet finished (written, failed or dropped).
    @usableFromInline var pendingBatches = 0

    @inlinable
    init(failure: JournalError? = nil, pendingBatches: Int = 0) {
      self.failure = failure
      self.pendingBatches = pendingBatches
    }
  }

  @usableFromInline let status = ListMutex(Status())
  @usableFromInline let queue = DispatchQueue(label: "ListJournal.JournalStore.backgroundAppender")
  /// Free places among the `capacity` batches; taken by `enqueue`, given back by the batch.
  @usableFromInline let room: DispatchSemaphore

  @inlinable
  init(writer: JournalWriter, tracker: _DurabilityTracker, capacity: Int = 4) {
    self.writer = writer
    self.tracker = tracker
    self.capacity = max(1, capacity)
    room = DispatchSemaphore(value: self.capacity)
  }

  /// The first failed append, if any: every batch after it was or will be dropped.
  @inlinable
  var failure: JournalError? { status.withLock { $0.failure } }

  /// Whether no batch is pending or being written (every enqueued one has finished).
  @inlinable
  var isIdle: Bool { status.withLock { $0.pendingBatches == 0 } }

  /// Queues `batch` to be appended after every batch enqueued before, waiting while
  /// ``capacity`` batches are pending.
  @inlinable
  func enqueue(_ batch: [JournalRecord]) {
    room.wait()
    status.withLock { $0.pendingBatches += 1 }
    queue.async { [self] in
      defer {
        status.withLock { $0.pendingBatches -= 1 }
        room.signal()
      }
      // A failure is kept in `status` (and the batch dropped after an earlier one).
      try? append(batch)
    }
  }

  /// A semaphore signalled once every batch enqueued before this call has finished (written,
  /// or dropped after a failure). Wait for it without holding a lock the queue's batches need.
  @inlinable
  func markAfterEnqueuedBatches() -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    queue.async { finished.signal() }
    return finished
  }

  /// Appends `batch` as one chunk on the calling thread and registers its commits; a failure is
  /// kept as ``failure`` and thrown. After an earlier failure it throws that one and drops the
  /// batch: the file ends before the failed batch, and nothing may follow it (a gap). Call it
  /// only when no batch is pending (``isIdle``, with enqueuing held off) or from the queue
  /// itself, so records stay in order.
  @inlinable
  func append(_ batch: [JournalRecord]) throws(JournalError) {
    if let failure { throw failure }
    let last: AppendReceipt?
    do {
      last = try writer.append(contentsOf: batch)
    } catch {
      // The writer closed itself (an I/O error) or refused the whole batch (validation): either
      // way nothing of it is in the file, and nothing may follow.
      status.withLock { if $0.failure == nil { $0.failure = error } }
      throw error
    }
    guard let last else { return }
    let first = last.sequence + 1 - UInt64(batch.count)
    for (offset, record) in batch.enumerated() where record.kind == .commit {
      tracker.register(sequence: first + UInt64(offset), version: Int(record.version))
    }
  }
}
