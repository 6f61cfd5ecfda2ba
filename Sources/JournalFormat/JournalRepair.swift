/// Explicit repair of a journal with mid-file corruption.
///
/// Keeps the valid prefix (every chunk before the first damaged one), saves the damaged original
/// aside as `<path>.damaged-<timestamp>` (never deletes it) and atomically replaces `path`.
///
/// ```swift
/// do { _ = try JournalWriter.open(at: path) } catch .corrupted {
///   let report = try JournalRepair.repair(at: path)
///   print("kept \(report.keptBytes) bytes; original saved at \(report.damagedCopyPath ?? "-")")
/// }
/// ```
public enum JournalRepair {
  /// What a repair did.
  public struct Report: Sendable, Hashable {
    /// Bytes of the valid prefix kept.
    public var keptBytes: Int64
    /// Bytes dropped from the end.
    public var droppedBytes: Int64
    /// Where the damaged original was saved (nil when nothing needed repair).
    public var damagedCopyPath: String?
    /// Records in the repaired journal.
    public var recordCount: UInt64
    /// Version of the last kept record.
    public var lastGoodVersion: UInt64?
  }

  /// Repairs `path` in place (atomically), refusing while a writer holds the lock.
  ///
  /// - Complexity: O(file size): verifies checksums and decodes every chunk to find the first
  ///   damage, then copies the prefix.
  public static func repair(at path: String, options: JournalOptions = JournalOptions()) throws(JournalError) -> Report {
    let fs = options.fileSystem
    let file = try fs.open(path, mode: .readWrite)
    defer { file.close() }
    guard try file.tryLockExclusive() else { throw .locked(path: path) }
    let size = try file.size()
    guard size >= Int64(_FileHeader.size) else { throw .notAJournal(path: path) }
    let bytes = try file.mapReadOnly(length: Int(size))
    let (header, scan) = try bytes.withBytes { (raw) throws(JournalError) in
      let header = try _FileHeader.decode(raw, path: path)
      return (header, _Scanner.scan(raw, salt: header.salt, limits: options.limits))
    }
    var keep = Int64(scan.validEnd)
    var lastGood = scan.lastVersion
    var count: UInt64 = 0
    // Checksums can pass while decoding fails (a writer bug or a forged file): find that too.
    var iterator = JournalReader(path: path, header: header, scan: scan, bytes: bytes, limits: options.limits).makeIterator()
    do throws(JournalError) {
      lastGood = nil
      try iterator.forEachRemaining { (_, _, version, _) throws(JournalError) in
        count += 1
        lastGood = version
      }
    } catch {
      guard case .corrupted(let offset, _, _) = error else { throw error }
      keep = min(keep, offset)
      // Records of the damaged chunk may have been counted before the failure was noticed.
      let prefix = JournalReader(
        path: path, header: header,
        scan: bytes.withBytes { _Scanner.scan(UnsafeRawBufferPointer(rebasing: $0[0..<Int(keep)]), salt: header.salt, limits: options.limits) },
        bytes: bytes, limits: options.limits)
      count = prefix.recordCount
      lastGood = prefix.lastVersion
    }
    guard keep < size else { return Report(keptBytes: size, droppedBytes: 0, damagedCopyPath: nil, recordCount: count, lastGoodVersion: lastGood) }

    let stamp = _nowNanoseconds()
    let damaged = path + ".damaged-\(stamp)"
    let all = try file.read(at: 0, count: Int(size))
    let copy = try fs.open(damaged, mode: .createNew)
    defer { copy.close() }
    try copy.write(all, at: 0)
    try copy.sync(dataOnly: false)
    let temporary = path + ".repair-\(stamp)"
    let fresh = try fs.open(temporary, mode: .createNew)
    defer { fresh.close() }
    try fresh.write(Array(all[0..<Int(keep)]), at: 0)
    try fresh.sync(dataOnly: false)
    try fs.rename(temporary, to: path)
    try fs.syncDirectory(containing: path)
    return Report(keptBytes: keep, droppedBytes: size - keep, damagedCopyPath: damaged, recordCount: count, lastGoodVersion: lastGood)
  }
}
