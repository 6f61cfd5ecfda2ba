import ListHistory
import ListReplica
import JournalFormat
import ListLocking

/// One hosted list's replica journal, open for appending, with its commits in memory in storage
/// order (positions are indexes + 1).
final class _FileList: Sendable {
  struct Contents {
    var genesis: SyncListGenesis
    var commits: [SyncStoredCommit] = []
    var index: [ReplicaCommitID: Int] = [:]
    /// Replica identities bound to their owners (owner records), first binding kept.
    var owners: [ReplicaID: String] = [:]
    var closed = false
    /// An append failed: the file's tail is unknown, so the storage reopens the file.
    var broken = false
  }

  let name: String
  let path: String
  let writer: JournalWriter
  let contents: ListMutex<Contents>

  init(name: String, path: String, writer: JournalWriter, contents: Contents) {
    self.name = name
    self.path = path
    self.writer = writer
    self.contents = ListMutex(contents)
  }

  /// Creates the file: the header record, synced, and the directory entry synced.
  static func create(
    name: String, path: String, genesis: SyncListGenesis, replica: ReplicaID, options: JournalOptions
  ) throws(SyncStorageError) -> _FileList {
    do {
      let writer = try JournalWriter.create(at: path, options: options)
      let header = ReplicaJournalLayout.header(replica: replica, listID: genesis.listID, base: genesis.base)
      _ = try writer.append(JournalRecord(kind: ReplicaJournalLayout.headerKind, version: 0, payload: header))
      try writer.sync()
      try options.fileSystem.syncDirectory(containing: path)
      return _FileList(name: name, path: path, writer: writer, contents: Contents(genesis: genesis))
    } catch {
      throw .backend("cannot create '\(path)': \(error)")
    }
  }

  /// Opens an existing file: a torn tail from a crash is cut, every whole commit record is read
  /// back (duplicates by identity dropped, first arrival keeps its position).
  static func open(name: String, path: String, options: JournalOptions) throws(SyncStorageError) -> _FileList {
    let writer: JournalWriter
    do { writer = try JournalWriter.open(at: path, options: options) } catch {
      throw .damaged(list: name, reason: "\(path): \(error)")
    }
    do {
      let contents = try read(name: name, path: path, options: options)
      return _FileList(name: name, path: path, writer: writer, contents: contents)
    } catch {
      try? writer.close()
      throw error
    }
  }

  static func read(name: String, path: String, options: JournalOptions) throws(SyncStorageError) -> Contents {
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var contents: Contents?
    do {
      let reader = try JournalReader.open(at: path, limits: options.limits, fileSystem: options.fileSystem)
      var iterator = reader.makeIterator()
      while let record = try iterator.next() {
        guard var held = contents else {
          guard record.kind == ReplicaJournalLayout.headerKind,
            let header = ReplicaJournalLayout.parseHeader(record.payload)
          else {
            throw SyncStorageError.damaged(list: name, reason: "\(path): the first record is not a replica header")
          }
          contents = Contents(genesis: SyncListGenesis(listID: header.listID, base: header.base))
          continue
        }
        if record.kind == ReplicaJournalLayout.ownerKind {
          guard let bound = ReplicaJournalLayout.parseOwner(record.payload) else {
            throw SyncStorageError.damaged(list: name, reason: "\(path): record \(record.sequence) is not an owner record")
          }
          if held.owners[bound.replica] == nil { held.owners[bound.replica] = bound.owner }
          contents = held
          continue
        }
        guard record.kind == ReplicaJournalLayout.commitsKind else { continue }
        let decoded: [ReplicaCommit<JournalValueElement, JournalValueElement>]
        do { decoded = try codec.decodeReplicaCommits(record.payload) } catch {
          throw SyncStorageError.damaged(list: name, reason: "\(path): record \(record.sequence): \(error)")
        }
        for commit in decoded where held.index[commit.id] == nil {
          // A record of one commit is that commit's own encoding; others are split.
          let bytes: [UInt8]
          if decoded.count == 1 {
            bytes = record.payload
          } else {
            do { bytes = try codec.encode(replicaCommits: [commit]) } catch {
              throw SyncStorageError.damaged(list: name, reason: "\(path): record \(record.sequence): \(error)")
            }
          }
          let position = UInt64(held.commits.count + 1)
          held.index[commit.id] = held.commits.count
          held.commits.append(
            SyncStoredCommit(
              id: commit.id, lamportClock: commit.lamportClock, dependencies: commit.dependencies, bytes: bytes,
              position: position))
        }
        contents = held
      }
    } catch let error as SyncStorageError {
      throw error
    } catch {
      throw .damaged(list: name, reason: "\(path): \(error)")
    }
    guard let contents else { throw .damaged(list: name, reason: "\(path): no replica header") }
    return contents
  }

