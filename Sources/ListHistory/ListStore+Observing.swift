import ListLocking
import ListState

/// Cancels an observation registered with ``ListStore/observe(_:)``; cancelling also happens
/// when the token is released.
public final class ListStoreObservation: Sendable {
  @usableFromInline let cancellation: @Sendable () -> Void

  @inlinable
  init(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation = cancellation }

  /// Stops the callbacks. Idempotent.
  @inlinable
  public func cancel() { cancellation() }

  deinit { cancellation() }
}

extension ListStore {
  /// Calls `callback` with every later commit, undo, redo and checkout, in order, synchronously
  /// on the thread that made the change (after the store's lock is released, so the callback
  /// may read the store or even change it; such nested changes are delivered after the current
  /// one). Keep the returned token: releasing it cancels the observation.
  ///
  /// ```swift
  /// let token = store.observe { change in
  ///     dataSource.apply(change.transaction.finalSnapshot)
  /// }
  /// ```
  /// - Complexity: O(1) per change and observer (differences are computed only if read).
  @inlinable
  public func observe(_ callback: @escaping @Sendable (Change) -> Void) -> ListStoreObservation {
    let id = state.withLock { state -> UInt64 in
      state.nextObserverID += 1
      state.observers[state.nextObserverID] = callback
      return state.nextObserverID
    }
    return ListStoreObservation { [weak self] in
      _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
    }
  }

  /// Every later change as an `AsyncSequence` (unbounded buffer; iteration ends when the
  /// iterating task is cancelled).
  ///
  /// ```swift
  /// for await change in store.changes { print(change.kind, change.head) }
  /// ```
  @inlinable
  public var changes: AsyncStream<Change> {
    let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
    let token = observe { continuation.yield($0) }
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }

  /// Delivers queued changes in order; only one thread delivers at a time.
  @inlinable
  func deliverPendingChanges() {
    while true {
      let next = state.withLock { state -> (Change, [@Sendable (Change) -> Void])? in
        guard !state.pending.isEmpty else {
          state.isDelivering = false
          return nil
        }
        let change = state.pending.removeFirst()
        let callbacks = state.observers.sorted { $0.key < $1.key }.map(\.value)
        return (change, callbacks)
      }
      guard let (change, callbacks) = next else { return }
      for callback in callbacks { callback(change) }
    }
  }
}

extension _StoreState {
  /// Queues a change for observers; true when the caller must deliver (nobody else is).
  @inlinable
  mutating func enqueue(_ change: ListChange<Section, Item>) -> Bool {
    guard !observers.isEmpty else { return false }
    pending.append(change)
    guard !isDelivering else { return false }
    isDelivering = true
    return true
  }
}
