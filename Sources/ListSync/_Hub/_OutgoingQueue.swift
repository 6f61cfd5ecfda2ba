import ListLocking

/// One session's outgoing frames, in order, drained by one task that awaits the socket: a slow
/// client holds up only its own queue, and a queue over its bound drops the session.
final class _OutgoingQueue: Sendable {
  enum Item: Sendable {
    case frame([UInt8])
    /// Resumed once every frame queued before it has been handed to the socket.
    case flush(CheckedContinuation<Void, Never>)
  }

  struct State {
    var items: [Item] = []
    var head = 0
    var frames = 0
    /// Bytes of the frames queued and of those taken and not yet written to the socket.
    var bytes = 0
    /// The most `bytes` ever reached (tests check the bound with it).
    var peakBytes = 0
    var finished = false
    /// Ends once the queued items are taken (a channel closed after its last frames).
    var ending = false
    var waiter: CheckedContinuation<Item?, Never>?
    /// Catch-up waiting for room: resumed once `bytes` fall to `byteLimit - needed` or the queue
    /// empties (true), or when it finishes (false).
    var roomWaiter: (needed: Int, continuation: CheckedContinuation<Bool, Never>)?
  }

  let limit: Int
  let byteLimit: Int
  let state = ListMutex(State())

  init(limit: Int, byteLimit: Int = .max) {
    self.limit = limit
    self.byteLimit = byteLimit
  }

  /// Queues a frame; false when the queue is over its bound or finished (the frame is dropped).
  func enqueue(_ frame: [UInt8]) -> Bool {
    let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Item?, Never>?) in
      // One frame over the byte bound is let through an empty queue: every frame must be sendable.
      guard !state.finished, state.frames < limit, state.bytes == 0 || state.bytes + frame.count <= byteLimit else {
        return (false, nil)
      }
      state.bytes += frame.count
      state.peakBytes = max(state.peakBytes, state.bytes)
      if let waiter = state.waiter {
        state.waiter = nil
        return (true, waiter)
      }
      state.items.append(.frame(frame))
      state.frames += 1
      return (true, nil)
    }
    waiter?.resume(returning: .frame(frame))
    return accepted
  }

  /// How many frames wait.
  var queuedFrames: Int { state.withLock { $0.frames } }

  /// How many bytes wait or are being written.
  var queuedBytes: Int { state.withLock { $0.bytes } }

  /// Whether the queue was finished (its session dropped or closed).
  var isFinished: Bool { state.withLock { $0.finished } }

  /// The most bytes that were ever waiting or being written at once.
  var peakQueuedBytes: Int { state.withLock { $0.peakBytes } }

  /// A frame taken from the queue has been written to the socket.
  func written(_ count: Int) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      state.bytes = max(0, state.bytes - count)
      guard let (needed, continuation) = state.roomWaiter, Self.hasRoom(state, needed, byteLimit) else { return nil }
      state.roomWaiter = nil
      return continuation
    }
    waiter?.resume(returning: true)
  }

  private static func hasRoom(_ state: State, _ needed: Int, _ byteLimit: Int) -> Bool {
    state.bytes == 0 || state.bytes <= byteLimit - min(needed, byteLimit)
  }

  /// Waits until `needed` more bytes fit under the byte bound, or the queue is empty (a frame
  /// over the bound goes through an empty queue); false once the queue is finished. One waiter
  /// at a time: the session's catch-up, which reads its next page only when this returns.
  func waitForRoom(_ needed: Int) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = state.withLock { state -> Bool? in
        if state.finished { return false }
        if Self.hasRoom(state, needed, byteLimit) { return true }
        state.roomWaiter = (needed, continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// How many more bytes fit under the byte bound now.
  var room: Int { state.withLock { max(0, byteLimit - $0.bytes) } }

  /// Waits until every frame queued so far has been handed to the socket (or the queue ended).
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>?? in
        guard !state.finished else { return .some(nil) }
        if state.head == state.items.count, let waiter = state.waiter {
          state.waiter = nil
          return .some(waiter)
        }
        state.items.append(.flush(continuation))
        return .none
      }
      switch waiter {
      case .some(nil): continuation.resume()
      case .some(let waiter?): waiter.resume(returning: .flush(continuation))
      case .none: break
      }
    }
  }

  /// ``flush()``, giving up after `limit`: a socket that takes nothing must not hold up a
  /// close or a shutdown.
  func flush(within limit: Duration) async {
    let done = _Ticket<Void>()
    Task {
      await self.flush()
      done.fulfil(())
    }
    let timer = Task {
      try? await Task.sleep(for: limit)
      done.fulfil(())
    }
    await done.wait()
    timer.cancel()
  }

  private static func take(_ state: inout State) -> Item {
    let item = state.items[state.head]
    state.head += 1
    if case .frame = item { state.frames -= 1 }
    if state.head > 64, state.head * 2 > state.items.count {
      state.items.removeFirst(state.head)
      state.head = 0
    }
    return item
  }

  /// The next item, waiting for one; nil once finished.
  func next() async -> Item? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
      let ready = state.withLock { state -> Item?? in
        if state.head < state.items.count { return .some(Self.take(&state)) }
        if state.finished || state.ending { return .some(nil) }
        state.waiter = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Every item queued, waiting for at least one; nil once finished. One lock and at most one
  /// suspension per batch, not per frame: the drain of a busy session.
  func nextBatch() async -> [Item]? {
    let available = state.withLock { state -> [Item]? in
      guard state.head < state.items.count else { return nil }
      var batch = state.items
      if state.head > 0 { batch.removeFirst(state.head) }
      state.items = []
      state.head = 0
      state.frames = 0
      return batch
    }
    if let available { return available }
    guard let first = await next() else { return nil }
    return [first]
  }

  /// Ends the queue once what is queued has been taken.
  func end() {
    let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
      state.ending = true
      guard state.head == state.items.count else { return nil }
      let waiter = state.waiter
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Ends the queue: frames not sent are dropped, flushes resume, the drain task ends.
  func finish() {
    let (waiter, pending, room) = state.withLock {
      state -> (CheckedContinuation<Item?, Never>?, [Item], CheckedContinuation<Bool, Never>?) in
      state.finished = true
      let room = state.roomWaiter?.continuation
      state.roomWaiter = nil
      let pending = Array(state.items[state.head...])
      state.items = []
      state.head = 0
      state.frames = 0
      state.bytes = 0
      let waiter = state.waiter
      state.waiter = nil
      return (waiter, pending, room)
    }
    waiter?.resume(returning: nil)
    room?.resume(returning: false)
    for case .flush(let continuation) in pending { continuation.resume() }
  }
}
