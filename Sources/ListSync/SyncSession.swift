import ListHistory
import ListReplica
import ListLocking

/// One client connection to one list on a ``SyncHub``: the server glue hands it every frame the
/// socket receives and sends what it queues, in order, through the `send` given to
/// ``SyncHub/openSession(list:access:owner:peer:send:close:)``.
///
/// ```swift
/// let session = try await hub.openSession(list: "groceries", access: .write) { frame in
///   try? await socket.write(.binary(frame))
/// }
/// for try await frame in socket.binaryFrames {
///   if case .close(let code, let reason) = await session.receive(frame) { try await socket.close(code, reason); break }
/// }
/// await session.close()
/// ```
public final class SyncSession: Sendable {
  /// The list the session is for.
  public let list: String
  /// What the session may do.
  public let access: SyncAccess
  /// Who the session pushes as (a stable name of its token); nil when the hub has no tokens,
  /// and then replica identities are not bound to anyone.
  public let owner: String?
  /// Who is connected, as the glue names it (an address) for logs; nil when not given.
  public let peer: String?
  let id: Int
  let hosted: _HostedList
  let configuration: SyncHubConfiguration
  let observer: (any SyncHubObserver)?
  let queue: _OutgoingQueue
  let onClose: (@Sendable (UInt16, String) async -> Void)?
  /// Tells the hub the session ended, so it stops tracking it.
  let release: @Sendable (Int) -> Void
  let state = ListMutex(State())

  struct State {
    var greeted = false
    var closed = false
    /// Pushes submitted and not answered yet, oldest first.
    var inFlight: [_Ticket<Void>] = []
  }

  init(
    list: String, access: SyncAccess, owner: String?, peer: String?, id: Int, hosted: _HostedList,
    configuration: SyncHubConfiguration,
    observer: (any SyncHubObserver)?, send: @escaping @Sendable ([UInt8]) async -> Void,
    close: (@Sendable (UInt16, String) async -> Void)?, release: @escaping @Sendable (Int) -> Void
  ) {
    self.release = release
    self.list = list
    self.access = access
    self.owner = owner
    self.peer = peer
    self.id = id
    self.hosted = hosted
    self.configuration = configuration
    self.observer = observer
    self.onClose = close
    let queue = _OutgoingQueue(limit: configuration.maxQueuedFrames, byteLimit: configuration.maxQueuedBytes)
    self.queue = queue
    // One task per session drains its queue into the socket, so a slow socket stalls only it.
    Task {
      while let items = await queue.nextBatch() {
        for item in items {
          switch item {
          case .frame(let frame):
            // A dropped session's frames are let go, not written.
            guard !queue.isFinished else { continue }
            await send(frame)
            queue.written(frame.count)
          case .flush(let continuation): continuation.resume()
          }
        }
      }
    }
  }

  /// Whether the session has been closed (by ``close()``, an error, or falling behind).
  public var isClosed: Bool { state.withLock { $0.closed } }

  /// Handles one binary frame from the client, in the order received (call it from one task).
  ///
  /// - Returns: ``SyncSessionVerdict/keepOpen``, or ``SyncSessionVerdict/close(code:reason:)``
  ///   once the `error` frame that explains it has been handed to `send`.
  public func receive(_ frame: [UInt8]) async -> SyncSessionVerdict {
    let arrived = ContinuousClock.now
    guard !isClosed else { return .close(code: 1000, reason: "closed") }
    guard frame.count <= configuration.maxFrameBytes else {
      return await fail(
        request: 0, .tooLarge, "a frame of \(frame.count) bytes exceeds the limit of \(configuration.maxFrameBytes)",
        closing: 1009)
    }
    let message: SyncMessage
    do { message = try SyncMessage(decoding: frame) } catch {
      return await fail(request: 0, .malformed, "\(error)", closing: 1002)
    }
    let greeted = state.withLock { $0.greeted }
    switch message {
    case .hello(let version, let vector, let genesis):
      guard !greeted else { return await fail(request: 0, .malformed, "a second hello", closing: 1002) }
      guard version == SyncMessage.protocolVersion else {
        return await fail(
          request: 0, .unsupportedVersion,
          "protocol version \(version) is not supported (this server speaks \(SyncMessage.protocolVersion))", closing: 1002)
      }
      state.withLock { $0.greeted = true }
      switch await hosted.hello(session: self, vector: vector, genesis: genesis) {
      case .welcomed: return .keepOpen
      case .refused(let code, let reason): return await fail(request: 0, code, reason, closing: 1008)
      }
    case .push(let request, let batch):
      guard greeted else { return await fail(request: request, .malformed, "a push before hello", closing: 1002) }
      return await push(request: request, batch: batch, arrived: arrived)
    case .welcome, .ack, .commits, .error:
      return await fail(request: 0, .malformed, "a client may not send a \(message.typeName) message", closing: 1002)
    }
  }

  /// What a text frame gets: `error` 1 and close (the protocol is binary).
  public func receiveText() async -> SyncSessionVerdict {
    await fail(request: 0, .malformed, "text frames are not part of the protocol; send binary frames", closing: 1003)
  }

