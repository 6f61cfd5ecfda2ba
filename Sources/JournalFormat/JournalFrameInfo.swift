/// One zstd frame of a journal: the unit of random access, found in the index.
///
/// Decoding a frame needs only the frame's own bytes, so time travel is "pick a frame, decode
/// it": at most about `JournalOptions.frameTargetBytes` of decompression.
///
/// ```swift
/// let reader = try JournalReader.open(at: path)
/// for frame in reader.frames where frame.startsWithCheckpoint { print(frame.firstVersion) }
/// ```
public struct JournalFrameInfo: Sendable, Hashable {
  /// Byte offset of the frame's first chunk header.
  public var offset: Int64
  /// Bytes the frame's chunks occupy in the file (headers included).
  public var byteCount: Int64
  /// Number of chunks.
  public var chunkCount: Int
  /// Sum of the chunks' uncompressed sizes.
  public var uncompressedBytes: Int64
  /// Sequence of the first record (or of the next record for an empty frame).
  public var firstSequence: UInt64
  /// Records in the frame.
  public var recordCount: UInt64
  /// Version of the first record.
  public var firstVersion: UInt64
  /// Version of the last record.
  public var lastVersion: UInt64
  /// Whether the first record is a checkpoint.
  public var startsWithCheckpoint: Bool
  /// Whether the zstd frame is terminated (its content checksum present); a frame left open by
  /// a crash or a torn tail is still fully readable.
  public var isTerminated: Bool
}
