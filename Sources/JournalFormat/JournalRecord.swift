/// One record of the journal: a committed transaction, a head move, a checkpoint or metadata.
///
/// The journal is payload-opaque: `payload` is whatever the history codec produced. The writer
/// assigns `sequence` (consecutive, starting at 1); `version` is the caller's version number and
/// must be non-decreasing across records, which is what makes version lookups in the frame index
/// possible.
///
/// ```swift
/// let record = JournalRecord(kind: .commit, version: 42, payload: [0x01, 0x02])
/// let receipt = try writer.append(record)
/// ```
public struct JournalRecord: Sendable, Hashable {
  /// What a record means to the history layer. Unknown kinds from newer minor versions are
  /// carried through unchanged.
  public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A committed transaction.
    public static let commit = Kind(rawValue: 1)
    /// An undo/redo head move.
    public static let headMove = Kind(rawValue: 2)
    /// A full-state checkpoint; always the first record of a zstd frame.
    public static let checkpoint = Kind(rawValue: 3)
    /// Free-form metadata.
    public static let metadata = Kind(rawValue: 4)
    /// Versions lost in a repair; the next record is the checkpoint the history resumes at
    /// (format 1.2, `Journal/FORMAT.md` §4). 5 and 6 are a replica's.
    public static let gap = Kind(rawValue: 7)

    public var description: String {
      switch self {
      case .commit: "commit"
      case .headMove: "headMove"
      case .checkpoint: "checkpoint"
      case .metadata: "metadata"
      case .gap: "gap"
      default: "kind(\(rawValue))"
      }
    }
  }

  public var kind: Kind
  /// Position in the journal, assigned by the writer (0 on records not yet appended).
  public var sequence: UInt64
  /// The caller's version number; non-decreasing across the journal.
  public var version: UInt64
  public var payload: [UInt8]

  /// Creates a record; `sequence` is filled in by the writer.
  ///
  /// - Complexity: O(1).
  public init(kind: Kind, sequence: UInt64 = 0, version: UInt64, payload: [UInt8]) {
    self.kind = kind
    self.sequence = sequence
    self.version = version
    self.payload = payload
  }
}
