/// Every failure the journal layer reports.
///
/// Messages name the byte offset and last good version wherever the failure has a place in the
/// file, so a developer can go straight to the damage.
///
/// ```swift
/// do {
///   _ = try JournalReader.open(at: path)
/// } catch .corrupted(let offset, let lastGoodVersion, let reason) {
///   print("damage at byte \(offset) after version \(lastGoodVersion.map(String.init) ?? "none"): \(reason)")
/// } catch {
///   print(error)
/// }
/// ```
public enum JournalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file does not start with the journal magic (or is shorter than a header).
  case notAJournal(path: String)
  /// The file was written by a newer major format version this reader cannot understand.
  case newerFormat(major: UInt16, minor: UInt16, supportedMajor: UInt16)
  /// Another process (or another writer in this process) holds the writer lock.
  case locked(path: String)
  /// Damage that is not a torn tail: bytes at `offset` are invalid but valid data follows, or a
  /// checksummed chunk fails to decode. Everything before `offset` is intact.
  case corrupted(offset: Int64, lastGoodVersion: UInt64?, reason: String)
  /// An operating-system call failed.
  case io(operation: String, path: String, errno: Int32)
  /// A length or count exceeds a configured limit (untrusted input or oversized append).
  case tooLarge(what: String, size: Int64, limit: Int64, offset: Int64?)
  /// The writer stopped after an I/O or sync failure; it never retries. Reopen the journal to
  /// continue from the last durable commit.
  case writerClosed(cause: String)
  /// A record's version went backwards (versions must be non-decreasing).
  case versionOutOfOrder(version: UInt64, previous: UInt64)
  /// A caller-supplied argument is invalid (for example an empty compaction).
  case invalidArgument(String)

  public var description: String {
    switch self {
    case .notAJournal(let path):
      return "\(path) is not a ListJournal journal (bad magic or shorter than the 64-byte header)"
    case .newerFormat(let major, let minor, let supported):
      return "journal format \(major).\(minor) is newer than this reader supports (major \(supported)); upgrade ListJournal to open it"
    case .locked(let path):
      return "\(path) is already open for writing by another writer (advisory lock held)"
    case .corrupted(let offset, let lastGoodVersion, let reason):
      let version = lastGoodVersion.map { "version \($0)" } ?? "no complete version"
      return "journal corrupted at byte offset \(offset) (last good: \(version)): \(reason)"
    case .io(let operation, let path, let errno):
      return "\(operation) failed on \(path): errno \(errno)"
    case .tooLarge(let what, let size, let limit, let offset):
      let at = offset.map { " at byte offset \($0)" } ?? ""
      return "\(what) of \(size) bytes exceeds the limit of \(limit)\(at)"
    case .writerClosed(let cause):
      return "journal writer is closed: \(cause)"
    case .versionOutOfOrder(let version, let previous):
      return "record version \(version) is lower than the previous version \(previous)"
    case .invalidArgument(let message):
      return "invalid argument: \(message)"
    }
  }
}
