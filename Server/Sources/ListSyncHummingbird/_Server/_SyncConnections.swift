import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOWebSocket

/// The open WebSocket connections, so that a shutdown can close them with 1001 (going away).
///
/// - Complexity: O(1) to add or remove; closing all is O(connections).
@usableFromInline
final class _SyncConnections: Sendable {
  private struct State {
    var next = 0
    var writers: [Int: WebSocketOutboundWriter] = [:]
    var draining = false
  }

  private let state = NIOLockedValueBox(State())

  init() {}

  /// Registers a connection; `nil` once draining (the server is shutting down).
  func add(_ writer: WebSocketOutboundWriter) -> Int? {
    state.withLockedValue { state in
      guard !state.draining else { return nil }
      state.next += 1
      state.writers[state.next] = writer
      return state.next
    }
  }

  func remove(_ id: Int) {
    _ = state.withLockedValue { $0.writers.removeValue(forKey: id) }
  }

  var count: Int { state.withLockedValue { $0.writers.count } }

  var isDraining: Bool { state.withLockedValue { $0.draining } }

  /// Refuses new connections from now on.
  func startDraining() {
    state.withLockedValue { $0.draining = true }
  }

  /// Sends every open connection a close frame with 1001 (going away).
  func closeAll(reason: String) async {
    let writers = state.withLockedValue { Array($0.writers.values) }
    await withTaskGroup(of: Void.self) { group in
      for writer in writers {
        group.addTask { try? await writer.close(.goingAway, reason: reason) }
      }
    }
  }
}
