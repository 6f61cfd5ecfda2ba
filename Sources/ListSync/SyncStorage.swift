import ListHistory

/// Where a sync server keeps its lists: each list's genesis (identity and base state) and every
/// commit pushed to it, in the order they were stored.
///
/// A storage never merges: commits are opaque encoded bytes with their identity, Lamport clock and
/// dependencies beside them, so a storage can be a folder of journal files or tables in a
/// database. Clients merge; the agreed order comes from the commits themselves.
///
/// Appends are idempotent: a commit already held is counted as a duplicate and stored once; a
/// *different* commit under an identity already held is refused with
/// ``SyncStorageError/conflictingCommit(list:id:)`` and nothing of that append is stored.
/// An append returns only once its commits are durable.
///
/// Several server instances may share one storage (PostgreSQL): each list's positions are then
/// assigned in one serial order across instances, and ``externalAppends()`` tells an instance
/// about positions other instances stored.
public protocol SyncStorage: Sendable {
  /// The list's genesis, or `nil` if no list of that name exists.
  func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis?

  /// Creates the list with `genesis` unless it exists; returns the genesis the list has (the
  /// first creator's when two race).
  func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis

  /// Stores the commits not held yet, durably, and gives each its position in the list.
  ///
  /// - Returns: the stored commits with their positions, in position order, and how many were
  ///   duplicates.
  /// - Throws: ``SyncStorageError/unknownList(_:)``, ``SyncStorageError/conflictingCommit(list:id:)``
  ///   (nothing stored), ``SyncStorageError/backend(_:)``.
  func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError) -> SyncAppendResult

  /// The list's commits with positions above `position`, in position order, at most `limit`.
  func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError) -> [SyncStoredCommit]

  /// The list's commits that `vector` does not cover, in position order.
  func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError)
    -> [SyncStoredCommit]

  /// One page of the list's commits that `vector` does not cover with positions above
  /// `position` and at most `last`, in position order: at most `limit` commits and at most
  /// `maxBytes` of their bytes, except that a page holds at least the first such commit however
  /// large. Empty when no such commit is left. The hub reads a joining session's catch-up with
  /// it, a page per frame as the session's queue drains.
  ///
  /// The default reads ahead through ``commits(of:after:limit:)`` in steps of at most 64 commits;
  /// a storage that can filter and bound by bytes where the commits are should override it.
  func commits(
    of list: String, notCoveredBy vector: ReplicaVersionVector, after position: UInt64, through last: UInt64, limit: Int,
    maxBytes: Int
  ) async throws(SyncStorageError) -> [SyncStoredCommit]

  /// The list's last position (0 when it holds no commit).
  func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64

  /// The names of all lists.
  func lists() async throws(SyncStorageError) -> [String]

  /// Appends stored by *other* instances sharing this storage, as they become visible. A storage
  /// only one instance uses returns a sequence that ends at ``close()``.
  func externalAppends() -> AsyncStream<SyncAppendNotice>

  /// Flushes and releases the storage; later calls fail with ``SyncStorageError/closed``.
  func close() async throws(SyncStorageError)

  /// The owner bound to each replica identity of `list` (``bindOwners(_:of:)``); empty for a
  /// storage that keeps none (the hub then binds in memory only, until the list is unloaded).
  func owners(of list: String) async throws(SyncStorageError) -> [ReplicaID: String]

  /// Records that each replica identity belongs to its owner, durably, before commits under
  /// it are appended. A replica bound already keeps its first owner: one bound to another owner
  /// (by another instance sharing the storage) throws
  /// ``SyncStorageError/boundToAnotherOwner(list:replica:)`` and binds nothing.
  func bindOwners(_ owners: [ReplicaID: String], of list: String) async throws(SyncStorageError)
}

