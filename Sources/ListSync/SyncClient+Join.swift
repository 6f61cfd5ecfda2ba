import ListHistory
import ListReplica

extension SyncClient {
  /// A client of a new replica of the server's list: connects, takes the list's genesis (its
  /// identity and base) and every commit, then returns; ``run()`` keeps it in sync from there.
  /// A write token creates the list (empty) when the server does not host it yet.
  ///
  /// ```swift
  /// let client = try await SyncClient<String, Row>.join(
  ///     transport: URLSessionSyncTransport(), endpoint: endpoint, codec: HistoryCodec())
  /// Task { try await client.run() }
  /// ```
  /// - Throws: ``SyncClientError``, ``SyncTransportError``, or a `ReplicaError` when a batch
  ///   does not decode with `codec`.
  /// - Complexity: the list's commits, decoded and merged once.
  @inlinable
  public static func join(
    transport: any SyncTransport, endpoint: SyncEndpoint, codec: HistoryCodec<Section, Item>, replica: ReplicaID = .random(),
    replicaConfiguration: ListReplicaConfiguration = ListReplicaConfiguration(),
    configuration: SyncClientConfiguration = SyncClientConfiguration()
  ) async throws -> SyncClient {
    let channel = try await transport.connect(to: endpoint.syncURL, bearer: endpoint.token)
    do {
      let joined = try await receiveList(
        over: channel, codec: codec, replica: replica, configuration: replicaConfiguration)
      await channel.close()
      return SyncClient(replica: joined, codec: codec, transport: transport, endpoint: endpoint, configuration: configuration)
    } catch {
      await channel.close()
      throw error
    }
  }

  // Inlinable, like the client's initializer, so that the catch-up merges specialized.
  @inlinable
  static func receiveList(
    over channel: any SyncChannel, codec: HistoryCodec<Section, Item>, replica id: ReplicaID,
    configuration: ListReplicaConfiguration
  ) async throws -> ListReplica<Section, Item> {
    func next() async throws -> SyncMessage {
      guard let frame = try await channel.receive() else { throw SyncTransportError.closed }
      do { return try SyncMessage(decoding: frame) } catch { throw SyncClientError.protocolViolation("\(error)") }
    }
    try await channel.send(
      SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: nil).encoded())
    let replica: ListReplica<Section, Item>
    switch try await next() {
    case .welcome(let genesis, _, _):
      let base: ListSnapshot<Section, Item>
      do { base = try genesis.decodeBase(codec: codec) } catch {
        throw SyncClientError.undecodableBase("\(error)")
      }
      replica = ListReplica(replica: id, listID: genesis.listID, base: base, configuration: configuration)
    case .error(_, let code, let message):
      throw SyncClientError.refused(code: code, message: message)
    case let other:
      throw SyncClientError.protocolViolation("the first frame is \(other.typeName), not welcome")
    }
    // An empty push is answered after the catch-up queued before it (with an ack, or error 3
    // for a read-only token): the end of what the server holds.
    let empty = try ReplicaBatch(commits: [ReplicaCommit<Section, Item>](), listID: replica.listID, codec: codec)
    try await channel.send(SyncMessage.push(request: 1, batch: empty).encoded())
    while true {
      switch try await next() {
      case .commits(let batch): try replica.receive(batch, codec: codec)
      case .ack(1, _, _), .error(1, _, _): return replica
      case .error(_, let code, let message): throw SyncClientError.refused(code: code, message: message)
      case let other: throw SyncClientError.protocolViolation("unexpected \(other.typeName) frame while joining")
      }
    }
  }
}
