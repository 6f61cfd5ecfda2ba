import ListReplica

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
  /// What one push may expand to, checked before decoding allocates: decompressed bytes
  /// (32 MiB), labels (64 KiB), operations per commit (100,000) and how far a commit's Lamport
  /// clock may run ahead of the list's highest (2^32). Its `maxCommits` is `maxCommitsPerPush`.
  /// Over a limit: `error` 10 and the connection is closed (1009).
  public var batchLimits = ReplicaBatchLimits(maxDecodedBytes: 32 << 20, maxOperationsPerCommit: 100_000)
  /// The most bytes one commit may take once encoded alone (as it is stored): 1 MiB.
  public var maxCommitBytes: Int = 1 << 20
  /// The most commit bytes one catch-up or fan-out frame carries (a frame holds at least one
  /// commit): every list stays joinable by a client that reads messages of 64 MiB.
  public var maxCommitsFrameBytes: Int = 4 << 20
  /// The most bytes queued for one session (frames waiting and the one being written); a session
  /// further behind is disconnected (1008) like one over `maxQueuedFrames`. A joining session's
  /// catch-up stays within it too: it is read from storage a frame at a time as the queue drains.
  public var maxQueuedBytes: Int = 64 << 20
  /// Who may read and write which list.
  public var accessPolicy: SyncAccessPolicy = .open

  public init() {}
}
