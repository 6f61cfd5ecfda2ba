/// When appended records reach stable storage.
///
/// ```swift
/// var options = JournalOptions()
/// options.durability = .grouped(maxDelayMilliseconds: 5, maxBytes: 64 * 1024)
/// ```
public enum JournalDurability: Sendable, Hashable {
  /// Every append is its own chunk, written and `fdatasync`ed before `append` returns.
  case strict
  /// Appends are buffered and written as one chunk with one shared `fdatasync` when `maxBytes`
  /// of uncompressed records are pending or `maxDelayMilliseconds` after the first pending one.
  /// The sync runs on another thread without holding the writer's lock: an append never waits
  /// for the disk (nor, unless it appends a checkpoint, for the compression of a chunk that thread
  /// writes).
  case grouped(maxDelayMilliseconds: Int, maxBytes: Int)
  /// Every append is written to the page cache as its own chunk, never synced until `sync()` or
  /// `close()`: survives a process crash, not a power loss.
  ///
  /// Appends are deliberately not batched in memory: "in the page cache when `append` returns"
  /// is what makes a commit survive a crash of the process and visible to a concurrent reader.
  /// The price is one `pwrite` and one zstd flush (a small block, ~70 bytes on disk with its
  /// chunk header) per append; callers that can wait for an acknowledgement should use
  /// `grouped`, which shares chunks and syncs.
  case relaxed

  /// `grouped` with the defaults: 5 ms or 64 KiB.
  public static var grouped: JournalDurability { .grouped(maxDelayMilliseconds: 5, maxBytes: 64 * 1024) }
}
