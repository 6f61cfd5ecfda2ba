import JournalFormat
import ListHistory

/// How a ``JournalStore`` opens its file and writes to it: durability, file-layer options,
/// deferred writes, the durability callback, and the store's own ``ListStoreConfiguration``.
///
/// ```swift
/// var configuration = JournalStoreConfiguration(durability: .relaxed, defersWrites: true)
/// configuration.store.clock = { 0 }                 // reproducible files
/// configuration.options.compressionLevel = 3
/// let journal = try JournalStore<String, Row>.open(at: path, configuration: configuration)
/// ```
public struct JournalStoreConfiguration: Sendable {
  /// When commits reach stable storage (see ``JournalDurability``). Replaces `options.durability`.
  public var durability: JournalDurability
  /// Whether a missing file is created (`true`, the default) or refused.
  public var createIfMissing: Bool
  /// File-layer options: compression level, frame size, limits, and a file system for fault
  /// injection. Its `durability` and `onDurable` are replaced by this configuration's.
  public var options: JournalOptions
  /// The store's in-memory checkpoints, the spacing of checkpoint records in the file
  /// (``ListStoreConfiguration/journalCheckpointBytes``: each starts a zstd frame, and time
  /// travel in the file decodes from the nearest one; never less than 8× the last checkpoint's
  /// own size, so a large list's full states stay a small part of the file), and the clock.
  public var store: ListStoreConfiguration
  /// Hold the records of changes in memory and write them together — one chunk, one zstd
  /// flush, one `write` — at `flush()`, `sync()`, `close()` or once 64 KiB are held, instead of
  /// one append per change.
  ///
  /// That per-append work is most of a small commit's cost with `.relaxed`. Each full 64 KiB
  /// batch is compressed and written on a background thread, in order, while the store goes on
  /// committing (at most four batches wait for it; beyond that a change waits for room).
  ///
  /// The price: a held-back change is visible in the store but not yet in the file, so a crash
  /// of the process loses it (it was never durable) and other readers do not see it; call
  /// `flush()` before telling anyone. A failed deferred write is kept (an I/O error also closes
  /// the writer): the next change fails with it, as does every later change, `flush()`,
  /// `sync()` and `close()`; the held-back changes from the failed batch on never reach the
  /// file. A record over the writer's limit is refused at once instead (its change fails,
  /// nothing else; a checkpoint that large is skipped).
  ///
  /// With `.relaxed` durability the records are also *encoded* on a background queue: a change
  /// only queues its events (an idle encoder is woken every 64 changes, or by `flush()`), and a
  /// record that cannot be encoded fails the encoder: once it has reached that record, every
  /// later change (with a `HistoryError` naming the record), `flush()` and `close()` (as
  /// ``JournalStoreError/history(_:)``) throw it. Changes made meanwhile were accepted and are
  /// lost with it; the records before it are written by the next `flush()` or `close()`.
  /// Checkpoint records then follow the record at which they became due by a lag (longer for
  /// larger lists), chosen from the records alone: the file does not depend on timing.
  public var defersWrites: Bool
  /// Called (on an arbitrary thread) with the newest durable version whenever it advances.
  ///
  /// With `.strict` it runs inside the commit, while the store's lock is held: don't read or
  /// change the store from it (`flush()` is fine). With `defersWrites` and `.strict` that thread
  /// may be the background writer's: calling `flush()`, `sync()` or `close()` from the callback
  /// would then wait for the callback itself.
  public var onDurable: (@Sendable (Version) -> Void)?
  /// When the history older than the head is read: at open (a replay of the whole journal), or
  /// when first needed, opening from the read index (``JournalHistoryLoading``; the default).
  public var historyLoading: JournalHistoryLoading

  /// The library's defaults, with those given changed.
  @inlinable
  public init(
    durability: JournalDurability = .grouped, createIfMissing: Bool = true, options: JournalOptions = JournalOptions(),
    store: ListStoreConfiguration = ListStoreConfiguration(), defersWrites: Bool = false,
    onDurable: (@Sendable (Version) -> Void)? = nil, historyLoading: JournalHistoryLoading = .whenNeeded
  ) {
    self.historyLoading = historyLoading
    self.durability = durability
    self.createIfMissing = createIfMissing
    self.options = options
    self.store = store
    self.defersWrites = defersWrites
    self.onDurable = onDurable
  }
}

extension JournalStore {
  /// How a journal-backed store opens and writes its file (``JournalStoreConfiguration``).
  public typealias Configuration = JournalStoreConfiguration
}