  private func push(request: UInt64, batch: ReplicaBatch, arrived: ContinuousClock.Instant) async -> SyncSessionVerdict {
    guard access == .write else {
      observer?.refused(list: list, peer: peer, code: .readOnly, reason: "push on a read-only session")
      await answerInOrder(.error(request: request, code: .readOnly, message: "the token grants read access to '\(list)' only"))
      return .keepOpen
    }
    var limits = configuration.batchLimits
    limits.maxCommits = configuration.maxCommitsPerPush
    let decoded: (listID: UInt64, commits: [_GenericCommit])
    do { decoded = try batch.commits(codec: .generic(), limits: limits) } catch {
      if case .limitExceeded(let reason) = error {
        return await fail(request: request, .tooLarge, "push \(request): \(reason)", closing: 1009)
      }
      return await fail(request: request, .malformed, "push \(request): \(error)", closing: 1002)
    }
    // Labels, operations and clocks are checked against the list's highest clock before
    // anything is stored: a clock near 2^64 would leave every client unable to commit.
    do { try limits.check(decoded.commits, holding: await hosted.highestClock) } catch {
      return await fail(request: request, .overLimit, "push \(request): \(error)", closing: 1008)
    }
    let expected = await hosted.listID
    guard decoded.listID == expected else {
      let message = "push \(request) is a batch of list \(_hex(decoded.listID)); '\(list)' is \(_hex(expected ?? 0))"
      observer?.refused(list: list, peer: peer, code: .differentList, reason: message)
      await answerInOrder(.error(request: request, code: .differentList, message: message))
      return .keepOpen
    }
    var commits: [(stored: SyncStoredCommit, commit: _GenericCommit)] = []
    commits.reserveCapacity(decoded.commits.count)
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    for commit in decoded.commits {
      guard commit.lamportClock > 0 else {
        return await fail(request: request, .malformed, "push \(request): commit \(commit.id) has Lamport clock 0", closing: 1002)
      }
      let bytes: [UInt8]
      do { bytes = try codec.encode(replicaCommits: [commit]) } catch {
        return await fail(request: request, .malformed, "push \(request): commit \(commit.id): \(error)", closing: 1002)
      }
      guard bytes.count <= configuration.maxCommitBytes else {
        return await fail(
          request: request, .overLimit,
          "push \(request): commit \(commit.id) takes \(bytes.count) bytes, more than the limit of \(configuration.maxCommitBytes)",
          closing: 1009)
      }
      commits.append(
        (SyncStoredCommit(id: commit.id, lamportClock: commit.lamportClock, dependencies: commit.dependencies, bytes: bytes), commit))
    }
    // The connection reads on while the push waits for its group commit, up to a bound.
    await bound(await hosted.submit(commits, session: self, request: request, arrived: arrived))
    return .keepOpen
  }

  /// Answers a push that is not stored (refused here) after the catch-up queued before it, like
  /// the answers of stored pushes: an empty push stays a barrier on a read-only session too.
  private func answerInOrder(_ message: SyncMessage) async {
    await bound(await hosted.answer(self, message))
  }

  /// Counts an unanswered push; past `maxPushesInFlight` of them, waits for the oldest.
  private func bound(_ ticket: _Ticket<Void>) async {
    let oldest = state.withLock { state -> _Ticket<Void>? in
      state.inFlight.append(ticket)
      while let first = state.inFlight.first, first.isFulfilled { state.inFlight.removeFirst() }
      return state.inFlight.count > configuration.maxPushesInFlight ? state.inFlight.first : nil
    }
    if let oldest { await oldest.wait() }
  }

  /// Queues the answer to a push (from its list, in the order the pushes were stored).
  func answer(_ message: SyncMessage) { send(message) }

  private func send(_ message: SyncMessage) {
    if !queue.enqueue(message.encoded()), !isClosed {
      Task { await self.hosted.remove(self) }
      drop(reason: "the client fell behind (\(queue.queuedFrames) frames, \(queue.queuedBytes) bytes queued); reconnect to catch up")
    }
  }

  private func fail(request: UInt64, _ code: SyncErrorCode, _ reason: String, closing closeCode: UInt16) async
    -> SyncSessionVerdict
  {
    observer?.refused(list: list, peer: peer, code: code, reason: reason)
    _ = queue.enqueue(SyncMessage.error(request: request, code: code, message: reason).encoded())
    await queue.flush(within: .seconds(5))
    await close()
    return .close(code: closeCode, reason: String(reason.prefix(120)))
  }

  /// The socket closed, or the server closes it: the session leaves its list and sends nothing more.
  public func close() async {
    guard leave() else { return }
    await hosted.remove(self)
    queue.finish()
  }

  /// Drops a session that fell behind (called by its list, which has removed it already).
  func drop(reason: String) {
    guard leave() else { return }
    queue.finish()
    if let onClose { Task { await onClose(1008, reason) } }
  }

  /// Ends the session from its list's side (its catch-up could not be read): an `error` for the
  /// connection, a moment for it to leave, then the close callback with 1008.
  func abort(_ code: SyncErrorCode, _ reason: String) async {
    observer?.refused(list: list, peer: peer, code: code, reason: reason)
    _ = queue.enqueue(SyncMessage.error(request: 0, code: code, message: reason).encoded())
    await queue.flush(within: .seconds(5))
    guard leave() else { return }
    await hosted.remove(self)
    queue.finish()
    await onClose?(1008, String(reason.prefix(120)))
  }

  /// Closes from the server's side (shutdown): the close callback runs with 1001.
  func shut() async {
    guard leave() else { return }
    // Frames already queued get a moment to leave; a client that does not read is not waited for.
    await queue.flush(within: .seconds(1))
    queue.finish()
    await onClose?(1001, "the server is shutting down")
  }

  /// Marks the session closed and releases it from the hub, once: whether this call did it.
  private func leave() -> Bool {
    let wasOpen = state.withLock { state -> Bool in
      let wasOpen = !state.closed
      state.closed = true
      return wasOpen
    }
    if wasOpen { release(id) }
    return wasOpen
  }
}
