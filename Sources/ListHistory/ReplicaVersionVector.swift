/// What a replica has received from each replica: for every replica identifier, the highest
/// sequence number up to which it holds *all* of that replica's commits.
///
/// Two replicas exchange their vectors to learn what the other lacks; a commit's own vector
/// (``ReplicaCommit/dependencies``) says which commits it was made on top of, which is what
/// tells concurrent edits from later ones.
///
/// ```swift
/// var vector = ReplicaVersionVector()
/// vector[phone] = 12
/// vector.contains(ReplicaCommitID(replica: phone, sequence: 7))   // true
/// ```
public struct ReplicaVersionVector: Hashable, Sendable, CustomStringConvertible {
  /// The entries in ascending order of replica identifier; no zero sequences.
  @inlinable
  public var entries: [(replica: ReplicaID, sequence: UInt64)] { _entries.map { ($0.replica, $0.sequence) } }
  @usableFromInline var _entries: [ReplicaCommitID] = []

  /// The empty vector: nothing received.
  @inlinable
  public init() {}

  /// A vector with these entries (later entries for the same replica win; zeros are dropped).
  @inlinable
  public init(_ entries: [ReplicaID: UInt64]) {
    for (replica, sequence) in entries { self[replica] = sequence }
  }

  /// The highest sequence of `replica` held without gaps; 0 for none.
  ///
  /// - Complexity: O(log r) for r replicas.
  @inlinable
  public subscript(replica: ReplicaID) -> UInt64 {
    get {
      let index = _position(of: replica)
      return index < _entries.count && _entries[index].replica == replica ? _entries[index].sequence : 0
    }
    set {
      let index = _position(of: replica)
      if index < _entries.count && _entries[index].replica == replica {
        if newValue == 0 { _entries.remove(at: index) } else { _entries[index].sequence = newValue }
      } else if newValue != 0 {
        _entries.insert(ReplicaCommitID(replica: replica, sequence: newValue), at: index)
      }
    }
  }

  @inlinable
  func _position(of replica: ReplicaID) -> Int {
    var low = 0
    var high = _entries.count
    while low < high {
      let middle = (low + high) / 2
      if _entries[middle].replica < replica { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The replicas with at least one commit in the vector.
  @inlinable
  public var replicas: [ReplicaID] { _entries.map(\.replica) }

  /// Whether the commit is covered by the vector.
  @inlinable
  public func contains(_ commit: ReplicaCommitID) -> Bool { commit.sequence <= self[commit.replica] }

  /// Whether every commit this vector covers is covered by `other` too.
  @inlinable
  public func isCovered(by other: ReplicaVersionVector) -> Bool {
    _entries.allSatisfy { other[$0.replica] >= $0.sequence }
  }

  /// The entry-wise maximum.
  @inlinable
  public func union(_ other: ReplicaVersionVector) -> ReplicaVersionVector {
    var result = self
    for entry in other._entries where entry.sequence > result[entry.replica] { result[entry.replica] = entry.sequence }
    return result
  }

  @inlinable
  public static func == (lhs: ReplicaVersionVector, rhs: ReplicaVersionVector) -> Bool { lhs._entries == rhs._entries }

  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(_entries) }

  /// `{9f2c04e1b7a35d60: 12, …}`.
  @inlinable
  public var description: String {
    "{" + _entries.map { "\($0.replica): \($0.sequence)" }.joined(separator: ", ") + "}"
  }
}
