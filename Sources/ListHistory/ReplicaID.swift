/// The identity of one replica of a list: a phone, a laptop, a server. Every commit a replica
/// makes carries it, so commits from different replicas never collide.
///
/// A replica's identifier is random (64 bits) and chosen once, when the replica is created; it
/// prints as 16 hexadecimal digits.
///
/// ```swift
/// let phone = ReplicaID.random()
/// print(phone)                         // "9f2c04e1b7a35d60"
/// ReplicaID("9f2c04e1b7a35d60")        // the same identifier, parsed
/// ```
public struct ReplicaID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The identifier's bits.
  public var rawValue: UInt64

  /// An identifier with these bits.
  @inlinable
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  /// Parses 1 to 16 hexadecimal digits; nil for anything else.
  @inlinable
  public init?(_ text: some StringProtocol) {
    guard !text.isEmpty, text.count <= 16, let value = UInt64(text, radix: 16) else { return nil }
    rawValue = value
  }

  /// A new random identifier.
  @inlinable
  public static func random() -> ReplicaID {
    var generator = SystemRandomNumberGenerator()
    return ReplicaID(rawValue: generator.next())
  }

  @inlinable
  public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool { lhs.rawValue < rhs.rawValue }

  @inlinable
  public var description: String {
    let digits = String(rawValue, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// The globally unique identity of a commit: the replica that made it and its place among that
/// replica's commits (1, 2, 3, …).
///
/// ```swift
/// let id = ReplicaCommitID(replica: phone, sequence: 12)
/// print(id)                            // "9f2c04e1b7a35d60:12"
/// ```
public struct ReplicaCommitID: Hashable, Sendable, CustomStringConvertible {
  public var replica: ReplicaID
  /// 1 for a replica's first commit; consecutive.
  public var sequence: UInt64

  @inlinable
  public init(replica: ReplicaID, sequence: UInt64) {
    self.replica = replica
    self.sequence = sequence
  }

  @inlinable
  public var description: String { "\(replica):\(sequence)" }
}
