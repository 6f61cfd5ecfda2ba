import ListHistory

/// Why a ``SyncClient`` stopped or a join failed.
///
/// ```swift
/// do { try await client.run() } catch SyncClientError.differentList(let server, let replica) { … }
/// ```
public enum SyncClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the session with an `error` frame: the code and its message.
  case refused(code: SyncErrorCode, message: String)
  /// The server hosts a different list under this name than the replica's.
  case differentList(server: UInt64, replica: UInt64)
  /// The server sent something that is not the protocol.
  case protocolViolation(String)
  /// The list's base state does not decode with the app's codec.
  case undecodableBase(String)
  /// Connecting cannot succeed as configured: the server refused the token or the request, the
  /// URL is not a sync URL, or the transport does not work on this platform.
  case connection(SyncTransportError)
  /// The server holds a different commit under this identity of the replica's: the replica's
  /// commit is not pushed again (see ``SyncClientStatus/refusedCommits``); the client keeps
  /// syncing everything else.
  case conflictingCommit(ReplicaCommitID)

  public var description: String {
    switch self {
    case .refused(let code, let message): "the server refused (\(code)): \(message)"
    case .differentList(let server, let replica):
      "the server's list is \(_hex(server)), the replica's is \(_hex(replica))"
    case .protocolViolation(let message): "protocol violation: \(message)"
    case .undecodableBase(let message): "the list's base state does not decode: \(message)"
    case .connection(let error): "cannot connect: \(error)"
    case .conflictingCommit(let id): "the server holds a different commit \(id); this replica's is not pushed again"
    }
  }

  /// Whether reconnecting cannot help (another list, an unsupported version, no such list, a
  /// refused token).
  var isFatal: Bool {
    switch self {
    case .differentList, .undecodableBase: true
    case .connection(let error): !error.isRetryable
    case .refused(let code, _): code == .differentList || code == .unsupportedVersion || code == .notHosted
    case .protocolViolation, .conflictingCommit: false
    }
  }
}
