/// What the connection does after ``SyncSession/receive(_:)``.
///
/// ```swift
/// if case .close(let code, let reason) = await session.receive(frame) { try await socket.close(code, reason) }
/// ```
public enum SyncSessionVerdict: Sendable, Hashable {
  /// Keep reading frames.
  case keepOpen
  /// Close the WebSocket with this close code (1002 protocol error, 1009 too big, 1008 policy,
  /// 1011 server error) and reason; the `error` frame has been sent already.
  case close(code: UInt16, reason: String)
}
