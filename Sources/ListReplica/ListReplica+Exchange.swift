import ListState
import ListHistory
import ListLocking

extension ListReplica {
  /// Receives commits from another replica of the list and merges them: the ones already held
  /// are skipped, the rest join the agreed order (reverting and re-applying the held commits
  /// that sort after them), and are persisted first when the replica has a journal.
  ///
  /// Delivery may repeat, reorder or split batches: the result depends only on the set of
  /// commits held.
  ///
  /// ```swift
  /// let merge = try laptop.receive(phone.changes(since: laptop.versionVector))
  /// merge.changeset   // what the laptop's UI applies
  /// ```
  /// - Throws: ``ReplicaError/conflictingCommit(_:)`` or ``ReplicaError/invalidCommit(_:reason:)``
  ///   for commits that cannot be (nothing is applied then), or a journal error.
  /// - Complexity: the new commits' operations plus, when they sort before m held commits,
  ///   reverting and re-applying those m.
  @inlinable
  @discardableResult
  public func receive(_ commits: [Commit], limits: ReplicaBatchLimits = ReplicaBatchLimits()) throws(ReplicaError) -> Merge {
    try state.withLock { state throws(ReplicaError) in
      try limits.check(commits, holding: state.clock)
      var fresh: [Commit] = []
      var freshIDs = Set<ReplicaCommitID>()
      var duplicates = 0
      for commit in commits {
        guard commit.id.sequence > 0 else { throw .invalidCommit(commit.id, reason: "sequence 0") }
        guard commit.lamportClock > 0 else { throw .invalidCommit(commit.id, reason: "Lamport clock 0") }
        if state.holds(commit.id) || !freshIDs.insert(commit.id).inserted {
          duplicates += 1
          if let held = state.heldCommit(commit.id), held != commit { throw .conflictingCommit(commit.id) }
          continue
        }
        fresh.append(commit)
      }
      let previous = state.merge.snapshot
      guard !fresh.isEmpty else {
        return Merge(received: [], duplicates: duplicates, rebased: 0, previous: previous, snapshot: previous, overrides: [])
      }
      fresh.sort { $0.orderKey < $1.orderKey }
      try state.journal?.write(fresh, holding: state.order.count + fresh.count, sync: true)
      let heldBefore = state.order.count
      let position = state.insert(fresh)
      let snapshot = state.merge.snapshot
      return Merge(
        received: fresh.map(\.id), duplicates: duplicates, rebased: heldBefore - position, previous: previous,
        snapshot: snapshot, overrides: state.overrides(from: position))
    }
  }

  /// Encodes the commits `vector` lacks as one batch for the wire: what ``receive(_:)-(ReplicaBatch)``
  /// on the other side takes.
  ///
  /// - Complexity: O(commits held) plus encoding the ones sent.
  @inlinable
  public func batch(since vector: ReplicaVersionVector, codec: HistoryCodec<Section, Item>) throws(ReplicaError) -> ReplicaBatch {
    try ReplicaBatch(commits: changes(since: vector), listID: listID, codec: codec)
  }

  /// Decodes and merges a batch: the whole batch or nothing (a damaged batch is refused before
  /// any of it is applied).
  @inlinable
  @discardableResult
  public func receive(
    _ batch: ReplicaBatch, codec: HistoryCodec<Section, Item>, limits: ReplicaBatchLimits = ReplicaBatchLimits()
  ) throws(ReplicaError) -> Merge {
    let expected = listID
    let (listID, commits) = try batch.commits(codec: codec, limits: limits)
    guard listID == expected else { throw .differentList(expected: expected, actual: listID) }
    return try receive(commits, limits: limits)
  }
}

extension _ReplicaState {
  /// The held commit with this identity, if it is held (O(n) for another replica's; only used
  /// to check a repeated delivery for a conflicting twin, which is rare).
  @inlinable
  func heldCommit(_ id: ReplicaCommitID) -> ReplicaCommit<Section, Item>? {
    if id.replica == replica {
      guard let sequence = Int(exactly: id.sequence), sequence <= own.count else { return nil }
      return own[sequence - 1]
    }
    return nil
  }
}
