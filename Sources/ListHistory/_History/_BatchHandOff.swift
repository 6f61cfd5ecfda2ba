import Dispatch
import Synchronization

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
/// let handOff = _BatchHandOff<Int>(capacity: 4)
/// DispatchQueue.global().async { while let batch = handOff.take() { consume(batch) } }
/// _ = handOff.put([1, 2, 3])
/// handOff.finish()
/// ```
/// - Complexity: O(1) per call (plus O(capacity) to dequeue from the small pending list).
final class _BatchHandOff<Element: Sendable>: Sendable {
  private struct Pending: Sendable {
    var batches: [[Element]] = []
    var isFinished = false
    var isStopped = false
  }

  private let pending = Mutex(Pending())
  /// Signalled once per batch put and once by `finish()`.
  private let available = DispatchSemaphore(value: 0)
  /// Free places for pending batches.
  private let room: DispatchSemaphore

  init(capacity: Int) {
    room = DispatchSemaphore(value: max(1, capacity))
  }

  /// Hands `batch` to the consumer, waiting for room; false (and the batch dropped) once the
  /// consumer has stopped.
  func put(_ batch: consuming [Element]) -> Bool {
    room.wait()
    // Moved into the queue, not copied: the consumer then owns the only reference (and can
    // take the elements out without copying the array).
    var moving: [Element]? = consume batch
    let accepted = pending.withLock { pending in
      guard !pending.isStopped else { return false }
      pending.batches.append(moving.take()!)
      return true
    }
    if accepted { available.signal() } else { room.signal() }
    return accepted
  }

  /// Tells the consumer that no batch follows (it still gets the pending ones).
  func finish() {
    pending.withLock { $0.isFinished = true }
    available.signal()
  }

  /// The next batch, waiting for one; nil once the producer has finished and every batch was
  /// taken (or after ``stop()``).
  func take() -> [Element]? {
    while true {
      available.wait()
      let (batch, isOver) = pending.withLock { pending -> ([Element]?, Bool) in
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

  /// Ends the exchange from the consumer's side: pending batches are dropped and the producer's
  /// next ``put(_:)`` returns false at once.
  func stop() {
    let dropped = pending.withLock { pending -> Int in
      pending.isStopped = true
      defer { pending.batches.removeAll() }
      return pending.batches.count
    }
    for _ in 0..<dropped { room.signal() }
  }
}
