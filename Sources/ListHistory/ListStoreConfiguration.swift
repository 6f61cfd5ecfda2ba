/// How a ``ListStore`` keeps its history: in-memory checkpoints for time travel, checkpoint
/// records in the stream it encodes, and the clock that stamps versions.
///
/// Every store entry point takes one (``ListStore/init(configuration:)``,
/// ``ListStore/init(codec:sink:configuration:)``, and the journal's `JournalStore.open`
/// through its own configuration); each default is defined here once.
///
/// ```swift
/// var configuration = ListStoreConfiguration()
/// configuration.checkpointBudget = .bytes(32 << 20)          // a phone
/// configuration.clock = { 0 }                                // reproducible timestamps
/// let store = ListStore<String, Row>(configuration: configuration)
/// ```
public struct ListStoreConfiguration: Sendable {
  /// The default ``checkpointInterval``: 4,096 events.
  public static let defaultCheckpointInterval = 4_096
  /// The default ``journalCheckpointBytes``: 256 KiB of encoded records.
  public static let defaultJournalCheckpointBytes = 256 * 1024

  /// The minimum number of events between in-memory checkpoints along a branch.
  ///
  /// Time travel replays fewer than twice the current interval's events (plus one transaction),
  /// from the nearer of the checkpoints before and after the version, so about a quarter of
  /// the interval on average. Each checkpoint holds up to one snapshot's worth of changed
  /// nodes — on a large list close to a whole copy of its nodes, which every later change
  /// also pays to copy.
  public var checkpointInterval: Int
  /// The estimated memory the in-memory checkpoints may hold; when a new one would exceed it,
  /// the interval doubles and every other checkpoint is dropped (see ``CheckpointBudget``).
  /// The default, 256 MiB, bounds memory however long the history.
  public var checkpointBudget: CheckpointBudget
  /// For a store that encodes its changes: after this many encoded payload bytes it writes a
  /// checkpoint record (and resets the codec's intern tables), so readers can start there.
  public var journalCheckpointBytes: Int
  /// Seconds since 1970 for version timestamps (rounded to milliseconds); fix it for
  /// reproducible histories and files.
  public var clock: @Sendable () -> Double

  /// The library's defaults, with those given changed.
  @inlinable
  public init(
    checkpointInterval: Int = ListStoreConfiguration.defaultCheckpointInterval,
    checkpointBudget: CheckpointBudget = .default,
    journalCheckpointBytes: Int = ListStoreConfiguration.defaultJournalCheckpointBytes,
    clock: @escaping @Sendable () -> Double = _systemClock
  ) {
    self.checkpointInterval = checkpointInterval
    self.checkpointBudget = checkpointBudget
    self.journalCheckpointBytes = journalCheckpointBytes
    self.clock = clock
  }
}

extension ListStore {
  /// How a store keeps its history (``ListStoreConfiguration``).
  public typealias Configuration = ListStoreConfiguration
}
