import HummingbirdWSClient
import ListSync
import NIOConcurrencyHelpers
import NIOCore

/// One WebSocket connection as a ``SyncChannel``: frames received are queued until read, in order.
///
/// The connection's handler runs in a task of its own; this object hands its outbound writer to
/// `send` and its inbound frames to `receive`.
///
/// ```swift
/// let channel = try await WebSocketSyncTransport().connect(to: url, bearer: token)
/// try await channel.send(frame)
/// let reply = try await channel.receive()   // nil once the server closed
/// ```
///
/// - Complexity: `send` and `receive` are O(frame size); the queue is unbounded (the server paces
///   what it sends with its own per-session queue).
final class WebSocketSyncChannel: SyncChannel, Sendable {
  private struct State {
    var writer: WebSocketOutboundWriter?
    var opening: CheckedContinuation<Void, any Error>?
    var openFailure: (any Error)?
    var isOpen = false
    var frames: [[UInt8]] = []
    var head = 0
    var waiter: CheckedContinuation<[UInt8]?, any Error>?
    var finished = false
    var failure: (any Error)?
    var task: Task<Void, Never>?
  }

  private let state = NIOLockedValueBox(State())

  init() {}

  func setTask(_ task: Task<Void, Never>) {
    state.withLockedValue { $0.task = task }
  }

  /// Returns once the upgrade succeeded; throws why it did not.
  func waitUntilOpen() async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let result: Result<Void, any Error>? = state.withLockedValue { state in
        if state.isOpen { return .success(()) }
        if let failure = state.openFailure { return .failure(failure) }
        state.opening = continuation
        return nil
      }
      if let result { continuation.resume(with: result) }
    }
  }

  func opened(_ writer: WebSocketOutboundWriter) {
    let opening = state.withLockedValue { state in
      state.writer = writer
      state.isOpen = true
      defer { state.opening = nil }
      return state.opening
    }
    opening?.resume()
  }

  func failConnecting(_ error: any Error) {
    let opening = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
      guard !state.isOpen else { return nil }
      state.openFailure = error
      defer { state.opening = nil }
      return state.opening
    }
    opening?.resume(throwing: error)
  }

  func deliver(_ frame: [UInt8]) {
    let waiter = state.withLockedValue { state -> CheckedContinuation<[UInt8]?, any Error>? in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.frames.append(frame)
      return nil
    }
    waiter?.resume(returning: frame)
  }

  /// The connection ended: cleanly (`nil`) or with `error`; queued frames stay readable.
  func finish(throwing error: (any Error)?) {
    let waiter = state.withLockedValue { state -> CheckedContinuation<[UInt8]?, any Error>? in
      guard !state.finished else { return nil }
      state.finished = true
      state.failure = error
      state.writer = nil
      defer { state.waiter = nil }
      return state.waiter
    }
    if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
  }

  func send(_ frame: [UInt8]) async throws {
    guard let writer = state.withLockedValue({ $0.writer }) else { throw SyncTransportError.closed }
    try await writer.writeBinaryMessage(ByteBuffer(bytes: frame))
  }

  func receive() async throws -> [UInt8]? {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
      let result: Result<[UInt8]?, any Error>? = state.withLockedValue { state in
        if state.head < state.frames.count {
          let frame = state.frames[state.head]
          state.head += 1
          // Drop read frames now and then rather than shifting the array on every read.
          if state.head > 64, state.head * 2 > state.frames.count {
            state.frames.removeFirst(state.head)
            state.head = 0
          }
          return .success(frame)
        }
        if state.finished { return state.failure.map { .failure($0) } ?? .success(nil) }
        state.waiter = continuation
        return nil
      }
      if let result { continuation.resume(with: result) }
    }
  }

  func close() async {
    let (writer, task) = state.withLockedValue { ($0.writer, $0.task) }
    try? await writer?.close(.normalClosure, reason: nil)
    // The server answers the close frame and the handler returns; cancel covers a silent peer.
    task?.cancel()
    finish(throwing: nil)
  }
}
