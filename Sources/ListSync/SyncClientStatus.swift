import ListHistory

/// Where a ``SyncClient`` stands.
///
/// ```swift
/// if client.status.phase != .connected { banner.text = client.status.lastError ?? "Offline" }
/// ```
public struct SyncClientStatus: Sendable, Hashable {
  public enum Phase: Sendable, Hashable {
    case disconnected
    case connecting
    case connected
  }

  public var phase: Phase = .disconnected
  /// Commits pushed and not acknowledged yet.
  public var commitsInFlight: Int = 0
  /// The last error: a refused push, a lost connection, a refused connection.
  public var lastError: String?
  /// Connections made so far.
  public var connections: Int = 0
  /// This replica's commits the server refused because it holds a different commit under the
  /// same identity (a restored backup or a cloned device edited under one replica identifier):
  /// they stay in the replica but are not pushed again; everything else keeps syncing.
  public var refusedCommits: [ReplicaCommitID] = []

  public init() {}
}
