/// What identifies a journal's bytes up to the end of its last complete chunk: its salt, that
/// length, its last record's sequence and where its last chunk lies, with that chunk's checksum.
///
/// Caches derived from a journal (its read index, `<journal>.index`) record the prefix they were
/// built from; a reader compares it with the journal's own to tell whether the cache still
/// describes it. Appending changes the length, compaction the salt (and so every checksum), and
/// a repair that cuts the file changes the length or the last chunk.
///
/// ```swift
/// let reader = try JournalReader.open(at: path)
/// if reader.prefix == cachedPrefix { print("the cache still describes the journal") }
/// ```
public struct JournalPrefix: Hashable, Sendable {
  /// The journal's salt (its file header; new for every file and every rewrite).
  public var salt: UInt64
  /// Bytes up to the end of the last complete chunk (the file header included).
  public var length: Int64
  /// The sequence of the last record, 0 when there is none.
  public var lastSequence: UInt64
  /// The byte offset of the last complete chunk, 0 when the journal has no chunk.
  public var lastChunkOffset: Int64
  /// That chunk's stored CRC32C (over the salt, its offset, its header and its bytes), 0 when
  /// there is no chunk.
  public var lastChunkChecksum: UInt32

  @inlinable
  public init(salt: UInt64, length: Int64, lastSequence: UInt64, lastChunkOffset: Int64, lastChunkChecksum: UInt32) {
    self.salt = salt
    self.length = length
    self.lastSequence = lastSequence
    self.lastChunkOffset = lastChunkOffset
    self.lastChunkChecksum = lastChunkChecksum
  }
}
