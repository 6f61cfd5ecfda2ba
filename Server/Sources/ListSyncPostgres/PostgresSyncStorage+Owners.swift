import ListReplica
import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// The owner bound to each replica identity of `list`.
  ///
  /// - Complexity: an index range scan of the list's bindings.
  public func owners(of list: String) async throws(SyncStorageError) -> [ReplicaID: String] {
    try await ready()
    let doing = "reading the replica owners of '\(list)'"
    var owners: [ReplicaID: String] = [:]
    for row in try await rows("SELECT replica, owner FROM replica_owners WHERE list = \(list)", doing: doing) {
      let (replica, owner) = try decode(row, as: (Int64, String).self, doing: doing)
      owners[ReplicaID(rawValue: UInt64(bitPattern: replica))] = owner
    }
    return owners
  }

  /// Binds each replica identity to its owner in one transaction, committed before it returns
  /// (so before the commits under them are appended).
  ///
  /// An identity bound already, by any instance, keeps its first owner: if one of `owners` is
  /// bound to another, the transaction rolls back and this throws
  /// ``SyncStorageError/boundToAnotherOwner(list:replica:)``. Two instances binding the same
  /// identity at once are ordered by the primary key (the second insert waits for the first).
  ///
  /// - Complexity: two statements; O(k log n) for k identities on a list of n bindings.
  public func bindOwners(_ owners: [ReplicaID: String], of list: String) async throws(SyncStorageError) {
    try await ready()
    guard !owners.isEmpty else { return }
    let entries = owners.sorted { $0.key.rawValue < $1.key.rawValue }
    let replicas = entries.map { Int64(bitPattern: $0.key.rawValue) }
    let names = entries.map(\.value)
    let doing = "binding replica owners of '\(list)'"
    try await _Deadline.run(operationTimeout, doing) { () throws(SyncStorageError) in
      do {
        try await self.client.withTransaction(logger: self.logger) { connection in
          _ = try await connection.query(
            """
            INSERT INTO replica_owners (list, replica, owner)
            SELECT \(list), t.replica, t.owner FROM unnest(\(replicas)::bigint[], \(names)::text[]) AS t (replica, owner)
            ON CONFLICT (list, replica) DO NOTHING
            """, logger: self.logger
          ).collect()
          let bound = try await connection.query(
            """
            SELECT o.replica FROM replica_owners o
            JOIN unnest(\(replicas)::bigint[], \(names)::text[]) AS t (replica, owner) ON o.replica = t.replica
            WHERE o.list = \(list) AND o.owner <> t.owner
            LIMIT 1
            """, logger: self.logger)
          for try await replica in bound.decode(Int64.self) {
            // Thrown inside the transaction to roll it back: nothing of this call stays bound.
            throw SyncStorageError.boundToAnotherOwner(list: list, replica: ReplicaID(rawValue: UInt64(bitPattern: replica)))
          }
        }
      } catch {
        throw _BackendError.storageError(error, doing: doing)
      }
    }
  }
}
