import ListReplica
import ListSync
import Synchronization

/// A `SyncStorage` in memory, for one instance: the contract in its plainest form. The
/// conformance checks run on it with no database, and a hub's tests can use it as a double.
///
/// `faults` makes it break the contract on purpose, so a test can show a check catches that.
///
/// ```swift
/// let storage = InMemorySyncStorage()
/// try await SyncStorageConformance.checkIdempotentAppends(storage, list: "a")
/// ```
public final class InMemorySyncStorage: SyncStorage {
  /// Ways to break the contract, for tests of the checks themselves.
  public struct Faults: Sendable, OptionSet {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A different commit under a held identity is counted as a duplicate instead of refused.
    public static let acceptsConflictingTwins = Faults(rawValue: 1 << 0)
    /// Commits of a refused append stay stored.
    public static let keepsPartOfRefusedAppends = Faults(rawValue: 1 << 1)
    /// A commit appended again is stored again.
    public static let storesDuplicates = Faults(rawValue: 1 << 2)
  }

  struct List {
    var genesis: SyncListGenesis
    var commits: [SyncStoredCommit] = []
    var held: [ReplicaCommitID: Int] = [:]
  }

  struct State {
    var lists: [String: List] = [:]
    var closed = false
    var streams: [AsyncStream<SyncAppendNotice>.Continuation] = []
  }

  let faults: Faults
  let state = Mutex(State())

  public init(faults: Faults = []) { self.faults = faults }

  public func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      return state.lists[list]?.genesis
    }
  }

  public func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      if let held = state.lists[list] { return held.genesis }
      state.lists[list] = List(genesis: genesis)
      return genesis
    }
  }

  public func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError) -> SyncAppendResult {
    let faults = self.faults
    return try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      guard var held = state.lists[list] else { throw .unknownList(list) }
      let before = held
      var stored: [SyncStoredCommit] = []
      for var commit in commits {
        if let index = held.held[commit.id], !faults.contains(.storesDuplicates) {
          if held.commits[index].bytes != commit.bytes, !faults.contains(.acceptsConflictingTwins) {
            if faults.contains(.keepsPartOfRefusedAppends) { state.lists[list] = held } else { state.lists[list] = before }
            throw .conflictingCommit(list: list, id: commit.id)
          }
          continue
        }
        commit.position = UInt64(held.commits.count + 1)
        held.held[commit.id] = held.commits.count
        held.commits.append(commit)
        stored.append(commit)
      }
      state.lists[list] = held
      return SyncAppendResult(stored: stored, duplicates: commits.count - stored.count)
    }
  }

  public func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError) -> [SyncStoredCommit] {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      guard let held = state.lists[list] else { throw .unknownList(list) }
      return Array(held.commits.filter { $0.position > position }.prefix(max(0, limit)))
    }
  }

  public func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError)
    -> [SyncStoredCommit]
  {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      guard let held = state.lists[list] else { throw .unknownList(list) }
      return held.commits.filter { !vector.contains($0.id) }
    }
  }

  public func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64 {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      guard let held = state.lists[list] else { throw .unknownList(list) }
      return UInt64(held.commits.count)
    }
  }

  public func lists() async throws(SyncStorageError) -> [String] {
    try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      return state.lists.keys.sorted()
    }
  }

  /// One instance: nothing to tell; the stream ends at ``close()``.
  public func externalAppends() -> AsyncStream<SyncAppendNotice> {
    let (stream, continuation) = AsyncStream<SyncAppendNotice>.makeStream()
    let closed = state.withLock { state in
      if !state.closed { state.streams.append(continuation) }
      return state.closed
    }
    if closed { continuation.finish() }
    return stream
  }

  public func close() async throws(SyncStorageError) {
    let streams = state.withLock { state in
      state.closed = true
      defer { state.streams = [] }
      return state.streams
    }
    for stream in streams { stream.finish() }
  }
}
