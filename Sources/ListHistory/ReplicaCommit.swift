import ListState

/// One transaction of a replicated list: its identity, its place in the order every replica
/// agrees on, what it was based on, and its operations.
///
/// Replicas order commits by (``lamportClock``, replica, sequence): a commit's clock is one more
/// than the highest clock its replica had seen, so a commit always sorts after everything it
/// was based on, and concurrent commits sort the same way everywhere.
///
/// ```swift
/// let commit = ReplicaCommit<String, String>(
///     id: ReplicaCommitID(replica: phone, sequence: 1), lamportClock: 1, dependencies: ReplicaVersionVector(),
///     timestamp: 1_800_000_000, label: "Add Apple",
///     operations: [.insertItems(ListOutline(items: ["Apple"]), at: .init(.section("Fruit"), after: nil))])
/// ```
public struct ReplicaCommit<Section: ListElement, Item: ListElement>: Sendable, Equatable {
  /// Why the commit was made: an edit, or the undo or redo of one of the replica's own commits.
  public enum Origin: Hashable, Sendable {
    /// A transaction of the replica's user.
    case edit
    /// The inverse of the replica's commit `of`, against the state it was undone on.
    case undo(of: ReplicaCommitID)
    /// The inverse of the undo commit `of`.
    case redo(of: ReplicaCommitID)
  }

  public var id: ReplicaCommitID
  /// The commit's place in the agreed order (with the replica and sequence breaking ties).
  public var lamportClock: UInt64
  /// The commits of *other* replicas this one was made on top of (its own earlier commits are
  /// implied by its sequence).
  public var dependencies: ReplicaVersionVector
  /// Seconds since 1970, millisecond precision.
  public var timestamp: Double
  public var label: String?
  public var origin: Origin
  public var operations: [ReplicaOperation<Section, Item>]

  @inlinable
  public init(
    id: ReplicaCommitID, lamportClock: UInt64, dependencies: ReplicaVersionVector, timestamp: Double,
    label: String?, origin: Origin = .edit, operations: [ReplicaOperation<Section, Item>]
  ) {
    self.id = id
    self.lamportClock = lamportClock
    self.dependencies = dependencies
    self.timestamp = timestamp
    self.label = label
    self.origin = origin
    self.operations = operations
  }

  /// The key of the agreed order: clock, then replica, then sequence.
  @inlinable
  public var orderKey: ReplicaOrderKey { ReplicaOrderKey(lamportClock: lamportClock, id: id) }

  /// Whether `other` was part of what this commit was based on (so this commit is not
  /// concurrent with it).
  @inlinable
  public func isBased(on other: ReplicaCommitID) -> Bool {
    other.replica == id.replica ? other.sequence < id.sequence : dependencies.contains(other)
  }
}

/// A commit's place in the order replicas agree on: by Lamport clock, then replica identifier,
/// then sequence.
public struct ReplicaOrderKey: Hashable, Comparable, Sendable {
  public var lamportClock: UInt64
  public var id: ReplicaCommitID

  @inlinable
  public init(lamportClock: UInt64, id: ReplicaCommitID) {
    self.lamportClock = lamportClock
    self.id = id
  }

  @inlinable
  public static func < (lhs: ReplicaOrderKey, rhs: ReplicaOrderKey) -> Bool {
    if lhs.lamportClock != rhs.lamportClock { return lhs.lamportClock < rhs.lamportClock }
    if lhs.id.replica != rhs.id.replica { return lhs.id.replica < rhs.id.replica }
    return lhs.id.sequence < rhs.id.sequence
  }
}
