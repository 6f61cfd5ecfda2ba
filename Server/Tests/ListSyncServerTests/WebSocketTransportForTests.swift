import ListSync
import ListSyncWebSocketClient

/// The transport the tests' clients use, and raw connections by port.
enum WebSocketTransportForTests {
  static let transport = WebSocketSyncTransport()

  static func connect(port: Int, list: String, token: String?) async throws -> any SyncChannel {
    try await transport.connect(
      to: SyncEndpoint(url: "ws://127.0.0.1:\(port)", list: list, token: token).syncURL, bearer: token)
  }
}
