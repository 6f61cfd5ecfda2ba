import Dispatch
import ListLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The single writer of a journal: appends records as checksummed zstd chunks with the chosen
/// durability, holding an advisory lock so a second writer is refused.
///
/// Thread-safe (`Sendable` through an internal lock). Any I/O or sync failure closes the writer
/// for good — it never retries a failed `fdatasync`, because after such a failure the kernel may
/// already have dropped the dirty pages. Reopen to continue from what is on disk.
///
/// ```swift
/// var options = JournalOptions()
/// options.durability = .strict
/// let writer = try JournalWriter.create(at: "/tmp/list.journal", options: options)
/// let receipt = try writer.append(JournalRecord(kind: .commit, version: 1, payload: [1, 2, 3]))
/// assert(receipt.isDurable)
/// try writer.close()
/// ```
public final class JournalWriter: Sendable {
  /// The journal's path.
  public let path: String
  /// The journal's salt.
  public let salt: UInt64
  /// The format minor of the file (its header): which record encodings the history layer may
  /// append to it.
  public let formatMinor: UInt16
  /// What opening found at the end of the file (all zero for a new journal).
  public let recovery: JournalRecoveryReport
  /// The options it was opened with (limits, durability, compression).
  @usableFromInline package let options: JournalOptions

  /// The largest payload `append` accepts: the record limit, and room for the record in one
  /// chunk (a record larger than `maxChunkBytes` less its framing would pass the first check and
  /// fail when its chunk is written — which shuts the writer down).
  @usableFromInline
  package var maximumRecordPayload: Int {
    min(options.limits.maxRecordPayload, options.limits.maxChunkBytes - Self.recordFramingAllowance)
  }

  /// Bytes of framing a record may take in a chunk besides its payload (kind, version and
  /// length varints, with room to spare).
  static var recordFramingAllowance: Int { 64 }

  /// Refuses a payload of `count` bytes over ``maximumRecordPayload`` (what `append` checks
  /// first; a sink that defers its appends checks it before deferring).
  @usableFromInline
  package func checkPayloadFits(_ count: Int) throws(JournalError) {
    let limit = maximumRecordPayload
    guard count <= limit else { throw .tooLarge(what: "record payload", size: Int64(count), limit: Int64(limit), offset: nil) }
  }
  let state: ListMutex<_WriterState>
  /// Serializes the syncs that run outside `state`'s lock (grouped durability's shared
  /// `fdatasync`, `sync()`) with each other and with `close()`, so the file is never closed under
  /// a running sync. Lock order: `syncing` before `state`, never the other way round.
  let syncing = ListMutex<Void>(())
  /// A reader of the file as ``open(at:options:createIfMissing:keepingReader:)`` verified it, for the caller
  /// that would otherwise open and verify it again (``takeOpeningReader()``).
  let openingReader = ListMutex<JournalReader?>(nil)
  /// Entered while grouped durability's sync thread writes a chunk without `state`'s lock
  /// (`_WriterState.chunkInFlight`), so a checkpoint append can block until it is written:
  /// entered and left under `state`'s lock together with setting and clearing the flag, at most
  /// one chunk at a time (the sync thread holds `syncing`).
  let chunkWriting = DispatchGroup()

  init(
    path: String, salt: UInt64, formatMinor: UInt16, recovery: JournalRecoveryReport, options: JournalOptions,
    state: consuming _WriterState
  ) {
    self.path = path
    self.salt = salt
    self.formatMinor = formatMinor
    self.recovery = recovery
    self.options = options
    self.state = ListMutex(state)
  }

  deinit {
    // Best effort: an abandoned writer still leaves a journal that reopens cleanly.
    try? close()
  }

  /// Creates a new journal (failing if `path` exists): header written to a temporary file,
  /// synced, renamed into place, directory synced — so `path` never holds a partial header.
  ///
  /// - Complexity: O(1) plus two syncs.
  public static func create(at path: String, options: JournalOptions = JournalOptions()) throws(JournalError) -> JournalWriter {
    try _create(at: path, options: options, firstSequence: 1)
  }

  /// `create`, starting the sequence numbering at `firstSequence` (compaction keeps numbers).
  static func _create(at path: String, options: JournalOptions, firstSequence: UInt64) throws(JournalError) -> JournalWriter {
    let fs = options.fileSystem
    guard !fs.exists(path) else { throw .io(operation: "create (file exists)", path: path, errno: EEXIST) }
    let temporary = path + ".creating-\(UInt32.random(in: 0...UInt32.max))"
    let file = try fs.open(temporary, mode: .createNew)
    do throws(JournalError) {
      guard try file.tryLockExclusive() else { throw .locked(path: temporary) }
      var header = _FileHeader(
        salt: options.fixedSalt.map { max(1, $0) } ?? UInt64.random(in: 1...UInt64.max),
        createdAtNanoseconds: options.fixedCreationTimeNanoseconds ?? _nowNanoseconds())
      header.minor = options.formatMinor
      try file.write(header.encode(), at: 0)
      try file.sync(dataOnly: false)
      try fs.rename(temporary, to: path)
      try fs.syncDirectory(containing: path)
      let compressor = try _ZstdCompressor(level: options.compressionLevel)
      let state = _WriterState(
        file: file, compressor: compressor, endOffset: Int64(_FileHeader.size), lastChunk: nil, nextSequence: firstSequence,
        lastVersion: nil)
      return JournalWriter(
        path: path, salt: header.salt, formatMinor: header.minor,
        recovery: JournalRecoveryReport(validBytes: Int64(_FileHeader.size), tornTailBytes: 0), options: options, state: state)
    } catch {
      file.close()
      try? fs.remove(temporary)
      throw error
    }
  }