extension SyncStorage {
  public func commits(
    of list: String, notCoveredBy vector: ReplicaVersionVector, after position: UInt64, through last: UInt64, limit: Int,
    maxBytes: Int
  ) async throws(SyncStorageError) -> [SyncStoredCommit] {
    var page: [SyncStoredCommit] = []
    var bytes = 0
    var cursor = position
    while cursor < last, page.count < limit {
      // Small steps: a storage's commits may be up to a MiB each, and covered ones are dropped.
      let step = try await commits(of: list, after: cursor, limit: Int(min(64, last - cursor)))
      guard let end = step.last?.position else { break }
      for commit in step where commit.position <= last && !vector.contains(commit.id) {
        guard page.count < limit, page.isEmpty || bytes + commit.bytes.count <= maxBytes else { return page }
        page.append(commit)
        bytes += commit.bytes.count
      }
      cursor = end
    }
    return page
  }

  public func owners(of list: String) async throws(SyncStorageError) -> [ReplicaID: String] { [:] }
  public func bindOwners(_ owners: [ReplicaID: String], of list: String) async throws(SyncStorageError) {}
}

/// One commit as a storage holds it.
public struct SyncStoredCommit: Sendable, Hashable {
  public var id: ReplicaCommitID
  public var lamportClock: UInt64
  public var dependencies: ReplicaVersionVector
  /// `HistoryCodec.encode(replicaCommits: [commit])`: the commit alone, decodable on its own.
  public var bytes: [UInt8]
  /// The commit's position in its list, from 1 in storage order; 0 until stored.
  public var position: UInt64

  public init(
    id: ReplicaCommitID, lamportClock: UInt64, dependencies: ReplicaVersionVector, bytes: [UInt8], position: UInt64 = 0
  ) {
    self.id = id
    self.lamportClock = lamportClock
    self.dependencies = dependencies
    self.bytes = bytes
    self.position = position
  }
}

/// A shared list's identity and base state, fixed when the list is created on the server.
public struct SyncListGenesis: Sendable, Hashable {
  /// The shared list's identifier (``ListReplica/listID``); batches of other lists are refused.
  public var listID: UInt64
  /// The base state, encoded as a replica journal's header encodes it.
  public var base: [UInt8]

  public init(listID: UInt64, base: [UInt8]) {
    self.listID = listID
    self.base = base
  }
}

/// What an append stored.
public struct SyncAppendResult: Sendable, Hashable {
  /// The commits newly stored, with their positions, in position order.
  public var stored: [SyncStoredCommit]
  /// How many commits of the append were held already.
  public var duplicates: Int

  public init(stored: [SyncStoredCommit], duplicates: Int) {
    self.stored = stored
    self.duplicates = duplicates
  }
}

/// Positions up to `lastPosition` of `list` were stored by another instance.
public struct SyncAppendNotice: Sendable, Hashable {
  public var list: String
  public var lastPosition: UInt64

  public init(list: String, lastPosition: UInt64) {
    self.list = list
    self.lastPosition = lastPosition
  }
}

/// Why a storage refused a request.
public enum SyncStorageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No list of that name exists.
  case unknownList(String)
  /// A different commit under an identity the list holds already; nothing was stored.
  case conflictingCommit(list: String, id: ReplicaCommitID)
  /// The list's stored data is damaged (a file, a row), with where.
  case damaged(list: String, reason: String)
  /// The backend failed (I/O, the database), with its message.
  case backend(String)
  /// The storage was closed.
  case closed
  /// A replica identity is bound to another owner already (``SyncStorage/bindOwners(_:of:)``);
  /// nothing was bound.
  case boundToAnotherOwner(list: String, replica: ReplicaID)

  public var description: String {
    switch self {
    case .unknownList(let list): "no list named '\(list)'"
    case .conflictingCommit(let list, let id): "list '\(list)' holds a different commit \(id)"
    case .damaged(let list, let reason): "list '\(list)' is damaged: \(reason)"
    case .backend(let message): "storage: \(message)"
    case .closed: "the storage is closed"
    case .boundToAnotherOwner(let list, let replica): "replica \(replica) of list '\(list)' belongs to another owner"
    }
  }
}
