import ListReplica
import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// Stores the commits not held yet and gives each its position, in one transaction.
  ///
  /// The transaction locks the list's row first, so appends to one list are serial across every
  /// instance and positions are contiguous; commits already held are skipped (duplicates), and
  /// a different commit under a held identity (in the database or twice in `commits`) rolls the
  /// whole append back with ``SyncStorageError/conflictingCommit(list:id:)``. The notice to
  /// other instances is sent by the same transaction, so it goes out only if the append commits.
  /// An error (the connection lost mid-way included) means the append may not be stored; since
  /// appends are idempotent, retrying it is safe.
  ///
  /// ```swift
  /// let result = try await storage.append(commits, to: "groceries")
  /// print(result.stored.map(\.position), result.duplicates)
  /// ```
  ///
  /// - Complexity: five statements; O(k log n) for k commits on a list of n.
  public func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError)
    -> SyncAppendResult
  {
    try await ready()
    // Twins inside the append itself: the same bytes are one commit, different bytes a conflict.
    var unique: [SyncStoredCommit] = []
    var firstIndex: [ReplicaCommitID: Int] = [:]
    unique.reserveCapacity(commits.count)
    for commit in commits {
      if let index = firstIndex[commit.id] {
        guard unique[index].bytes == commit.bytes else { throw .conflictingCommit(list: list, id: commit.id) }
        continue
      }
      firstIndex[commit.id] = unique.count
      unique.append(commit)
    }
    guard !unique.isEmpty else {
      try await requireList(list)
      return SyncAppendResult(stored: [], duplicates: commits.count)
    }

    let uniqueCommits = unique
    let stored = try await _Deadline.run(operationTimeout, "appending to '\(list)'") { () throws(SyncStorageError) in
      do {
        return try await self.client.withTransaction(logger: self.logger) { connection in
          try await self.append(uniqueCommits, to: list, on: connection)
        }
      } catch {
        throw _BackendError.storageError(error, doing: "appending to '\(list)'")
      }
    }
    if let last = stored.last {
      // Our own appends are not news for `externalAppends()` after a reconnection.
      state.withLock { _ = $0.learn(list, position: last.position) }
    }
    return SyncAppendResult(stored: stored, duplicates: commits.count - stored.count)
  }

  /// The statements of one append, inside its transaction; throws to roll it back.
  private func append(_ commits: [SyncStoredCommit], to list: String, on connection: PostgresConnection)
    async throws -> [SyncStoredCommit]
  {
    var lastPosition: Int64?
    let locked = try await connection.query(
      "SELECT last_position FROM lists WHERE name = \(list) FOR UPDATE", logger: logger)
    for try await position in locked.decode(Int64.self) { lastPosition = position }
    guard let lastPosition else { throw SyncStorageError.unknownList(list) }

    let replicas = commits.map { Int64(bitPattern: $0.id.replica.rawValue) }
    let sequences = commits.map { Int64(bitPattern: $0.id.sequence) }
    let clocks = commits.map { Int64(bitPattern: $0.lamportClock) }
    let dependencies = commits.map { ByteBuffer(bytes: _VectorBytes.encode($0.dependencies)) }
    let bodies = commits.map { ByteBuffer(bytes: $0.bytes) }
    // This statement's snapshot is taken after the lock, so it sees every earlier append; the
    // rows it skips are the held ones, and the kept ones are numbered on from the last position.
    let inserted = try await connection.query(
      """
      INSERT INTO commits (list, replica, sequence, lamport_clock, dependencies, position, body)
      SELECT \(list), t.replica, t.sequence, t.clock, t.dependencies,
             \(lastPosition) + row_number() OVER (ORDER BY t.ordinal), t.body
      FROM unnest(\(replicas)::bigint[], \(sequences)::bigint[], \(clocks)::bigint[],
                  \(dependencies)::bytea[], \(bodies)::bytea[])
           WITH ORDINALITY AS t (replica, sequence, clock, dependencies, body, ordinal)
      WHERE NOT EXISTS (
        SELECT 1 FROM commits c WHERE c.list = \(list) AND c.replica = t.replica AND c.sequence = t.sequence)
      ON CONFLICT DO NOTHING
      RETURNING replica, sequence, position
      """, logger: logger)
    var positions: [ReplicaCommitID: UInt64] = [:]
    for try await (replica, sequence, position) in inserted.decode((Int64, Int64, Int64).self) {
      let id = ReplicaCommitID(
        replica: ReplicaID(rawValue: UInt64(bitPattern: replica)), sequence: UInt64(bitPattern: sequence))
      positions[id] = UInt64(bitPattern: position)
    }

    if positions.count < commits.count {
      try await checkHeldTwins(of: commits.filter { positions[$0.id] == nil }, in: list, on: connection)
    }
    var stored: [SyncStoredCommit] = []
    stored.reserveCapacity(positions.count)
    for var commit in commits {
      guard let position = positions[commit.id] else { continue }
      commit.position = position
      stored.append(commit)
    }
    stored.sort { $0.position < $1.position }
    guard let newLast = stored.last?.position else { return [] }
    guard newLast == UInt64(lastPosition) + UInt64(stored.count) else {
      throw SyncStorageError.backend("appending to '\(list)': positions were not assigned contiguously")
    }

    let payload = "\(String(instanceID, radix: 16)) \(newLast) \(list)"
    _ = try await connection.query(
      """
      WITH updated AS (UPDATE lists SET last_position = \(Int64(bitPattern: newLast)) WHERE name = \(list) RETURNING name)
      SELECT pg_notify(\(Self.notificationChannel), \(payload)) FROM updated
      """, logger: logger
    ).collect()
    return stored
  }

  /// Throws ``SyncStorageError/conflictingCommit(list:id:)`` if the list holds a commit under one
  /// of these identities with other bytes; the rest were held as they are (duplicates).
  private func checkHeldTwins(of commits: [SyncStoredCommit], in list: String, on connection: PostgresConnection)
    async throws
  {
    let replicas = commits.map { Int64(bitPattern: $0.id.replica.rawValue) }
    let sequences = commits.map { Int64(bitPattern: $0.id.sequence) }
    let rows = try await connection.query(
      """
      SELECT c.replica, c.sequence, c.body FROM commits c
      JOIN unnest(\(replicas)::bigint[], \(sequences)::bigint[]) AS t (replica, sequence)
        ON c.replica = t.replica AND c.sequence = t.sequence
      WHERE c.list = \(list)
      """, logger: logger)
    var held: [ReplicaCommitID: ByteBuffer] = [:]
    for try await (replica, sequence, body) in rows.decode((Int64, Int64, ByteBuffer).self) {
      let id = ReplicaCommitID(
        replica: ReplicaID(rawValue: UInt64(bitPattern: replica)), sequence: UInt64(bitPattern: sequence))
      held[id] = body
    }
    for commit in commits {
      guard let body = held[commit.id] else {
        // Skipped yet not held: another writer got past the row lock, which must not happen.
        throw SyncStorageError.backend("appending to '\(list)': commit \(commit.id) was neither stored nor held")
      }
      guard body.readableBytesView.elementsEqual(commit.bytes) else {
        throw SyncStorageError.conflictingCommit(list: list, id: commit.id)
      }
    }
  }
}
