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
    try compact(at: path, level: level, options: options, dropHistory: dropHistory, progress: nil)
  }

  /// ``compact(at:level:options:dropHistory:)``, telling `progress` (records rewritten, records
  /// in the journal) every 1,024 records and at the end: for a tool's progress bar (level 19
  /// recompresses a few megabytes a second).
  package static func compact(
    at path: String, level: Int32 = 19, options: JournalOptions = JournalOptions(),
    dropHistory: ((JournalReader) throws(JournalError) -> Cut?)? = nil,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalError) -> Report {
    let fs = options.fileSystem
    let (lockFile, reader) = try lockForRewrite(path, options: options)
    defer { lockFile.close() }
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

    let temporary = path + ".compact-\(_nowNanoseconds())"
    let writer = try JournalWriter._create(
      at: temporary, options: rewriteOptions(options, level: level, of: reader), firstSequence: firstSequence)
    do throws(JournalError) {
      if let cut { try writer.appendCheckpoint(version: cut.version, payload: cut.checkpointPayload) }
      if let firstKept { try writer.append(firstKept) }
      let total = Int(reader.recordCount)
      var done = 0
      progress?(0, total)
      while let record = try iterator.next() {
        try writer.append(record)
        done += 1
        if done & 1023 == 0 { progress?(done, total) }
      }
      try writer.close()
      progress?(total, total)
      let after = try JournalReader.open(at: temporary, limits: options.limits, fileSystem: fs)
      let bytesAfter = after.recovery.validBytes
      let recordsAfter = after.recordCount
      // The read index of the original still holds this history (without a cut): it now
      // describes the rewrite. Read before the rename, written after it (best effort).
      let indexPath = JournalReadIndexFile.path(forJournal: path)
      let index = cut == nil ? (try? JournalReadIndexFile.read(at: indexPath, fileSystem: fs)) : nil
      try fs.rename(temporary, to: path)
      try fs.syncDirectory(containing: path)
      if let index, index.journal == reader.prefix {
        try? JournalReadIndexFile.write(index.describing(after.prefix), at: indexPath, fileSystem: fs)
      }
      return Report(bytesBefore: reader.recovery.validBytes, bytesAfter: bytesAfter, recordsBefore: reader.recordCount, recordsAfter: recordsAfter)
    } catch {
      try? writer.close()
      try? fs.remove(temporary)
      throw error
    }
  }

  /// Carries what a crash left in the staging log into the journal (a rewrite's new salt would
  /// orphan it), takes the journal's exclusive lock — held while the returned handle is open —
  /// and opens a reader: how every rewrite starts.
  static func lockForRewrite(
    _ path: String, options: JournalOptions
  ) throws(JournalError) -> (lock: any JournalFileHandle, reader: JournalReader) {
    let fs = options.fileSystem
    if fs.exists(JournalWriter.stagingPath(for: path)) { try JournalWriter.open(at: path, options: options).close() }
    let lockFile = try fs.open(path, mode: .readWrite)
    do throws(JournalError) {
      guard try lockFile.tryLockExclusive() else { throw .locked(path: path) }
      return (lockFile, try JournalReader.open(at: path, limits: options.limits, fileSystem: fs))
    } catch {
      lockFile.close()
      throw error
    }
  }

  /// The options a rewrite of `reader`'s journal writes with.
  static func rewriteOptions(_ options: JournalOptions, level: Int32, of reader: JournalReader) -> JournalOptions {
    var writeOptions = options
    writeOptions.compressionLevel = level
    // The rewrite announces the original's minor: its records keep their encodings.
    writeOptions.formatMinor = reader.formatMinor
    // One chunk per frame: with no per-commit flushes the recompressed frames are smallest.
    writeOptions.durability = .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: options.frameTargetBytes)
    writeOptions.onDurable = nil
    return writeOptions
  }
}
