import ListHistory

/// A client's connection bookkeeping: what the server is known to hold, pushes in flight and
/// who waits for their acks.
struct _ClientState {
  var channel: (any SyncChannel)?
  var generation = 0
  var status = SyncClientStatus()
  /// What the server holds, as far as this client knows (its vector and acks since).
  var known = ReplicaVersionVector()
  var knownBeyond: Set<ReplicaCommitID> = []
  var inFlight: [UInt64: [ReplicaCommitID]] = [:]
  var inFlightIDs: Set<ReplicaCommitID> = []
  var nextRequest: UInt64 = 1
  var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  /// The replica's vector when it was last checked for commits to push.
  var checkedVector: ReplicaVersionVector?
  /// Why ``SyncClient/run()`` stopped for good, for ``SyncClient/waitUntilSynced()`` to report.
  var fatal: SyncClientError?
  /// This replica's commits the server refused as conflicting twins: never pushed again (the
  /// server keeps refusing them, and with them everything pushed alongside).
  var refused: Set<ReplicaCommitID> = []
  /// Commits of a multi-commit push refused as a conflicting twin: each is pushed alone next,
  /// so that only the twin is refused and the others are stored.
  var suspects: Set<ReplicaCommitID> = []

  mutating func markKnown(_ id: ReplicaCommitID) {
    guard !known.contains(id) else { return }
    if id.sequence == known[id.replica] + 1 {
      var next = id.sequence
      while knownBeyond.remove(ReplicaCommitID(replica: id.replica, sequence: next + 1)) != nil { next += 1 }
      known[id.replica] = next
    } else {
      knownBeyond.insert(id)
    }
  }

  func isKnown(_ id: ReplicaCommitID) -> Bool { known.contains(id) || knownBeyond.contains(id) }

  /// Takes in a push the server refused as holding a conflicting twin: a single commit is the
  /// twin (refused for good, and reported); several are suspects, each pushed alone next.
  /// Returns the twin when it is known.
  mutating func conflictRefused(_ ids: [ReplicaCommitID]) -> ReplicaCommitID? {
    checkedVector = nil
    guard ids.count == 1, let twin = ids.first else {
      suspects.formUnion(ids)
      return nil
    }
    suspects.remove(twin)
    if refused.insert(twin).inserted { status.refusedCommits.append(twin) }
    return twin
  }

  /// Forgets the connection: pushes in flight will be pushed again, waiters are told.
  mutating func disconnect(error: String?) -> [CheckedContinuation<Bool, Never>] {
    channel = nil
    generation += 1
    status.phase = .disconnected
    if let error { status.lastError = error }
    inFlight = [:]
    inFlightIDs = []
    status.commitsInFlight = 0
    checkedVector = nil
    let waiting = waiters.map(\.value)
    waiters = [:]
    return waiting
  }
}
