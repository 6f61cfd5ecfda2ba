import HummingbirdWSClient
import ListSync
import Logging
import NIOCore
import NIOPosix

/// A ``SyncTransport`` over real WebSockets (HummingbirdWSClient), for clients on Linux, the
/// server's end-to-end tests and the sync benchmark.
///
/// Every connection sends `Authorization: Bearer <token>` with its upgrade request and exchanges
/// binary frames, one sync message per frame.
///
/// ```swift
/// let transport = WebSocketSyncTransport()
/// let channel = try await transport.connect(to: "ws://127.0.0.1:8080/v1/lists/groceries/sync", bearer: "s3cret")
/// try await channel.send(helloFrame)
/// while let frame = try await channel.receive() { … }
/// ```
///
/// - Complexity: a connection costs one TCP connection and a task; frames are copied once each way.
public struct WebSocketSyncTransport: SyncTransport {
  /// The largest message accepted from the server (catch-up batches can be large).
  public var maxMessageBytes: Int
  public var logger: Logger
  public var eventLoopGroup: any EventLoopGroup

  public init(
    maxMessageBytes: Int = 64 << 20, logger: Logger = Logger(label: "ListSync.WebSocketClient"),
    eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) {
    self.maxMessageBytes = maxMessageBytes
    self.logger = logger
    self.eventLoopGroup = eventLoopGroup
  }

  /// Connects to `url` (`ws://host:port/v1/lists/NAME/sync`), returning once the upgrade succeeded.
  ///
  /// - Throws: ``WebSocketSyncTransportError/connectionFailed(url:reason:)`` when the server cannot
  ///   be reached or refuses the upgrade (a bad token: 401, a token for another list: 403).
  public func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    let channel = WebSocketSyncChannel()
    var configuration = WebSocketClientConfiguration(maxFrameSize: maxMessageBytes, closeTimeout: .seconds(5))
    if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
    let maxMessageBytes = self.maxMessageBytes
    let client = WebSocketClient(
      url: url, configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger
    ) { inbound, outbound, _ in
      channel.opened(outbound)
      var messages = inbound.messages(maxSize: maxMessageBytes).makeAsyncIterator()
      do {
        while let message = try await messages.next() {
          switch message {
          case .binary(let buffer): channel.deliver(Array(buffer.readableBytesView))
          case .text:
            channel.finish(throwing: WebSocketSyncTransportError.textFrame(url: url))
            return
          }
        }
        channel.finish(throwing: nil)
      } catch {
        channel.finish(throwing: error)
      }
    }
    let task = Task {
      do {
        try await client.run()
        channel.finish(throwing: nil)
      } catch {
        channel.failConnecting(WebSocketSyncTransportError.connectionFailed(url: url, reason: "\(error)"))
        channel.finish(throwing: error)
      }
    }
    channel.setTask(task)
    try await channel.waitUntilOpen()
    return channel
  }
}

/// Why a WebSocket connection failed.
public enum WebSocketSyncTransportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The server could not be reached, or refused the upgrade.
  case connectionFailed(url: String, reason: String)
  /// The server sent a text frame; the sync protocol uses binary frames only.
  case textFrame(url: String)
  /// `send` after the connection closed.
  case closed

  public var description: String {
    switch self {
    case .connectionFailed(let url, let reason): "cannot connect to \(url): \(reason)"
    case .textFrame(let url): "\(url) sent a text frame; sync messages are binary"
    case .closed: "the WebSocket connection is closed"
    }
  }
}
