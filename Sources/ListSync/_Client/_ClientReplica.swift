import ListHistory
import ListReplica

/// The replica calls a ``SyncClient`` makes per frame, made where the app names its element
/// types: `SyncClient`'s own code is generic and not inlinable, so calling the replica from it
/// runs the merge unspecialized (every operation through metadata and witness tables, several
/// times slower); these closures are built in the client's inlinable initializer, in the app's
/// module, and so run the replica specialized.
@usableFromInline
struct _ClientReplica<Section: ListElement, Item: ListElement>: Sendable {
  /// Decodes a batch and, when it is of the replica's list, merges it: the batch's list, the
  /// identifiers of its commits, and the merge (nil for another list).
  @usableFromInline
  let receive: @Sendable (ReplicaBatch) throws -> (listID: UInt64, ids: [ReplicaCommitID], merge: ReplicaMerge<Section, Item>?)
  /// The replica's commits a vector lacks, in the agreed order.
  @usableFromInline
  let changes: @Sendable (ReplicaVersionVector) -> [ReplicaCommit<Section, Item>]
  /// Encodes commits as a batch of the replica's list.
  @usableFromInline
  let encode: @Sendable ([ReplicaCommit<Section, Item>]) throws -> ReplicaBatch

  @inlinable
  init(replica: ListReplica<Section, Item>, codec: HistoryCodec<Section, Item>) {
    receive = { batch in
      let (listID, commits) = try batch.commits(codec: codec)
      guard listID == replica.listID else { return (listID, [], nil) }
      var ids: [ReplicaCommitID] = []
      ids.reserveCapacity(commits.count)
      for commit in commits { ids.append(commit.id) }
      return (listID, ids, try replica.receive(commits))
    }
    changes = { vector in replica.changes(since: vector) }
    encode = { commits in try ReplicaBatch(commits: commits, listID: replica.listID, codec: codec) }
  }
}
