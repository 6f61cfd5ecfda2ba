import Foundation
import ListHistory
import ListLocking
import ListState

/// Collects a store's changes from whatever thread makes them, in the store's delivery order,
/// and hands them to a main-actor consumer: at once when the change is made on the main thread
/// of an Apple platform (so a UI action sees its own result before it returns), otherwise through
/// a main-actor task.
///
/// The store delivers changes one at a time and in order, so the queue's order is the history's.
/// The consumer decides whether it can take them now (it may be busy applying an earlier one);
/// whatever it leaves waits for its next ``take()``.
final class _ChangeMailbox<Section: ListElement, Item: ListElement>: Sendable {
  typealias Change = ListChange<Section, Item>

  private struct State {
    var changes: [Change] = []
    var taskScheduled = false
    var consumer: (@MainActor @Sendable () -> Void)?
  }

  private let state = ListMutex(State())

  init() {}

  /// Sets the consumer: it is called on the main actor whenever changes arrive.
  func setConsumer(_ consumer: @escaping @MainActor @Sendable () -> Void) {
    state.withLock { $0.consumer = consumer }
  }

  /// Queues a change (any thread) and wakes the consumer.
  func post(_ change: Change) {
    #if canImport(Darwin)
    let onMain = Thread.isMainThread
    #else
    // Elsewhere the main actor need not run on the main thread (Swift Testing on Linux): hop.
    let onMain = false
    #endif
    let consumer = state.withLock { state -> (@MainActor @Sendable () -> Void)? in
      state.changes.append(change)
      if onMain { return state.consumer }
      guard !state.taskScheduled else { return nil }
      state.taskScheduled = true
      return state.consumer
    }
    guard let consumer else { return }
    if onMain {
      MainActor.assumeIsolated { consumer() }
    } else {
      Task { @MainActor in consumer() }
    }
  }

  /// Takes every waiting change, oldest first.
  func take() -> [Change] {
    state.withLock { state in
      let changes = state.changes
      state.changes = []
      state.taskScheduled = false
      return changes
    }
  }

  /// Whether changes wait.
  var isEmpty: Bool { state.withLock { $0.changes.isEmpty } }
}
