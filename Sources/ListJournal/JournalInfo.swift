/// Facts about a journal file (`listjournal info`): format, sizes, compression, frames,
/// checkpoints, records, versions and events.
///
/// ```swift
/// let info = try JournalHistory.open(at: path).info
/// print("\(info.eventCount) events in \(info.fileBytes) bytes (\(info.bytesPerEvent) B/event)")
/// ```
public struct JournalInfo: Hashable, Sendable {
  /// The file's format version, `major.minor`.
  public var formatVersion: String
  /// Size of the file.
  public var fileBytes: Int64
  /// Bytes up to the end of the last complete chunk.
  public var validBytes: Int64
  /// Bytes after `validBytes` ignored as a torn tail.
  public var tornTailBytes: Int64
  /// Compressed bytes of all frames (chunk headers included).
  public var compressedBytes: Int64
  /// Uncompressed bytes of all records.
  public var uncompressedBytes: Int64
  /// `uncompressedBytes / compressedBytes`.
  public var compressionRatio: Double
  /// zstd frames (units of random access).
  public var frameCount: Int
  /// Frames that start with a checkpoint record.
  public var checkpointCount: Int
  /// Records of every kind.
  public var recordCount: UInt64
  /// Commit records (one per version after 0).
  public var commitCount: Int
  /// Undo/redo/checkout records.
  public var headMoveCount: Int
  /// Versions including version 0.
  public var versionCount: Int
  /// Recorded events of all versions.
  public var eventCount: Int
  /// The head version.
  public var head: Version
  /// Creation time of the file, seconds since 1970.
  public var createdAt: Double

  @inlinable
  init(formatVersion: String, fileBytes: Int64, validBytes: Int64, tornTailBytes: Int64, compressedBytes: Int64, uncompressedBytes: Int64, compressionRatio: Double, frameCount: Int, checkpointCount: Int, recordCount: UInt64, commitCount: Int, headMoveCount: Int, versionCount: Int, eventCount: Int, head: Version, createdAt: Double) {
    self.formatVersion = formatVersion
    self.fileBytes = fileBytes
    self.validBytes = validBytes
    self.tornTailBytes = tornTailBytes
    self.compressedBytes = compressedBytes
    self.uncompressedBytes = uncompressedBytes
    self.compressionRatio = compressionRatio
    self.frameCount = frameCount
    self.checkpointCount = checkpointCount
    self.recordCount = recordCount
    self.commitCount = commitCount
    self.headMoveCount = headMoveCount
    self.versionCount = versionCount
    self.eventCount = eventCount
    self.head = head
    self.createdAt = createdAt
  }

  /// The facts of the file `reader` read, with the history's counts.
  @inlinable
  init(reader: JournalReader, versionCount: Int, eventCount: Int, head: Version, commitCount: Int, headMoveCount: Int) {
    let compressed = reader.frames.reduce(Int64(0)) { $0 + $1.byteCount }
    let uncompressed = reader.frames.reduce(Int64(0)) { $0 + $1.uncompressedBytes }
    self.init(
      formatVersion: "\(reader.formatMajor).\(reader.formatMinor)",
      fileBytes: reader.recovery.validBytes + reader.recovery.tornTailBytes, validBytes: reader.recovery.validBytes,
      tornTailBytes: reader.recovery.tornTailBytes, compressedBytes: compressed, uncompressedBytes: uncompressed,
      compressionRatio: compressed == 0 ? 0 : Double(uncompressed) / Double(compressed), frameCount: reader.frames.count,
      checkpointCount: reader.frames.filter(\.startsWithCheckpoint).count, recordCount: reader.recordCount,
      commitCount: commitCount, headMoveCount: headMoveCount, versionCount: versionCount, eventCount: eventCount,
      head: head, createdAt: Double(reader.createdAtNanoseconds) / 1e9)
  }

  /// File bytes per event (0 without events).
  @inlinable
  public var bytesPerEvent: Double { eventCount == 0 ? 0 : Double(fileBytes) / Double(eventCount) }
}
