import Dispatch
import ListLocking

/// A bounded, single-producer single-consumer queue of batches between two threads: the
/// producer blocks while `capacity` batches are pending, the consumer while none is.
///
/// Used by a long replay to decode records on the caller's thread while another thread folds
/// the ones already decoded. Both sides block on semaphores (no spinning). Either side can end
/// the exchange: the producer with ``finish()`` (the consumer then drains what is pending), the
/// consumer with ``stop()`` (after a failure: pending batches are dropped, and a producer
/// waiting for room is released and told so by ``put(_:)``).
///
/// ```swift
/// let handOff = _BatchHandOff<[Int]>(capacity: 4)
/// DispatchQueue.global().async { while let batch = handOff.take() { consume(batch) } }
/// _ = handOff.put([1, 2, 3])
/// handOff.finish()
/// ```
/// - Complexity: O(1) per call (plus O(capacity) to dequeue from the small pending list).
@usableFromInline
final class _BatchHandOff<Batch: Sendable>: Sendable {
  @usableFromInline
  struct Pending: Sendable {
    @usableFromInline var batches: [Batch] = []
    /// Emptied batches the consumer gave back (see ``recycle(_:)``).
    @usableFromInline var spares: [Batch] = []
    @usableFromInline var isFinished = false
    @usableFromInline var isStopped = false

    @inlinable
    init(batches: [Batch] = [], spares: [Batch] = [], isFinished: Bool = false, isStopped: Bool = false) {
      self.batches = batches
      self.spares = spares
      self.isFinished = isFinished
      self.isStopped = isStopped
    }
  }

  @usableFromInline let pending = ListMutex(Pending())
  /// Signalled once per batch put and once by `finish()`.
  @usableFromInline let available = DispatchSemaphore(value: 0)
  /// Free places for pending batches.
  @usableFromInline let room: DispatchSemaphore

  /// How many batches may wait.
  @usableFromInline let capacity: Int

  @inlinable
  init(capacity: Int) {
    self.capacity = max(1, capacity)
    room = DispatchSemaphore(value: self.capacity)
  }

  /// Hands `batch` to the consumer, waiting for room; false (and the batch dropped) once the
  /// consumer has stopped.
  @inlinable
  func put(_ batch: consuming Batch) -> Bool {
    room.wait()
    // Moved into the queue, not copied: the consumer then owns the only reference (and can
    // take the elements out without copying the array).
    var moving: Batch? = consume batch
    let accepted = pending.withLock { pending in
      guard !pending.isStopped else { return false }
      pending.batches.append(moving.take()!)
      return true
    }
    if accepted { available.signal() } else { room.signal() }
    return accepted
  }

  /// Tells the consumer that no batch follows (it still gets the pending ones).
  @inlinable
  func finish() {
    pending.withLock { $0.isFinished = true }
    available.signal()
  }

  /// The next batch, waiting for one; nil once the producer has finished and every batch was
  /// taken (or after ``stop()``).
  @inlinable
  func take() -> Batch? {
    while true {
      available.wait()
      let (batch, isOver) = pending.withLock { pending -> (Batch?, Bool) in
        if pending.isStopped { return (nil, true) }
        if !pending.batches.isEmpty { return (pending.batches.removeFirst(), false) }
        return (nil, pending.isFinished)
      }
      if let batch {
        room.signal()
        return batch
      }
      if isOver { return nil }
    }
  }

  /// Gives a batch the consumer emptied (keeping its storage) back to the producer (see
  /// ``spareBatch()``), so that a long exchange reuses a few buffers instead of allocating
  /// them for every batch on one thread and freeing them on the other.
  ///
  /// Why it matters: a batch of replayed records is a block of kilobytes. With glibc, each
  /// such allocation consolidates the small blocks freed since the last one (the decoding
  /// thread frees many), work the decoding thread would repeat for every batch.
  @inlinable
  func recycle(_ batch: consuming Batch) {
    var moving: Batch? = consume batch
    pending.withLock { pending in
      if pending.spares.count < 2 * capacity { pending.spares.append(moving.take()!) }
    }
  }

  /// An empty batch whose storage the consumer recycled, if one is left.
  @inlinable
  func spareBatch() -> Batch? {
    pending.withLock { $0.spares.popLast() }
  }

  /// Ends the exchange from the consumer's side: pending batches are dropped and the producer's
  /// next ``put(_:)`` returns false at once.
  @inlinable
  func stop() {
    let dropped = pending.withLock { pending -> Int in
      pending.isStopped = true
      defer { pending.batches.removeAll() }
      return pending.batches.count
    }
    for _ in 0..<dropped { room.signal() }
  }
}
