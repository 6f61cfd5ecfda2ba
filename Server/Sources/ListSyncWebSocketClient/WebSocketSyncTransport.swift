import Foundation
import HummingbirdWSClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
  /// - Throws: `SyncTransportError.refused(status:message:)` when the server refuses the upgrade
  ///   (401 a bad token, 403 a token for another list, 404 a list a read-only token cannot
  ///   create), `SyncTransportError.failed(_:)` when it cannot be reached.
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
            channel.finish(throwing: SyncTransportError.failed("\(url) sent a text frame; sync messages are binary"))
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
        channel.failConnecting(await Self.connectionError(error, url: url, token: token))
        channel.finish(throwing: error)
      }
    }
    channel.setTask(task)
    try await channel.waitUntilOpen()
    return channel
  }
}

extension WebSocketSyncTransport {
  /// What a failed connection attempt throws: a refused upgrade asks the server once more with a
  /// plain GET, whose JSON answer carries the status and reason the upgrade response had.
  static func connectionError(_ error: any Error, url: String, token: String?) async -> any Error {
    guard (error as? WebSocketClientError) == .webSocketUpgradeFailed,
      let probe = URL(string: url.replacingOccurrences(of: "ws://", with: "http://").replacingOccurrences(of: "wss://", with: "https://"))
    else { return SyncTransportError.failed("\(url): \(error)") }
    var request = URLRequest(url: probe)
    request.timeoutInterval = 10
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    guard let (data, response) = try? await URLSession.shared.data(for: request),
      let status = (response as? HTTPURLResponse)?.statusCode, status != 426
    else { return SyncTransportError.failed("\(url): the WebSocket upgrade failed") }
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    return SyncTransportError.refused(status: status, message: object?["error"] as? String ?? "HTTP \(status)")
  }
}
