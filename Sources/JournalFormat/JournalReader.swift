/// A read-only view of a journal: the frame index, recovery report and record iteration.
///
/// Opening takes no lock, so a reader can open a journal a writer is appending to; it sees the
/// consistent prefix of complete chunks that existed when it opened (a chunk being written at
/// that moment looks like a torn tail and is ignored, never returned half-way).
///
/// ```swift
/// let reader = try JournalReader.open(at: path)
/// var records = reader.makeIterator()
/// while let record = try records.next() { apply(record) }
/// ```
public final class JournalReader: Sendable {
  /// The path opened.
  public let path: String
  /// Format major version of the file.
  public let formatMajor: UInt16
  /// Format minor version of the file.
  public let formatMinor: UInt16
  /// The per-journal random salt mixed into every chunk checksum.
  public let salt: UInt64
  /// Creation time, nanoseconds since 1970.
  public let createdAtNanoseconds: Int64
  /// For a staging log, the salt of the journal it belongs to; zero for a journal.
  let linkedSalt: UInt64
  /// The frame index, in file order.
  public let frames: [JournalFrameInfo]
  /// What the end of the file looked like.
  public let recovery: JournalRecoveryReport
  /// Sequence the next appended record would get (1 for an empty journal).
  public let nextSequence: UInt64
  /// Version of the last record, nil when empty.
  public let lastVersion: UInt64?
  /// What identifies the readable prefix (up to ``JournalRecoveryReport/validBytes``): for
  /// caches derived from it, such as the read index.
  public let prefix: JournalPrefix
  let limits: JournalLimits
  let bytes: JournalMappedBytes

  init(path: String, header: _FileHeader, scan: _Scanner.Result, bytes: JournalMappedBytes, limits: JournalLimits) {
    self.path = path
    formatMajor = header.major
    formatMinor = header.minor
    salt = header.salt
    createdAtNanoseconds = header.createdAtNanoseconds
    linkedSalt = header.linkedSalt
    frames = scan.frames
    recovery = JournalRecoveryReport(
      validBytes: Int64(scan.validEnd), tornTailBytes: Int64(bytes.count - scan.validEnd),
      tornTailReason: scan.tornTailReason, corruption: scan.corruption)
    nextSequence = scan.nextSequence ?? (scan.frames.first?.firstSequence ?? 1)
    lastVersion = scan.lastVersion
    prefix = JournalPrefix(
      salt: header.salt, length: Int64(scan.validEnd), lastSequence: nextSequence &- 1,
      lastChunkOffset: Int64(scan.lastChunk?.offset ?? 0), lastChunkChecksum: scan.lastChunk?.checksum ?? 0)
    self.limits = limits
    self.bytes = bytes
  }

  /// Opens and indexes a journal, verifying every chunk checksum (no decompression).
  ///
  /// A torn tail is ignored and reported in `recovery`. Mid-file corruption throws
  /// `JournalError.corrupted` naming the offset, unless `tolerateCorruption` is true: then the
  /// reader exposes the valid prefix and records the error in `recovery.corruption`.
  ///
  /// ```swift
  /// let reader = try JournalReader.open(at: path, tolerateCorruption: true)
  /// if let damage = reader.recovery.corruption { print(damage) }
  /// ```
  /// - Complexity: O(file size) checksum work.
  public static func open(
    at path: String, limits: JournalLimits = JournalLimits(),
    fileSystem: any JournalFileSystem = POSIXFileSystem(), tolerateCorruption: Bool = false
  ) throws(JournalError) -> JournalReader {
    let file = try fileSystem.open(path, mode: .read)
    defer { file.close() }
    let size = try file.size()
    guard size >= Int64(_FileHeader.size) else { throw .notAJournal(path: path) }
    guard size <= Int64(Int.max / 2) else { throw .tooLarge(what: "journal file", size: size, limit: Int64(Int.max / 2), offset: nil) }
    let bytes = try file.mapReadOnly(length: Int(size))
    let (header, scan) = try bytes.withBytes { (raw) throws(JournalError) in
      let header = try _FileHeader.decode(raw, path: path)
      return (header, _Scanner.scan(raw, salt: header.salt, limits: limits))
    }
    if let corruption = scan.corruption, !tolerateCorruption { throw corruption }
    return JournalReader(path: path, header: header, scan: scan, bytes: bytes, limits: limits)
  }

  /// Number of records in the readable prefix.
  ///
  /// - Complexity: O(frames).
  public var recordCount: UInt64 { frames.reduce(0) { $0 + $1.recordCount } }

  /// An iterator over all records from frame `frameIndex` on.
  ///
  /// - Complexity: O(1); iteration decodes one chunk at a time.
  public func makeIterator(fromFrame frameIndex: Int = 0) -> JournalRecordIterator {
    JournalRecordIterator(reader: self, frameIndex: frameIndex)
  }

  /// Every record, decoded and verified.
  ///
  /// - Complexity: O(file size + decoded size).
  public func readAll() throws(JournalError) -> [JournalRecord] {
    var records: [JournalRecord] = []
    var iterator = makeIterator()
    while let record = try iterator.next() { records.append(record) }
    return records
  }
}
