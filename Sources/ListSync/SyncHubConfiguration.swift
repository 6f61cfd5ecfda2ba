/// The hub's limits and access policy.
///
/// ```swift
/// var configuration = SyncHubConfiguration()
/// configuration.accessPolicy = try SyncAccessPolicy.load(from: "/etc/lists/tokens.json")
/// configuration.maxFrameBytes = 4 << 20
/// ```
public struct SyncHubConfiguration: Sendable {
  /// The largest frame accepted; a larger one gets `error` 2 and the connection is closed (1009).
  public var maxFrameBytes: Int = 16 << 20
  /// The most commits one push may carry; more gets `error` 2 and the connection is closed.
  public var maxCommitsPerPush: Int = 65_536
  /// The most pushes of one session waiting for their group commit; past it the session stops
  /// reading the connection until the oldest is answered.
  public var maxPushesInFlight: Int = 64
  /// How long a group commit waits for more pushes before appending (zero: pushes that arrive
  /// while an append is in flight are grouped, nothing more).
  public var groupCommitDelay: Duration = .zero
  /// The most frames queued for one session; a session further behind is disconnected and
  /// catches up when it reconnects.
  public var maxQueuedFrames: Int = 4096
  /// How long a list with no session and no read in progress stays in memory (its identities,
  /// vector and read model) before the hub lets it go; it is loaded from storage again on next
  /// use. Nil keeps every list loaded.
  public var idleListTimeout: Duration? = .seconds(300)
  /// Who may read and write which list.
  public var accessPolicy: SyncAccessPolicy = .open

  public init() {}
}
