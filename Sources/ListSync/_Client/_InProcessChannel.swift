import ListLocking

/// The client end of an in-process connection: frames go straight to the hub's session.
final class _InProcessChannel: SyncChannel {
  let session: SyncSession
  let inbox: _OutgoingQueue
  let closed = ListMutex(false)
  /// Frames reach the session one at a time, in the order sent, as over a socket.
  let tail = ListMutex<_Ticket<Void>?>(nil)

  init(session: SyncSession, inbox: _OutgoingQueue) {
    self.session = session
    self.inbox = inbox
  }

  func send(_ frame: [UInt8]) async throws {
    let mine = _Ticket<Void>()
    let previous = tail.withLock { tail in
      defer { tail = mine }
      return tail
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
    guard case .frame(let frame) = await inbox.next() else { return nil }
    return frame
  }

  func close() async {
    closed.withLock { $0 = true }
    await session.close()
    inbox.finish()
  }
}
