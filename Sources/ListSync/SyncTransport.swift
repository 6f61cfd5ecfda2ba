/// How a ``SyncClient`` reaches a server: opens WebSocket-like channels of binary frames.
///
/// ``URLSessionSyncTransport`` speaks WebSocket; ``InProcessSyncTransport`` reaches a
/// ``SyncHub`` in the same process (tests, examples); the server package adds one over
/// Hummingbird's WebSocket client.
///
/// ```swift
/// let client = SyncClient(replica: replica, codec: codec, transport: URLSessionSyncTransport(), endpoint: endpoint)
/// ```
public protocol SyncTransport: Sendable {
  /// Opens a channel to `url` (`…/v1/lists/{list}/sync`) with `Authorization: Bearer token`.
  ///
  /// - Throws: ``SyncTransportError/refused(status:message:)`` when the server refuses the
  ///   upgrade (401, 403, 404), or another error when it cannot be reached.
  func connect(to url: String, bearer token: String?) async throws -> any SyncChannel
}
