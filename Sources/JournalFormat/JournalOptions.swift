/// Options for opening or creating a journal writer or reader.
///
/// ```swift
/// var options = JournalOptions()
/// options.durability = .strict
/// options.onDurable = { sequence in acknowledge(upTo: sequence) }
/// let writer = try JournalWriter.create(at: "/tmp/list.journal", options: options)
/// ```
public struct JournalOptions: Sendable {
  /// When records reach stable storage (default `.grouped`).
  public var durability: JournalDurability = .grouped
  /// zstd level for new frames (default 6). Journals are many small records flushed in small
  /// chunks, where level 6's lazy matching finds more than lower levels for little more time
  /// per record (see Tools/Benchmarks/README.md, "Encoding size").
  public var compressionLevel: Int32 = 6
  /// A zstd frame ends once it holds this many uncompressed bytes (default 256 KiB), so random
  /// access never decodes more than about this much.
  public var frameTargetBytes: Int = 256 * 1024
  /// Small appends are staged (0, the default: off). With N > 0, a chunk of a few records
  /// (at most 4 KiB of them) goes to the journal's staging log `<path>.staging`, synced there
  /// as ``durability`` says, and every N staged records are carried into the journal as one
  /// chunk — at ``JournalWriter/close()`` and before a checkpoint too. An app that commits
  /// every few seconds, each commit flushed on its own, then pays the 48-byte chunk header and
  /// zstd's flush once per N commits instead of once per commit. Durability is the same: a
  /// staged record is reported durable once the staging log's sync covers it, and the next
  /// writer to open the journal carries what a crash left staged into it. Readers in other
  /// processes see staged records once they reach the journal (64: about 4 KiB of small chunks
  /// at most wait there).
  public var stagingBatchRecords: Int = 0
  /// Caps applied to everything read from the file.
  public var limits = JournalLimits()
  /// The file layer; swap in `FaultInjectingFileSystem` (`JournalFormatTesting`) in tests.
  public var fileSystem: any JournalFileSystem = POSIXFileSystem()
  /// Called (outside the writer's lock) with the highest durable sequence whenever it advances.
  public var onDurable: (@Sendable (UInt64) -> Void)?
  /// A fixed salt for a new journal instead of a random one (nil: random). Only for reproducible
  /// files such as golden journals: two journals with the same salt accept each other's chunks.
  public var fixedSalt: UInt64?
  /// A fixed creation time (nanoseconds since 1970) for a new journal's header (nil: now).
  public var fixedCreationTimeNanoseconds: Int64?
  /// The format minor a new journal's header announces (default: the newest, 1). The byte
  /// layer is the same in every 1.x; the minor tells the history layer which record encodings
  /// it may append (1.0: the original ones, so older 1.x readers can read the file). Appending
  /// to an existing journal keeps its minor.
  public var formatMinor: UInt16 = JournalOptions.newestFormatMinor {
    didSet { formatMinor = min(formatMinor, Self.newestFormatMinor) }
  }

  /// Whether a journal-backed store writes the journal's read index (`<path>.index`, a cache
  /// for readers that would otherwise replay the whole history) when it closes cleanly
  /// (default true). The journal never depends on it.
  public var writesReadIndex = true

  /// The newest format minor this library writes.
  public static var newestFormatMinor: UInt16 { _FileHeader.currentMinor }

  public init() {}
}
