import Foundation
import ListHistory
import ListReplica
import JournalFormat
import ListLocking

/// The sync server's default storage: a data folder with one replica journal per list
/// (`<name>.journal`), nothing else to install.
///
/// Each file is a replica journal as `listjournal info/log/show` read it: a header (the server's
/// replica identifier and the list's genesis) and one commits record per pushed commit, in the
/// order the commits were stored (unmerged: clients merge). An append writes its records and
/// syncs once, so a group of pushes costs one fsync; a file reopened after a crash keeps every
/// commit whose append returned.
///
/// ```swift
/// let storage = try SyncFileStorage(directory: "/var/lib/lists")
/// let hub = SyncHub(storage: storage)
/// ```
/// - Complexity: commits are kept in memory (their encoded bytes); opening a list reads its file,
///   O(file size).
public final class SyncFileStorage: SyncStorage {
  /// The data folder.
  public let directory: String
  let options: JournalOptions
  let replica: ReplicaID
  let state = ListMutex<_StorageState>(_StorageState())
  let noticesEnd: AsyncStream<SyncAppendNotice>.Continuation
  let notices: AsyncStream<SyncAppendNotice>

  struct _StorageState {
    var lists: [String: _FileList] = [:]
    var closed = false
  }

  /// A storage over `directory` (created when missing, for the POSIX file system).
  ///
  /// - Parameters:
  ///   - options: the journal options of every file (its `fileSystem` lets tests inject faults
  ///     and crashes).
  ///   - replica: the server's replica identifier written in the headers of new files.
  public init(directory: String, options: JournalOptions = JournalOptions(), replica: ReplicaID = .random()) throws(SyncStorageError) {
    self.directory = directory
    var options = options
    options.writesReadIndex = false
    self.options = options
    self.replica = replica
    (notices, noticesEnd) = AsyncStream.makeStream(of: SyncAppendNotice.self)
    if options.fileSystem is POSIXFileSystem {
      do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
        throw .backend("cannot create the data folder '\(directory)': \(error)")
      }
    }
  }

  /// The file of list `name`.
  public func path(of name: String) -> String { directory + "/" + name + ".journal" }

  func list(_ name: String) throws(SyncStorageError) -> _FileList? {
    try state.withLock { state throws(SyncStorageError) -> _FileList? in
      guard !state.closed else { throw .closed }
      if let open = state.lists[name] {
        guard open.isBroken else { return open }
        open.close()
        state.lists[name] = nil
      }
      let path = path(of: name)
      guard options.fileSystem.exists(path) else { return nil }
      let list = try _FileList.open(name: name, path: path, options: options)
      state.lists[name] = list
      return list
    }
  }

  func existing(_ name: String) throws(SyncStorageError) -> _FileList {
    guard let list = try list(name) else { throw .unknownList(name) }
    return list
  }

  public func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? {
    try self.list(list)?.contents.withLock { $0.genesis }
  }

  public func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
    if let held = try self.list(list) { return held.contents.withLock { $0.genesis } }
    return try state.withLock { state throws(SyncStorageError) -> SyncListGenesis in
      guard !state.closed else { throw .closed }
      if let open = state.lists[list] { return open.contents.withLock { $0.genesis } }
      let created = try _FileList.create(
        name: list, path: path(of: list), genesis: genesis, replica: replica, options: options)
      state.lists[list] = created
      return genesis
    }
  }

  public func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError) -> SyncAppendResult {
    try existing(list).append(commits)
  }

  public func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError) -> [SyncStoredCommit] {
    try existing(list).contents.withLock { contents in
      let start = Int(min(position, UInt64(contents.commits.count)))
      return Array(contents.commits[start..<min(contents.commits.count, start + max(0, min(limit, Int.max - start)))])
    }
  }

  public func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError)
    -> [SyncStoredCommit]
  {
    try existing(list).contents.withLock { contents in contents.commits.filter { !vector.contains($0.id) } }
  }

  /// - Complexity: O(commits scanned): positions are indexes into the list's commits in memory,
  ///   and the page shares their bytes (no copy).
  public func commits(
    of list: String, notCoveredBy vector: ReplicaVersionVector, after position: UInt64, through last: UInt64, limit: Int,
    maxBytes: Int
  ) async throws(SyncStorageError) -> [SyncStoredCommit] {
    try existing(list).contents.withLock { contents in
      let end = Int(min(last, UInt64(contents.commits.count)))
      var index = Int(min(position, UInt64(end)))
      var page: [SyncStoredCommit] = []
      var bytes = 0
      while index < end, page.count < limit {
        let commit = contents.commits[index]
        index += 1
        guard !vector.contains(commit.id) else { continue }
        guard page.isEmpty || bytes + commit.bytes.count <= maxBytes else { break }
        page.append(commit)
        bytes += commit.bytes.count
      }
      return page
    }
  }

  public func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64 {
    try existing(list).contents.withLock { UInt64($0.commits.count) }
  }

  public func lists() async throws(SyncStorageError) -> [String] {
    var names = Set(try state.withLock { state throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      return state.lists.map(\.key)
    })
    if options.fileSystem is POSIXFileSystem, let files = try? FileManager.default.contentsOfDirectory(atPath: directory) {
      for file in files where file.hasSuffix(".journal") { names.insert(String(file.dropLast(".journal".count))) }
    }
    return names.sorted()
  }

  public func externalAppends() -> AsyncStream<SyncAppendNotice> { notices }

  public func owners(of list: String) async throws(SyncStorageError) -> [ReplicaID: String] {
    try existing(list).contents.withLock { $0.owners }
  }

  public func bindOwners(_ owners: [ReplicaID: String], of list: String) async throws(SyncStorageError) {
    try existing(list).bindOwners(owners)
  }

  public func close() async throws(SyncStorageError) {
    let lists = state.withLock { state in
      state.closed = true
      let lists = state.lists.map(\.value)
      state.lists = [:]
      return lists
    }
    for list in lists { list.close() }
    noticesEnd.finish()
  }
}
