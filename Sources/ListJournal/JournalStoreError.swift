/// Why opening, reading or writing a journal-backed list failed.
///
/// Every case names where the damage is: the byte offset in the file, the record's sequence
/// number and the version it carries, so a developer can go straight to it (`listjournal info`,
/// `listjournal verify`).
///
/// ```swift
/// do { _ = try JournalStore<TestSection, TestItem>.open(at: path) }
/// catch .invalidRecord(let offset, let sequence, let version, let reason) {
///     print("record #\(sequence) (v\(version)) in the chunk at byte \(offset): \(reason)")
/// }
/// catch { print(error) }
/// ```
public enum JournalStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file layer failed or found damage (its message names the byte offset and last good
  /// version where there is one).
  case journal(JournalError)
  /// A record passed its checksum but the history layer could not decode or apply it (a foreign
  /// journal, a codec mismatch or a writer bug). `sequence` and `version` are that record's
  /// (`version` is 0 in the rare case the record cannot be read again to find it; `sequence` is
  /// 0 when ``JournalTimeTravel`` finds a commit that does not apply: it names its version), and `offset` is the byte
  /// offset of the zstd frame holding it; everything before the record is intact.
  case invalidRecord(offset: Int64, sequence: UInt64, version: UInt64, reason: String)
  /// The history refused an operation (unknown version, nothing to undo, …).
  case history(HistoryError)
  /// The journal cannot be used this way (for example a read-only view asked to write, or an
  /// import file with a malformed line).
  case unsupported(String)
  /// The file is a replica journal of a shared list (ListReplica's format: its first record is a
  /// replica header), which a single-writer store cannot open; it would otherwise show as an
  /// empty list.
  case replicaJournal(path: String)
  /// Dropping the history before `keptFrom` (``JournalRetention``) would drop the head too: it
  /// is on a branch that left the history before the cut. Check out a newer version, or keep more.
  case retentionDropsHead(head: Version, keptFrom: Version)

  @inlinable
  public var description: String {
    switch self {
    case .journal(let error): return error.description
    case .invalidRecord(let offset, let sequence, let version, let reason):
      return "invalid record #\(sequence) (version \(version)) in the frame at byte offset \(offset): \(reason)"
    case .history(let error): return error.description
    case .unsupported(let message): return message
    case .replicaJournal(let path):
      return "'\(path)' is a replica of a shared list: open it with ListReplica or `listjournal`'s replica commands"
    case .retentionDropsHead(let head, let keptFrom):
      return "the head \(head) would be dropped with the history: it does not descend from \(keptFrom), where the kept history would start; check out a newer version or keep more"
    }
  }
}
