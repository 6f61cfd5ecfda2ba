/// Why a transport could not connect or lost its connection.
///
/// ```swift
/// catch SyncTransportError.refused(let status, _) where status == 401 { askForSignIn() }
/// ```
public enum SyncTransportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the connection with this HTTP status (401, 403, 404, …).
  case refused(status: Int, message: String)
  /// The URL is not a sync URL.
  case invalidURL(String)
  /// The connection is closed.
  case closed
  /// The connection failed, with the underlying error's description.
  case failed(String)
  /// The transport cannot connect on this platform (FoundationNetworking on Linux needs a
  /// libcurl built with WebSocket support, which Debian's and Ubuntu's are not): use another
  /// transport, such as `WebSocketSyncTransport` from the server package's
  /// `ListSyncWebSocketClient`.
  case unsupported(String)

  public var description: String {
    switch self {
    case .refused(let status, let message): "the server refused the connection (\(status)): \(message)"
    case .invalidURL(let url): "'\(url)' is not a sync URL (…/v1/lists/{list}/sync)"
    case .closed: "the connection is closed"
    case .failed(let message): "the connection failed: \(message)"
    case .unsupported(let message): "this transport cannot connect here: \(message)"
    }
  }

  /// Whether connecting again may succeed: not after a refusal for the token or the request
  /// (400, 401, 403, 404, 426), a bad URL or an unsupported transport.
  public var isRetryable: Bool {
    switch self {
    case .refused(let status, _): ![400, 401, 403, 404, 426].contains(status)
    case .invalidURL, .unsupported: false
    case .closed, .failed: true
    }
  }
}
