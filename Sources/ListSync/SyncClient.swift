import ListHistory
import ListReplica
import ListLocking

/// An app's side of sync: keeps a ``ListReplica`` in step with a server's copy of the list.
///
/// ``run()`` connects, says what the replica holds, merges the commits it lacks, pushes the
/// replica's commits the server lacks, then merges everyone else's as they arrive, reconnecting
/// with backoff until cancelled. Edits go to the replica as usual (or through
/// ``transaction(label:_:)``, which pushes at once); ``merges`` tells the UI what arrived.
///
/// ```swift
/// let replica = try ListReplica<String, Row>.open(at: path, codec: codec)
/// let client = SyncClient(replica: replica, codec: codec, transport: URLSessionSyncTransport(),
///                         endpoint: SyncEndpoint(url: "wss://lists.example.com", list: "groceries", token: token))
/// Task { try await client.run() }
/// for await merge in client.merges { dataSource.apply(merge.changeset) }
/// ```
/// - Complexity: a push encodes the commits the server lacks; a received batch costs its
///   decoding and its merge (see ``ListReplica/receive(_:)``), run specialized for the app's
///   element types, not the list's size.
public final class SyncClient<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Merge = ReplicaMerge<Section, Item>

  /// The replica kept in sync.
  public let replica: ListReplica<Section, Item>
  public let codec: HistoryCodec<Section, Item>
  public let transport: any SyncTransport
  public let endpoint: SyncEndpoint
  public let configuration: SyncClientConfiguration
  /// Remote commits merged into the replica, in order, for the UI.
  public let merges: AsyncStream<Merge>
  let mergeSink: AsyncStream<Merge>.Continuation
  let state = ListMutex(_ClientState())
  /// The replica's receive, changes and encode, specialized for the app's element types.
  let calls: _ClientReplica<Section, Item>

  /// A client of `replica` for the list at `endpoint`.
  ///
  /// Inlinable so that the replica calls the client makes per frame run specialized for the
  /// app's element types.
  @inlinable
  public convenience init(
    replica: ListReplica<Section, Item>, codec: HistoryCodec<Section, Item>, transport: any SyncTransport,
    endpoint: SyncEndpoint, configuration: SyncClientConfiguration = SyncClientConfiguration()
  ) {
    self.init(
      replica: replica, codec: codec, transport: transport, endpoint: endpoint, configuration: configuration,
      calls: _ClientReplica(replica: replica, codec: codec))
  }

  @usableFromInline
  init(
    replica: ListReplica<Section, Item>, codec: HistoryCodec<Section, Item>, transport: any SyncTransport,
    endpoint: SyncEndpoint, configuration: SyncClientConfiguration, calls: _ClientReplica<Section, Item>
  ) {
    self.replica = replica
    self.codec = codec
    self.transport = transport
    self.endpoint = endpoint
    self.configuration = configuration
    self.calls = calls
    (merges, mergeSink) = AsyncStream.makeStream(of: Merge.self, bufferingPolicy: .bufferingNewest(1024))
  }

  deinit { mergeSink.finish() }

  /// Where the client stands.
  public var status: SyncClientStatus { state.withLock { $0.status } }

  // MARK: Running

  /// Connects and syncs until the task is cancelled, reconnecting with backoff after a lost or
  /// refused connection.
  ///
  /// - Throws: ``SyncClientError`` when reconnecting cannot help (the server holds another
  ///   list under the name, the list does not exist for a read-only token, the base state does
  ///   not decode, the token is refused, the transport cannot connect on this platform);
  ///   `CancellationError` is not thrown: cancelling ends the run.
  public func run() async throws {
    state.withLock { $0.fatal = nil }
    var attempt = 0
    while !Task.isCancelled {
      do {
        try await connectAndSync()
        // The server closed the connection: pushes in flight are pushed again on the next one.
        finishConnection(error: nil)
        attempt = 0
      } catch let error as SyncClientError where error.isFatal {
        finishConnection(error: "\(error)")
        state.withLock { $0.fatal = error }
        throw error
      } catch let error as SyncTransportError where !error.isRetryable {
        let fatal = SyncClientError.connection(error)
        finishConnection(error: "\(fatal)")
        state.withLock { $0.fatal = fatal }
        throw fatal
      } catch {
        finishConnection(error: Task.isCancelled ? nil : "\(error)")
      }
      guard !Task.isCancelled else { break }
      try? await Task.sleep(for: backoff(attempt))
      attempt += 1
    }
    finishConnection(error: nil)
  }

  func backoff(_ attempt: Int) -> Duration {
    let base = configuration.initialBackoff * (1 << min(attempt, 16))
    let capped = min(base, configuration.maxBackoff)
    return capped * Double.random(in: 0.5...1.0)
  }

  func finishConnection(error: String?) {
    let (channel, waiters) = state.withLock { state in (state.channel, state.disconnect(error: error)) }
    for waiter in waiters { waiter.resume(returning: false) }
    if let channel { Task { await channel.close() } }
  }

  private func connectAndSync() async throws {
    state.withLock { $0.status.phase = .connecting }
    let channel = try await transport.connect(to: endpoint.syncURL, bearer: endpoint.token)
    try await withTaskCancellationHandler {
      try await sync(over: channel)
    } onCancel: {
      Task { await channel.close() }
    }
  }

  private func sync(over channel: any SyncChannel) async throws {
    let genesis: SyncListGenesis
    do {
      genesis = try SyncListGenesis(of: replica, codec: codec)
    } catch {
      throw SyncClientError.undecodableBase("\(error)")
    }
    try await channel.send(SyncMessage.hello(version: SyncMessage.protocolVersion, vector: replica.versionVector, genesis: genesis).encoded())
    guard let first = try await channel.receive() else { throw SyncTransportError.closed }
    switch try decode(first) {
    case .welcome(let server, _, let vector):
      guard server.listID == replica.listID else {
        throw SyncClientError.differentList(server: server.listID, replica: replica.listID)
      }
      let generation = state.withLock { state in
        state.channel = channel
        state.known = vector
        state.knownBeyond = []
        state.status.phase = .connected
        state.status.connections += 1
        return state.generation
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await self.receiveLoop(channel) }
        if let interval = configuration.autoPushInterval {
          group.addTask {
            while !Task.isCancelled, self.state.withLock({ $0.generation == generation }) {
              try? await self.push()
              try await Task.sleep(for: interval)
            }
          }
        }
        // The receive loop ends the connection; the pusher follows.
        try await group.next()
        group.cancelAll()
      }
    case .error(_, let code, let message):
      throw SyncClientError.refused(code: code, message: message)
    default:
      throw SyncClientError.protocolViolation("the first frame is not welcome")
    }
  }

  private func decode(_ frame: [UInt8]) throws -> SyncMessage {
    do { return try SyncMessage(decoding: frame) } catch { throw SyncClientError.protocolViolation("\(error)") }
  }

  private func receiveLoop(_ channel: any SyncChannel) async throws {
    while let frame = try await channel.receive() {
      switch try decode(frame) {
      case .commits(let batch):
        let (listID, ids, merge) = try calls.receive(batch)
        guard let merge else { throw SyncClientError.differentList(server: listID, replica: replica.listID) }
        state.withLock { state in for id in ids { state.markKnown(id) } }
        if !merge.received.isEmpty { mergeSink.yield(merge) }
      case .ack(let request, _, _):
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
          if let ids = state.inFlight.removeValue(forKey: request) {
            for id in ids {
              state.inFlightIDs.remove(id)
              state.suspects.remove(id)
              state.markKnown(id)
            }
            state.status.commitsInFlight = state.inFlightIDs.count
          }
          return state.waiters.removeValue(forKey: request)
        }
        waiter?.resume(returning: true)
      case .error(let request, let code, let message):
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
          state.status.lastError = "\(code): \(message)"
          if let ids = state.inFlight.removeValue(forKey: request) {
            for id in ids { state.inFlightIDs.remove(id) }
            state.status.commitsInFlight = state.inFlightIDs.count
            // Nothing of the push was stored: the twin is refused for good, the rest pushed again.
            if code == .conflictingCommit, let twin = state.conflictRefused(ids) {
              state.status.lastError = "\(SyncClientError.conflictingCommit(twin))"
            }
          }
          return state.waiters.removeValue(forKey: request)
        }
        // Another refused push is not retried until the next connection (it would be refused
        // again).
        waiter?.resume(returning: code == .readOnly)
        if request == 0 { throw SyncClientError.refused(code: code, message: message) }
      case .welcome, .hello, .push:
        throw SyncClientError.protocolViolation("unexpected \(try decode(frame).typeName) frame")
      }
    }
  }

  // MARK: Pushing

  /// Pushes the replica's commits the server does not hold yet and is not already being sent;
  /// a no-op when disconnected (they are pushed on connecting).
  public func push() async throws {
    let vector = replica.versionVector
    let known = state.withLock { state -> ReplicaVersionVector? in
      guard state.channel != nil, state.checkedVector != vector else { return nil }
      return state.known
    }
    guard let known else { return }
    let candidates = calls.changes(known)
    let (channel, requests) = state.withLock { state -> ((any SyncChannel)?, [(UInt64, [ReplicaCommit<Section, Item>])]) in
      guard let channel = state.channel else { return (nil, []) }
      state.checkedVector = vector
      let fresh = candidates.filter {
        !state.isKnown($0.id) && !state.inFlightIDs.contains($0.id) && !state.refused.contains($0.id)
      }
      var requests: [(UInt64, [ReplicaCommit<Section, Item>])] = []
      // Suspects of a conflict alone, so that a refusal names one commit.
      var chunks = fresh.filter { state.suspects.contains($0.id) }.map { [$0] }
      let others = fresh.filter { !state.suspects.contains($0.id) }
      var start = 0
      while start < others.count {
        chunks.append(Array(others[start..<min(others.count, start + max(1, configuration.maxCommitsPerPush))]))
        start += chunks[chunks.count - 1].count
      }
      for chunk in chunks {
        let request = state.nextRequest
        state.nextRequest += 1
        state.inFlight[request] = chunk.map(\.id)
        for commit in chunk { state.inFlightIDs.insert(commit.id) }
        requests.append((request, chunk))
      }
      state.status.commitsInFlight = state.inFlightIDs.count
      return (channel, requests)
    }
    guard let channel else { return }
    for (request, chunk) in requests {
      let batch = try calls.encode(chunk)
      try await channel.send(SyncMessage.push(request: request, batch: batch).encoded())
    }
  }

  /// Runs a transaction on the replica and pushes it at once.
  @discardableResult
  public func transaction<R>(label: String? = nil, _ body: (inout ListReplica<Section, Item>.Transaction) throws -> R)
    async throws -> R
  {
    let result = try replica.transaction(label: label, body)
    try? await push()
    return result
  }

  /// Waits until every commit of the replica is acknowledged by the server and every frame the
  /// server queued for this client before now has been received: a barrier for tests,
  /// benchmarks and "sync now" buttons.
  ///
  /// - Throws: the ``SyncClientError`` that stopped ``run()`` for good, or `CancellationError`.
  public func waitUntilSynced() async throws {
    while true {
      try Task.checkCancellation()
      let (channel, fatal) = state.withLock { ($0.channel, $0.fatal) }
      if let fatal { throw fatal }
      guard let channel else {
        try await Task.sleep(for: .milliseconds(5))
        continue
      }
      state.withLock { $0.checkedVector = nil }
      do { try await push() } catch { continue }
      // An empty push: its ack comes after everything the server queued for us before it.
      let request = state.withLock { state in
        let request = state.nextRequest
        state.nextRequest += 1
        return request
      }
      let acknowledged = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let registered = state.withLock { state -> Bool in
          guard state.channel != nil else { return false }
          state.waiters[request] = continuation
          return true
        }
        guard registered else { return continuation.resume(returning: false) }
        Task {
          do {
            let empty = try ReplicaBatch(commits: [ReplicaCommit<Section, Item>](), listID: replica.listID, codec: codec)
            try await channel.send(SyncMessage.push(request: request, batch: empty).encoded())
          } catch {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: request) }
            waiter?.resume(returning: false)
          }
        }
      }
      guard acknowledged else {
        try await Task.sleep(for: .milliseconds(5))
        continue
      }
      let known = state.withLock { $0.known }
      let settled = state.withLock { state in
        state.inFlight.isEmpty && calls.changes(known).allSatisfy { state.isKnown($0.id) || state.refused.contains($0.id) }
      }
      if settled { return }
    }
  }
}
