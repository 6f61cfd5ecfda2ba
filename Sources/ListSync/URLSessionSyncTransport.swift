#if canImport(FoundationNetworking) || canImport(Darwin)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over `URLSessionWebSocketTask`: what an app on Apple platforms uses.
///
/// On Linux, FoundationNetworking's WebSockets need a libcurl built with WebSocket support;
/// without one (Debian's and Ubuntu's packages) the first frame fails with
/// ``SyncTransportError/unsupported(_:)`` and ``SyncClient/run()`` stops with
/// ``SyncClientError/connection(_:)``. Linux clients use `WebSocketSyncTransport`
/// (`ListSyncWebSocketClient`, in the server package) instead. watchOS counts URLSession's
/// WebSocket tasks as low-level networking and allows them only during audio streaming or a VoIP
/// call; at other times the connection does not open there.
///
/// ```swift
/// let client = SyncClient(replica: replica, codec: codec, transport: URLSessionSyncTransport(),
///                         endpoint: SyncEndpoint(url: "wss://lists.example.com", list: "groceries", token: token))
/// ```
public struct URLSessionSyncTransport: SyncTransport {
  let session: URLSession
  /// The largest frame accepted from the server (URLSession's default is 1 MiB).
  public var maximumMessageSize: Int

  public init(session: URLSession = .shared, maximumMessageSize: Int = 16 << 20) {
    self.session = session
    self.maximumMessageSize = maximumMessageSize
  }

  public func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    guard let address = URL(string: url) else { throw SyncTransportError.invalidURL(url) }
    var request = URLRequest(url: address)
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let task = session.webSocketTask(with: request)
    task.maximumMessageSize = maximumMessageSize
    task.resume()
    return _URLSessionChannel(task: task)
  }
}
#endif
