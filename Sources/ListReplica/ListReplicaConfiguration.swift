import ListHistory

/// How a replica keeps its commits and merges: one value per entry point, like
/// `ListStoreConfiguration`.
///
/// ```swift
/// let replica = ListReplica<String, Row>(configuration: .init(rebaseWindow: 1 << 20))
/// ```
public struct ListReplicaConfiguration: Sendable {
  /// How many of the newest commits keep what applying them changed, so that a commit arriving
  /// out of order (sorting before them) is merged by reverting just those, newest first, and
  /// applying them again. A commit that sorts before the window folds the whole order again
  /// from the base: correct, and O(all commits). Memory: about the size of each commit's
  /// operations again, per commit in the window.
  public var rebaseWindow: Int
  /// Seconds since 1970 (commit timestamps); the system clock by default.
  public var clock: @Sendable () -> Double

  /// The default window: 65,536 commits.
  public static var defaultRebaseWindow: Int { 1 << 16 }

  public init(
    rebaseWindow: Int = ListReplicaConfiguration.defaultRebaseWindow, clock: @escaping @Sendable () -> Double = _systemClock
  ) {
    self.rebaseWindow = rebaseWindow
    self.clock = clock
  }
}