  /// Appends the commits not held, one record each, then one sync for them all.
  func append(_ commits: [SyncStoredCommit]) throws(SyncStorageError) -> SyncAppendResult {
    try contents.withLock { contents throws(SyncStorageError) in
      guard !contents.closed else { throw .closed }
      var fresh: [SyncStoredCommit] = []
      var freshIndex: [ReplicaCommitID: Int] = [:]
      var duplicates = 0
      for commit in commits {
        if let held = contents.index[commit.id] {
          guard contents.commits[held].bytes == commit.bytes else { throw .conflictingCommit(list: name, id: commit.id) }
          duplicates += 1
        } else if let earlier = freshIndex[commit.id] {
          guard fresh[earlier].bytes == commit.bytes else { throw .conflictingCommit(list: name, id: commit.id) }
          duplicates += 1
        } else {
          var stored = commit
          stored.position = UInt64(contents.commits.count + fresh.count + 1)
          freshIndex[commit.id] = fresh.count
          fresh.append(stored)
        }
      }
      guard !fresh.isEmpty else { return SyncAppendResult(stored: [], duplicates: duplicates) }
      do {
        for commit in fresh {
          _ = try writer.append(
            JournalRecord(kind: ReplicaJournalLayout.commitsKind, version: commit.position, payload: commit.bytes))
        }
        try writer.sync()
      } catch {
        // The file's tail is unknown now: the storage reopens it (cutting what is torn) before
        // the next request, so positions always agree with the file.
        contents.closed = true
        contents.broken = true
        throw .backend("'\(path)': \(error)")
      }
      for commit in fresh {
        contents.index[commit.id] = contents.commits.count
        contents.commits.append(commit)
      }
      return SyncAppendResult(stored: fresh, duplicates: duplicates)
    }
  }

  /// Appends an owner record per replica not bound yet, then one sync.
  func bindOwners(_ owners: [ReplicaID: String]) throws(SyncStorageError) {
    try contents.withLock { contents throws(SyncStorageError) in
      guard !contents.closed else { throw .closed }
      for (replica, owner) in owners {
        if let bound = contents.owners[replica], bound != owner { throw .boundToAnotherOwner(list: name, replica: replica) }
      }
      let fresh = owners.filter { contents.owners[$0.key] == nil }.sorted { $0.key.rawValue < $1.key.rawValue }
      guard !fresh.isEmpty else { return }
      do {
        for (replica, owner) in fresh {
          _ = try writer.append(
            JournalRecord(
              kind: ReplicaJournalLayout.ownerKind, version: UInt64(contents.commits.count),
              payload: ReplicaJournalLayout.owner(replica: replica, owner: owner)))
        }
        try writer.sync()
      } catch {
        contents.closed = true
        contents.broken = true
        throw .backend("'\(path)': \(error)")
      }
      for (replica, owner) in fresh { contents.owners[replica] = owner }
    }
  }

  var isBroken: Bool { contents.withLock { $0.broken } }

  func close() {
    contents.withLock { $0.closed = true }
    try? writer.close()
  }
}
