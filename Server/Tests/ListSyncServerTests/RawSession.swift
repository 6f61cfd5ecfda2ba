import ListHistory
import ListSync
import ListSyncWebSocketClient

/// A connection that speaks the wire protocol by hand, to send what a well-behaved client never
/// would: garbage, oversized messages, batches of other lists.
struct RawSession {
  let channel: any SyncChannel

  static func open(_ server: TestServer, list: String = "groceries", token: String?) async throws -> RawSession {
    RawSession(
      channel: try await WebSocketSyncTransport().connect(
        to: SyncEndpoint(url: server.url, list: list, token: token).syncURL, bearer: token))
  }

  static func open(_ server: FakeServer, list: String = "groceries", token: String?) async throws -> RawSession {
    RawSession(
      channel: try await WebSocketSyncTransport().connect(
        to: SyncEndpoint(url: server.url, list: list, token: token).syncURL, bearer: token))
  }

  func send(_ message: SyncMessage) async throws { try await channel.send(message.encoded()) }

  /// `hello` with an empty vector; returns the welcome (catch-up frames follow it).
  func hello(genesis: SyncListGenesis? = nil) async throws -> SyncMessage? {
    try await send(.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: genesis))
    return try await next { if case .welcome = $0 { true } else { false } }
  }

  /// The next message, or `nil` once the server closed the connection.
  func receive() async throws -> SyncMessage? {
    guard let frame = try await channel.receive() else { return nil }
    return try SyncMessage(decoding: frame)
  }

  /// The next message `matching`, skipping others (catch-up and fan-out); `nil` once closed.
  func next(_ matching: (SyncMessage) -> Bool) async throws -> SyncMessage? {
    while let message = try await receive() {
      if matching(message) { return message }
    }
    return nil
  }

  /// The next `error` or `ack`, skipping `commits`.
  func reply() async throws -> SyncMessage? {
    try await next {
      switch $0 {
      case .error, .ack: true
      default: false
      }
    }
  }

  /// Whether the server closed the connection: reads until the end (or a failed read).
  func isClosedByServer() async -> Bool {
    do {
      while try await channel.receive() != nil {}
      return true
    } catch {
      return true
    }
  }
}
