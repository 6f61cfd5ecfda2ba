import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The open WebSocket connections, so that a shutdown can close them with 1001 (going away).
///
/// A close is bounded in time: a client that reads nothing never takes the close frame (its
/// socket is full, so the write waits for ever) or never answers it, so after the limit the
/// socket is closed outright, which also fails the writes still waiting and lets their frames go.
///
/// - Complexity: O(1) to add or remove; closing all is O(connections), all at once.
@usableFromInline
final class _SyncConnections: Sendable {
  struct Connection: Sendable {
    let writer: WebSocketOutboundWriter
    let channel: (any Channel)?
  }

  private struct State {
    var next = 0
    var connections: [Int: Connection] = [:]
    var draining = false
  }

  private let state = NIOLockedValueBox(State())

  init() {}

  /// Registers a connection; `nil` once draining (the server is shutting down).
  func add(_ writer: WebSocketOutboundWriter, channel: (any Channel)?) -> Int? {
    state.withLockedValue { state in
      guard !state.draining else { return nil }
      state.next += 1
      state.connections[state.next] = Connection(writer: writer, channel: channel)
      return state.next
    }
  }

  func remove(_ id: Int) {
    _ = state.withLockedValue { $0.connections.removeValue(forKey: id) }
  }

  var count: Int { state.withLockedValue { $0.connections.count } }

  var isDraining: Bool { state.withLockedValue { $0.draining } }

  /// Refuses new connections from now on.
  func startDraining() {
    state.withLockedValue { $0.draining = true }
  }

  /// Closes one connection with `code`, within `limit` (see the type).
  func close(_ id: Int, code: WebSocketErrorCode, reason: String, within limit: Duration) async {
    guard let connection = state.withLockedValue({ $0.connections[id] }) else { return }
    await Self.close(connection, code: code, reason: reason, within: limit)
  }

  /// Sends every open connection a close frame with 1001 (going away); each socket still open
  /// after `limit` is closed outright.
  func closeAll(reason: String, within limit: Duration) async {
    let connections = state.withLockedValue { Array($0.connections.values) }
    await withTaskGroup(of: Void.self) { group in
      for connection in connections {
        group.addTask { await Self.close(connection, code: .goingAway, reason: reason, within: limit) }
      }
    }
  }

  private static func close(_ connection: Connection, code: WebSocketErrorCode, reason: String, within limit: Duration)
    async
  {
    // Not awaited: on a full socket this write waits until the channel is closed below.
    Task { try? await connection.writer.close(code, reason: reason) }
    guard let channel = connection.channel else { return }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await channel.closeFuture.get() }
      group.addTask { try? await Task.sleep(for: limit) }
      _ = await group.next()
      group.cancelAll()
      // The handshake's end (or nothing, past the limit): the socket goes either way.
      channel.close(promise: nil)
    }
  }
}
