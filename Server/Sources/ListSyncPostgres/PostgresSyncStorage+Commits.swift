import ListReplica
import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// The list's commits with positions above `position`, in position order, at most `limit`.
  ///
  /// Positions become visible in order (an append holds its list's row lock until it commits),
  /// so a reader that resumes after the last position it saw never skips a commit.
  ///
  /// - Complexity: an index range scan of the commits returned.
  public func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError)
    -> [SyncStoredCommit]
  {
    try await ready()
    let commits = try await selectCommits(
      of: list,
      """
      SELECT replica, sequence, lamport_clock, dependencies, position, body FROM commits
      WHERE list = \(list) AND position > \(Int64(bitPattern: position))
      ORDER BY position LIMIT \(Int64(max(0, limit)))
      """)
    if commits.isEmpty { try await requireList(list) }
    return commits
  }

  /// The list's commits that `vector` does not cover, in position order.
  ///
  /// - Complexity: a scan of the list's commits, each checked against the vector by a hash join.
  public func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError)
    -> [SyncStoredCommit]
  {
    try await ready()
    let entries = vector.entries
    let replicas = entries.map { Int64(bitPattern: $0.replica.rawValue) }
    let sequences = entries.map { Int64(bitPattern: $0.sequence) }
    // Sequences compare as unsigned: both sides are stored as the same bit patterns, and a
    // replica's sequences stay far below 2^63.
    let commits = try await selectCommits(
      of: list,
      """
      SELECT c.replica, c.sequence, c.lamport_clock, c.dependencies, c.position, c.body
      FROM commits c LEFT JOIN unnest(\(replicas)::bigint[], \(sequences)::bigint[]) AS v (replica, sequence)
        ON v.replica = c.replica
      WHERE c.list = \(list) AND (v.sequence IS NULL OR c.sequence > v.sequence)
      ORDER BY c.position
      """)
    if commits.isEmpty { try await requireList(list) }
    return commits
  }

  /// A page of the list's commits that `vector` does not cover, with positions in
  /// `position + 1 ... last`, in position order: at most `limit` commits and `maxBytes` of
  /// their bytes (at least one commit).
  ///
  /// - Complexity: an index range scan from `position`, in position order so it stops after
  ///   `limit` rows (a join would sort the rest of the list for every page), each row checked
  ///   against the vector's entries; only the page's rows are detoasted and sent (the running
  ///   byte count reads each body's stored length).
  public func commits(
    of list: String, notCoveredBy vector: ReplicaVersionVector, after position: UInt64, through last: UInt64, limit: Int,
    maxBytes: Int
  ) async throws(SyncStorageError) -> [SyncStoredCommit] {
    try await ready()
    guard last > position, limit > 0 else {
      try await requireList(list)
      return []
    }
    let entries = vector.entries
    let replicas = entries.map { Int64(bitPattern: $0.replica.rawValue) }
    let sequences = entries.map { Int64(bitPattern: $0.sequence) }
    let commits = try await selectCommits(
      of: list,
      """
      SELECT replica, sequence, lamport_clock, dependencies, position, body FROM (
        SELECT c.replica, c.sequence, c.lamport_clock, c.dependencies, c.position, c.body,
          sum(octet_length(c.body)) OVER (ORDER BY c.position ROWS UNBOUNDED PRECEDING) - octet_length(c.body) AS before
        FROM commits c
        WHERE c.list = \(list) AND c.position > \(Int64(bitPattern: position)) AND c.position <= \(Int64(bitPattern: min(last, UInt64(Int64.max))))
          AND c.sequence > COALESCE(
            (SELECT v.sequence FROM unnest(\(replicas)::bigint[], \(sequences)::bigint[]) AS v (replica, sequence)
             WHERE v.replica = c.replica), 0)
        ORDER BY c.position LIMIT \(Int64(limit))
      ) page
      WHERE before = 0 OR before + octet_length(body) <= \(Int64(max(0, maxBytes)))
      ORDER BY position
      """)
    if commits.isEmpty { try await requireList(list) }
    return commits
  }

  func requireList(_ list: String) async throws(SyncStorageError) {
    guard try await genesis(of: list) != nil else { throw .unknownList(list) }
  }

  func selectCommits(of list: String, _ query: PostgresQuery) async throws(SyncStorageError) -> [SyncStoredCommit] {
    let doing = "reading the commits of '\(list)'"
    var commits: [SyncStoredCommit] = []
    for row in try await rows(query, doing: doing) {
      let (replica, sequence, clock, dependencies, position, body) = try decode(
        row, as: (Int64, Int64, Int64, ByteBuffer, Int64, ByteBuffer).self, doing: doing)
      let id = ReplicaCommitID(replica: ReplicaID(rawValue: UInt64(bitPattern: replica)), sequence: UInt64(bitPattern: sequence))
      guard let vector = _VectorBytes.decode(dependencies.readableBytesView) else {
        throw .damaged(list: list, reason: "commit \(id) at position \(position): unreadable dependencies")
      }
      commits.append(
        SyncStoredCommit(
          id: id, lamportClock: UInt64(bitPattern: clock), dependencies: vector,
          bytes: Array(body.readableBytesView), position: UInt64(bitPattern: position)))
    }
    return commits
  }
}