  /// Opens an existing journal for appending: takes the lock, verifies every chunk, drops a torn
  /// tail (truncating and syncing before anything new is written) and continues in a new zstd
  /// frame. Mid-file corruption throws `.corrupted` — use `JournalRepair.repair(at:)`.
  ///
  /// - Complexity: O(file size) checksum work.
  ///
  /// - Parameter keepingReader: keep a reader of the file as verified, for
  ///   ``takeOpeningReader()`` (it holds the file's mapping until taken).
  public static func open(
    at path: String, options: JournalOptions = JournalOptions(), createIfMissing: Bool = false,
    keepingReader: Bool = false
  ) throws(JournalError) -> JournalWriter {
    let fs = options.fileSystem
    if createIfMissing && !fs.exists(path) { return try create(at: path, options: options) }
    let file = try fs.open(path, mode: .readWrite)
    do throws(JournalError) {
      guard try file.tryLockExclusive() else { throw .locked(path: path) }
      let size = try file.size()
      guard size >= Int64(_FileHeader.size) else { throw .notAJournal(path: path) }
      // A mapping holds the descriptor it was made from, and with it the writer's lock: the
      // one a kept reader holds comes from a descriptor of its own.
      let mapped: JournalMappedBytes
      if keepingReader {
        let readOnly = try fs.open(path, mode: .read)
        defer { readOnly.close() }
        mapped = try readOnly.mapReadOnly(length: Int(size))
      } else {
        mapped = try file.mapReadOnly(length: Int(size))
      }
      let (header, scan) = try mapped.withBytes { (raw) throws(JournalError) in
        let header = try _FileHeader.decode(raw, path: path)
        return (header, _Scanner.scan(raw, salt: header.salt, limits: options.limits))
      }
      if let corruption = scan.corruption { throw corruption }
      let recovery = JournalRecoveryReport(
        validBytes: Int64(scan.validEnd), tornTailBytes: size - Int64(scan.validEnd), tornTailReason: scan.tornTailReason)
      if recovery.tornTailBytes > 0 {
        // Never write after garbage: cut the tail and make the cut durable first.
        try file.truncate(to: Int64(scan.validEnd))
        try file.sync(dataOnly: false)
      }
      let compressor = try _ZstdCompressor(level: options.compressionLevel)
      let next = scan.nextSequence ?? 1
      let state = _WriterState(
        file: file, compressor: compressor, endOffset: Int64(scan.validEnd),
        lastChunk: scan.lastChunk.map { (Int64($0.offset), $0.checksum) }, nextSequence: next, lastVersion: scan.lastVersion)
      let writer = JournalWriter(
        path: path, salt: header.salt, formatMinor: header.minor, recovery: recovery, options: options, state: state)
      try writer._carryStagedRecords()
      // The file as scanned, when nothing changed it since: no cut tail, no carried records.
      if keepingReader && recovery.tornTailBytes == 0 && writer.nextSequence == next {
        writer.openingReader.withLock {
          $0 = JournalReader(path: path, header: header, scan: scan, bytes: mapped, limits: options.limits)
        }
      }
      return writer
    } catch {
      file.close()
      throw error
    }
  }

  /// A reader of the journal as opening the writer verified it — the same as
  /// `JournalReader.open(at:limits:fileSystem:)` would give right after, without verifying every
  /// chunk again; once, and nil when opening changed the file (a cut torn tail, carried staged
  /// records), for a created journal, or without `keepingReader`.
  public func takeOpeningReader() -> JournalReader? {
    openingReader.withLock { reader in
      defer { reader = nil }
      return reader
    }
  }

  /// Where a journal's staging log lives (see ``JournalOptions/stagingBatchRecords``).
  public static func stagingPath(for path: String) -> String { path + ".staging" }

  /// Highest sequence known durable (fdatasync returned after it was written).
  public var durableSequence: UInt64 { state.withLock { $0.durableSequence } }

  /// Sequence the next append will get.
  public var nextSequence: UInt64 { state.withLock { $0.nextSequence } }

  /// Version of the last appended record.
  public var lastVersion: UInt64? { state.withLock { $0.lastVersion } }

  /// Whether the writer has stopped (closed or failed).
  public var isClosed: Bool { state.withLock { $0.closedReason != nil } }

  /// What identifies the journal's bytes written so far (after ``close()``: the whole file).
  /// Meaningful for a writer that closed cleanly; after a failed write the file may end
  /// elsewhere.
  public var prefix: JournalPrefix {
    state.withLock { s in
      JournalPrefix(
        salt: salt, length: s.endOffset, lastSequence: s.journalWrittenSequence, lastChunkOffset: s.lastChunk?.offset ?? 0,
        lastChunkChecksum: s.lastChunk?.checksum ?? 0)
    }
  }
}

func _nowNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
