import ListLocking

/// The client end of an in-process connection: frames go straight to the hub's session.
final class _InProcessChannel: SyncChannel {
  let session: SyncSession
  let inbox: _OutgoingQueue
  let closed = ListMutex(false)
  /// Frames taken from the inbox in a batch and not returned yet (one reader at a time).
  let buffered = ListMutex<[[UInt8]]>([])
  /// Frames reach the session one at a time, in the order sent, as over a socket.
  let tail = ListMutex<_Ticket<Void>?>(nil)

  init(session: SyncSession, inbox: _OutgoingQueue) {
    self.session = session
    self.inbox = inbox
  }

  func send(_ frame: [UInt8]) async throws {
    let mine = _Ticket<Void>()
    let previous = tail.withLock { tail in
      let previous = tail
      tail = mine
      return previous
    }
    defer { mine.fulfil(()) }
    await previous?.wait()
    guard !closed.withLock({ $0 }) else { throw SyncTransportError.closed }
    if case .close = await session.receive(frame) {
      closed.withLock { $0 = true }
      inbox.end()
    }
  }

  func receive() async throws -> [UInt8]? {
    if let frame = buffered.withLock({ $0.popLast() }) { return frame }
    guard let items = await inbox.nextBatch() else { return nil }
    var frames: [[UInt8]] = []
    for case .frame(let frame) in items { frames.append(frame) }
    guard !frames.isEmpty else { return try await receive() }
    let first = frames.removeFirst()
    // Kept reversed, so the next frame is the last element.
    buffered.withLock { $0 = frames.reversed() }
    return first
  }

  func close() async {
    closed.withLock { $0 = true }
    await session.close()
    inbox.finish()
  }
}
