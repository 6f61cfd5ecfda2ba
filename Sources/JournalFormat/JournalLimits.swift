/// Caps that bound every length and allocation taken from a journal file.
///
/// A journal someone sends you is untrusted: readers validate every length against these caps
/// before allocating, and decompression never produces more than `maxChunkBytes` per chunk or
/// `maxFrameBytes` per frame.
///
/// ```swift
/// var limits = JournalLimits()
/// limits.maxRecordPayload = 1 << 20
/// ```
public struct JournalLimits: Sendable, Hashable {
  /// Largest payload a writer accepts and a reader believes (default 48 MiB: a full-state
  /// checkpoint of a list of about four million small items). A record travels in one chunk,
  /// so a writer also refuses one that would not fit in `maxChunkBytes`.
  public var maxRecordPayload: Int = 48 << 20
  /// Largest compressed or uncompressed size of one chunk (default 64 MiB).
  public var maxChunkBytes: Int = 64 << 20
  /// Largest uncompressed size of one zstd frame (default 256 MiB).
  public var maxFrameBytes: Int = 256 << 20

  public init() {}
}
