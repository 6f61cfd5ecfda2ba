/// What a received batch may expand to, checked before anything is allocated for it: a batch
/// is untrusted input whether it comes from a server or another device.
///
/// ```swift
/// var limits = ReplicaBatchLimits()
/// limits.maxDecodedBytes = 8 << 20
/// try replica.receive(batch, codec: codec, limits: limits)
/// ```
public struct ReplicaBatchLimits: Sendable, Hashable {
  /// The most bytes the batch's commits may decompress to (its header declares the size; a
  /// larger declaration is refused before the buffer is made).
  public var maxDecodedBytes: Int
  /// The most commits one batch may carry.
  public var maxCommits: Int
  /// The most UTF-8 bytes of one commit's label.
  public var maxLabelBytes: Int
  /// The most operations one commit may carry.
  public var maxOperationsPerCommit: Int
  /// How far above the highest Lamport clock the receiver holds a received commit's clock may be
  /// (a commit's clock is one more than the highest its author knew, so a large jump means a
  /// forged or broken clock, and a clock near 2^64 would leave no room for the next commit).
  public var maxClockLead: UInt64

  /// 64 MiB decoded, 65,536 commits, 64 KiB labels, 1,000,000 operations per commit, clocks at
  /// most 2^32 ahead.
  @inlinable
  public init(
    maxDecodedBytes: Int = 64 << 20, maxCommits: Int = 65_536, maxLabelBytes: Int = 64 << 10,
    maxOperationsPerCommit: Int = 1_000_000, maxClockLead: UInt64 = 1 << 32
  ) {
    self.maxDecodedBytes = maxDecodedBytes
    self.maxCommits = maxCommits
    self.maxLabelBytes = maxLabelBytes
    self.maxOperationsPerCommit = maxOperationsPerCommit
    self.maxClockLead = maxClockLead
  }

  /// The highest Lamport clock any replica accepts or makes: 2^62, far below what overflows.
  @inlinable
  public static var clockCeiling: UInt64 { 1 << 62 }

  /// The highest clock a received commit may have when the receiver's highest is `held`.
  @inlinable
  public func highestAcceptedClock(holding held: UInt64) -> UInt64 {
    let (sum, overflow) = held.addingReportingOverflow(maxClockLead)
    return overflow ? Self.clockCeiling : min(sum, Self.clockCeiling)
  }

  /// Throws ``ReplicaError/limitExceeded(_:)`` naming the first commit over a limit (label,
  /// operations, clock) when the receiver's highest clock is `held`.
  @inlinable
  public func check<Section, Item>(_ commits: [ReplicaCommit<Section, Item>], holding held: UInt64) throws(ReplicaError) {
    guard commits.count <= maxCommits else {
      throw .limitExceeded("a batch of \(commits.count) commits exceeds the limit of \(maxCommits)")
    }
    let ceiling = highestAcceptedClock(holding: held)
    for commit in commits {
      if let label = commit.label, label.utf8.count > maxLabelBytes {
        throw .limitExceeded(
          "commit \(commit.id) has a label of \(label.utf8.count) bytes, more than the limit of \(maxLabelBytes)")
      }
      guard commit.operations.count <= maxOperationsPerCommit else {
        throw .limitExceeded(
          "commit \(commit.id) has \(commit.operations.count) operations, more than the limit of \(maxOperationsPerCommit)")
      }
      guard commit.lamportClock <= ceiling else {
        throw .limitExceeded(
          "commit \(commit.id) has Lamport clock \(commit.lamportClock), more than \(maxClockLead) above the highest held (\(held))")
      }
    }
  }
}
