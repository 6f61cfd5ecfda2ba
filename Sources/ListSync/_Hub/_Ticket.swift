import ListLocking

/// A one-shot result a push waits for while its group commit runs. Fulfilling it again is
/// harmless (the first value wins for a waiter).
final class _Ticket<Value: Sendable>: Sendable {
  struct State {
    var value: Value?
    var waiter: CheckedContinuation<Value, Never>?
  }

  let state = ListMutex(State())

  init() {}

  func fulfil(_ value: Value) {
    let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
      guard state.value == nil else { return nil }
      state.value = value
      let waiter = state.waiter
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: value)
  }

  var isFulfilled: Bool { state.withLock { $0.value != nil } }

  func wait() async -> Value {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
      let ready = state.withLock { state -> Value? in
        if let value = state.value { return value }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
