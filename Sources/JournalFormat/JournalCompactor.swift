/// Rewrites a journal: recompresses every frame at a higher zstd level, optionally replacing the
/// history before a version by one checkpoint, and swaps the result in atomically
/// (temporary file + fsync + rename + directory fsync).
///
/// The byte layer does not understand payloads: dropping history is driven by the history
/// layer, which supplies the checkpoint payload through `dropHistory`.
///
/// ```swift
/// let report = try JournalCompactor.compact(at: path, level: 19) { reader in
///   JournalCompactor.Cut(version: 1000, checkpointPayload: try encodeState(at: 1000, from: reader))
/// }
/// ```
public enum JournalCompactor {
  /// Drop every record with `version <= version`, starting the journal with a checkpoint.
  public struct Cut: Sendable, Hashable {
    public var version: UInt64
    public var checkpointPayload: [UInt8]
    public init(version: UInt64, checkpointPayload: [UInt8]) {
      self.version = version
      self.checkpointPayload = checkpointPayload
    }
  }

  /// What a compaction did.
  public struct Report: Sendable, Hashable {
    public var bytesBefore: Int64
    public var bytesAfter: Int64
    public var recordsBefore: UInt64
    public var recordsAfter: UInt64
  }

  /// Compacts `path`; refuses while a writer holds the lock, and refuses a corrupted journal.
  /// If anything fails before the rename, the original is untouched.
  ///
  /// With a cut, the checkpoint takes the sequence number of the last dropped record so later
  /// records keep theirs.
  ///
  /// - Complexity: O(journal size) decode plus recompression.
  public static func compact(
    at path: String, level: Int32 = 19, options: JournalOptions = JournalOptions(),
    dropHistory: ((JournalReader) throws(JournalError) -> Cut?)? = nil
  ) throws(JournalError) -> Report {
    let fs = options.fileSystem
    let lockFile = try fs.open(path, mode: .readWrite)
    defer { lockFile.close() }
    guard try lockFile.tryLockExclusive() else { throw .locked(path: path) }
    let reader = try JournalReader.open(at: path, limits: options.limits, fileSystem: fs)
    let cut = try dropHistory?(reader)

    var firstSequence = reader.frames.first?.firstSequence ?? 1
    var iterator = reader.makeIterator()
    var firstKept: JournalRecord?
    if let cut {
      var dropped = false
      while let record = try iterator.next() {
        if record.version > cut.version {
          firstKept = record
          break
        }
        dropped = true
        firstSequence = record.sequence
      }
      guard dropped else { throw .invalidArgument("compaction cut at version \(cut.version) drops no record") }
    }

    var writeOptions = options
    writeOptions.compressionLevel = level
    // The rewrite announces the original's minor: its records keep their encodings.
    writeOptions.formatMinor = reader.formatMinor
    // One chunk per frame: with no per-commit flushes the recompressed frames are smallest.
    writeOptions.durability = .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: options.frameTargetBytes)
    writeOptions.onDurable = nil
    let temporary = path + ".compact-\(_nowNanoseconds())"
    let writer = try JournalWriter._create(at: temporary, options: writeOptions, firstSequence: firstSequence)
    do throws(JournalError) {
      if let cut { try writer.appendCheckpoint(version: cut.version, payload: cut.checkpointPayload) }
      if let firstKept { try writer.append(firstKept) }
      while let record = try iterator.next() { try writer.append(record) }
      try writer.close()
      let after = try JournalReader.open(at: temporary, limits: options.limits, fileSystem: fs)
      let bytesAfter = after.recovery.validBytes
      let recordsAfter = after.recordCount
      try fs.rename(temporary, to: path)
      try fs.syncDirectory(containing: path)
      return Report(bytesBefore: reader.recovery.validBytes, bytesAfter: bytesAfter, recordsBefore: reader.recordCount, recordsAfter: recordsAfter)
    } catch {
      try? writer.close()
      try? fs.remove(temporary)
      throw error
    }
  }
}
