import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the sync server's routes: WebSocket upgrades and the peer's address
/// (logged with every refusal).
///
/// ```swift
/// let router = Router(context: SyncRequestContext.self)
/// ```
///
/// - Complexity: O(1) per request.
public struct SyncRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  public let webSocket: WebSocketHandlerReference<Self>
  public let remoteAddress: SocketAddress?
  /// The connection's channel, so a server-side close can end a socket that takes no more bytes.
  let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.webSocket = .init()
    self.remoteAddress = source.channel.remoteAddress
    self.channel = source.channel
  }

  /// The peer as logs name it: `ip:port`, or `unknown`.
  var peer: String {
    guard let remoteAddress else { return "unknown" }
    if let ip = remoteAddress.ipAddress, let port = remoteAddress.port { return "\(ip):\(port)" }
    return "\(remoteAddress)"
  }
}
