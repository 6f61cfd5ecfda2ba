import ListReplica
import ListSync

/// Commits for the checks: real encoded replica commits (a storage may decode them), distinct
/// per identity and `variant` (a different variant under the same identity is a conflicting
/// twin).
public enum ConformanceCommits {
  /// Replica `replica`'s commit `sequence`, made on top of `dependencies`.
  public static func commit(
    replica: UInt64, sequence: UInt64, variant: Int = 0, dependencies: ReplicaVersionVector = ReplicaVersionVector()
  ) -> SyncStoredCommit {
    let id = ReplicaCommitID(replica: ReplicaID(rawValue: replica), sequence: sequence)
    let commit = ReplicaCommit<String, String>(
      id: id, lamportClock: sequence, dependencies: dependencies, timestamp: 1_800_000_000,
      label: "\(replica):\(sequence) v\(variant)", operations: [])
    var codec = HistoryCodec<String, String>()
    // Encoding a commit without operations cannot fail; a failure here is a broken codec.
    let bytes = (try? codec.encode(replicaCommits: [commit])) ?? []
    return SyncStoredCommit(id: id, lamportClock: sequence, dependencies: dependencies, bytes: bytes)
  }

  /// Commits `sequences` of `replica`.
  public static func commits(replica: UInt64, _ sequences: ClosedRange<UInt64>) -> [SyncStoredCommit] {
    sequences.map { commit(replica: replica, sequence: $0) }
  }

  /// A genesis for a list of the checks.
  public static func genesis(_ listID: UInt64, base: [UInt8] = [1, 2, 3]) -> SyncListGenesis {
    SyncListGenesis(listID: listID, base: base)
  }
}

/// SplitMix64: a small seeded generator, so a failing run can be repeated from its seed.
public struct ConformanceRandom: RandomNumberGenerator, Sendable {
  var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
