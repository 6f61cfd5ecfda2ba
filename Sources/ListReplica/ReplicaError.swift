import ListHistory
import JournalFormat

/// Why a replica refused a batch, a file or a request. Nothing of a refused batch is applied.
public enum ReplicaError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The batch's bytes are damaged or not a batch (byte offset into the batch).
  case damagedBatch(offset: Int, reason: String)
  /// The batch or replica belongs to another list (each shared list has its own identifier).
  case differentList(expected: UInt64, actual: UInt64)
  /// Two different commits claim the same identity.
  case conflictingCommit(ReplicaCommitID)
  /// A commit's clock is not above the commits it depends on, or its sequence is 0.
  case invalidCommit(ReplicaCommitID, reason: String)
  /// The replica journal file is damaged or unreadable.
  case journal(path: String, reason: String)
  /// The file is a single-writer journal, not a replica: `listjournal clone` makes one from it.
  case notAReplica(path: String)
  /// The file exists already.
  case exists(path: String)
  /// The body of a transaction threw this.
  case transaction(String)
  /// A received batch or commit is over a ``ReplicaBatchLimits`` limit (named in the message).
  case limitExceeded(String)
  /// The replica's Lamport clock is at ``ReplicaBatchLimits/clockCeiling``: it makes no more commits.
  case clockExhausted(UInt64)

  public var description: String {
    switch self {
    case .damagedBatch(let offset, let reason): "damaged replica batch at byte \(offset): \(reason)"
    case .differentList(let expected, let actual):
      "the batch belongs to list \(Self.hex(actual)), not to this replica's list \(Self.hex(expected))"
    case .conflictingCommit(let id): "two different commits claim the identity \(id)"
    case .invalidCommit(let id, let reason): "invalid commit \(id): \(reason)"
    case .journal(let path, let reason): "replica journal '\(path)': \(reason)"
    case .notAReplica(let path):
      "'\(path)' is a single-writer journal, not a replica of a shared list (make one with `listjournal clone`)"
    case .exists(let path): "'\(path)' exists already"
    case .transaction(let message): message
    case .limitExceeded(let message): "over a limit: \(message)"
    case .clockExhausted(let clock): "the Lamport clock \(clock) is at the ceiling of \(ReplicaBatchLimits.clockCeiling); no more commits can be made"
    }
  }

  static func hex(_ value: UInt64) -> String { ReplicaID(rawValue: value).description }
}
