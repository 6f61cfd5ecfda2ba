import ListLocking

/// A one-shot result a push waits for while its group commit runs.
final class _Ticket<Value: Sendable>: Sendable {
  struct State {
    var value: Value?
    var waiter: CheckedContinuation<Value, Never>?
  }

  let state = ListMutex(State())

  init() {}

  func fulfil(_ value: Value) {
    let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
      state.value = value
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: value)
  }

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
