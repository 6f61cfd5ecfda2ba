/// Where a journal's checkpoint budget stands: the bytes of records written since the last
/// full-state checkpoint, and that checkpoint's size. The one rule of the synchronous store, the
/// background encoder and a replay that continues a stream.
///
/// A checkpoint is due once the bytes since the last one reach the budget, and never before
/// ``sizeFactor`` times the last checkpoint's size: a large list's full-state checkpoints then do
/// not dominate the journal — about 1/(factor + 1) of its payload on a list of steady size, more
/// on a growing one (each checkpoint is larger than the last; ~47% on an append-only list with a
/// factor of 4). Scaling the budget by the list's growth was tried: on an append-only list no
/// checkpoint would ever be due again, so open and time travel would replay everything.
///
/// ```swift
/// var spacing = _CheckpointSpacing()
/// spacing.add(recordOf: 300)
/// if spacing.isDue(budget: 256 * 1024) { /* write a checkpoint of n bytes */ spacing.restart(afterCheckpointOf: n, written: true) }
/// ```
/// - Complexity: O(1) per call.
@usableFromInline
struct _CheckpointSpacing: Sendable, Equatable {
  /// 8: at 4, checkpoints were a quarter of a long mixed journal's bytes; at 8 a travel in the
  /// file decodes about twice as much. See Tools/Benchmarks/README.md, Journal size.
  @inlinable
  static var sizeFactor: Int { 8 }

  /// Encoded bytes of the records since the last checkpoint.
  @usableFromInline var bytesSinceCheckpoint = 0
  /// Payload size of the last checkpoint record, or of a larger one that could not be written.
  @usableFromInline var lastCheckpointBytes = 0

  @inlinable
  init(bytesSinceCheckpoint: Int = 0, lastCheckpointBytes: Int = 0) {
    self.bytesSinceCheckpoint = bytesSinceCheckpoint
    self.lastCheckpointBytes = lastCheckpointBytes
  }

  /// Whether a checkpoint is due under `budget` (bytes between checkpoints).
  @inlinable
  func isDue(budget: Int) -> Bool {
    bytesSinceCheckpoint >= max(budget, Self.sizeFactor * lastCheckpointBytes)
  }

  /// Counts a record (not a checkpoint) of `bytes`.
  @inlinable
  mutating func add(recordOf bytes: Int) { bytesSinceCheckpoint += bytes }

  /// Starts over after a checkpoint record of `bytes`: one written (or replayed) becomes the
  /// last checkpoint; one skipped (not written, e.g. over the sink's payload limit) only raises
  /// the last size, so the next attempt comes after the budget's distance for a checkpoint that
  /// large.
  @inlinable
  mutating func restart(afterCheckpointOf bytes: Int, written: Bool) {
    lastCheckpointBytes = written ? bytes : max(lastCheckpointBytes, bytes)
    bytesSinceCheckpoint = 0
  }
}
