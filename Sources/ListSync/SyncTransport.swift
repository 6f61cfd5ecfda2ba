/// How a ``SyncClient`` reaches a server: opens WebSocket-like channels of binary frames.
///
/// ``URLSessionSyncTransport`` speaks WebSocket; ``InProcessSyncTransport`` reaches a
/// ``SyncHub`` in the same process (tests, examples); the server package adds one over
/// Hummingbird's WebSocket client.
public protocol SyncTransport: Sendable {
  /// Opens a channel to `url` (`…/v1/lists/{list}/sync`) with `Authorization: Bearer token`.
  ///
  /// - Throws: ``SyncTransportError/refused(status:message:)`` when the server refuses the
  ///   upgrade (401, 403, 404), or another error when it cannot be reached.
  func connect(to url: String, bearer token: String?) async throws -> any SyncChannel
}

/// One open connection: binary frames both ways, in order.
public protocol SyncChannel: Sendable {
  /// Sends one frame.
  func send(_ frame: [UInt8]) async throws
  /// The next frame; nil once the connection closed.
  func receive() async throws -> [UInt8]?
  /// Closes the connection; a pending ``receive()`` returns nil.
  func close() async
}

/// Why a transport could not connect or lost its connection.
public enum SyncTransportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the connection with this HTTP status (401, 403, 404, …).
  case refused(status: Int, message: String)
  /// The URL is not a sync URL.
  case invalidURL(String)
  /// The connection is closed.
  case closed
  /// The connection failed, with the underlying error's description.
  case failed(String)

  public var description: String {
    switch self {
    case .refused(let status, let message): "the server refused the connection (\(status)): \(message)"
    case .invalidURL(let url): "'\(url)' is not a sync URL (…/v1/lists/{list}/sync)"
    case .closed: "the connection is closed"
    case .failed(let message): "the connection failed: \(message)"
    }
  }
}
