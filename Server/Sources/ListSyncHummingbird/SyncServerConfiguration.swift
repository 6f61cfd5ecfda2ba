/// Where the sync server listens and how large a message it reads.
///
/// ```swift
/// let configuration = SyncServerConfiguration(host: "0.0.0.0", port: 8080)
/// ```
///
/// - Complexity: O(1).
public struct SyncServerConfiguration: Sendable {
  /// The address to bind (`127.0.0.1` by default: loopback only).
  public var host: String
  /// The port; 0 picks a free one (``SyncServer`` reports it once listening).
  public var port: Int
  /// The largest message read from a client; a larger one gets an `error` (too large) and a close
  /// with 1009. Keep it equal to the hub's `maxFrameBytes`.
  public var maxFrameBytes: Int
  /// How long a WebSocket close handshake may take before the connection is dropped (a client
  /// that fell behind and is closed with 1008 included).
  public var closeTimeout: Duration
  /// On shutdown, how long each WebSocket gets to take its close frame (1001) and end before its
  /// socket is closed outright: a client that reads nothing must not hold up the exit.
  public var shutdownCloseTimeout: Duration
  /// How long a new connection may take to send its whole request head (408 and close after).
  public var headerTimeout: Duration
  /// The largest request head (request line and headers) read; a larger one gets 431 and a close.
  public var maxHeaderBytes: Int
  /// How long an HTTP connection may stay idle between requests before it is closed.
  public var idleTimeout: Duration
  /// The text `GET /metrics` answers with, in Prometheus' text format (nil, the default: no
  /// such route). `listjournal-server serve --metrics` sets it to its registry's output.
  public var metrics: (@Sendable () -> String)?

  public init(
    host: String = "127.0.0.1", port: Int = 8080, maxFrameBytes: Int = 16 << 20, closeTimeout: Duration = .seconds(5),
    headerTimeout: Duration = .seconds(10), maxHeaderBytes: Int = 16 << 10, idleTimeout: Duration = .seconds(60),
    shutdownCloseTimeout: Duration = .seconds(2)
  ) {
    self.shutdownCloseTimeout = shutdownCloseTimeout
    self.host = host
    self.port = port
    self.maxFrameBytes = maxFrameBytes
    self.closeTimeout = closeTimeout
    self.headerTimeout = headerTimeout
    self.maxHeaderBytes = maxHeaderBytes
    self.idleTimeout = idleTimeout
  }
}
