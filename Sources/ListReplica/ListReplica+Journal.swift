import ListState
import ListHistory
import ListLocking
import JournalFormat

extension ListReplica {
  /// Creates a replica journal at `path` for a new shared list (empty, or starting from
  /// `base`), and returns the replica it holds.
  ///
  /// ```swift
  /// let phone = try ListReplica<String, Row>.create(at: "Groceries.journal", codec: HistoryCodec())
  /// ```
  /// - Throws: ``ReplicaError/exists(path:)`` if the file exists, ``ReplicaError/journal(path:reason:)``.
  @inlinable
  public static func create(
    at path: String, codec: HistoryCodec<Section, Item>, replica: ReplicaID = .random(), listID: UInt64? = nil,
    base: Snapshot = Snapshot(), options: JournalOptions = JournalOptions(),
    configuration: ListReplicaConfiguration = ListReplicaConfiguration()
  ) throws(ReplicaError) -> ListReplica {
    let replica = ListReplica(replica: replica, listID: listID, base: base, configuration: configuration)
    try replica.attachNewJournal(at: path, codec: codec, options: options)
    return replica
  }

  /// Creates a replica journal at `path` holding a new replica of `other`'s list: the same list
  /// identity, base and commits, its own replica identifier. What `listjournal clone` does.
  ///
  /// - Complexity: O(commits of `other`).
  @inlinable
  public static func create(
    at path: String, cloning other: ListReplica, codec: HistoryCodec<Section, Item>, replica: ReplicaID = .random(),
    options: JournalOptions = JournalOptions(), configuration: ListReplicaConfiguration = ListReplicaConfiguration()
  ) throws(ReplicaError) -> ListReplica {
    let clone = ListReplica(cloning: other, replica: replica, configuration: configuration)
    try clone.attachNewJournal(at: path, codec: codec, options: options)
    let commits = clone.commits
    if !commits.isEmpty {
      try clone.state.withLock { state throws(ReplicaError) in
        try state.journal!.write(commits, holding: commits.count, sync: true)
      }
    }
    return clone
  }

  @inlinable
  func attachNewJournal(at path: String, codec: HistoryCodec<Section, Item>, options: JournalOptions) throws(ReplicaError) {
    var options = options
    options.writesReadIndex = false
    if options.fileSystem.exists(path) { throw .exists(path: path) }
    try state.withLock { state throws(ReplicaError) in
      var headerCodec = codec
      let header: [UInt8]
      do {
        header = try _ReplicaHeader.encode(replica: state.replica, listID: state.listID, base: state.base, codec: &headerCodec)
      } catch {
        throw .journal(path: path, reason: "cannot encode the base state: \(error)")
      }
      do {
        let writer = try JournalWriter.create(at: path, options: options)
        _ = try writer.append(JournalRecord(kind: _ReplicaRecordKind.header, version: 0, payload: header))
        try writer.sync()
        state.journal = _ReplicaJournal(path: path, writer: writer, codec: codec)
      } catch {
        throw .journal(path: path, reason: "\(error)")
      }
    }
  }

  /// Opens a replica journal: reads its header and every commit record, applies the commits in
  /// the agreed order and keeps the file open for appending (a torn tail from a crash is cut
  /// first; only acknowledged, synced commits are guaranteed to be there).
  ///
  /// ```swift
  /// let laptop = try ListReplica<String, Row>.open(at: "Groceries.journal", codec: HistoryCodec())
  /// ```
  /// - Throws: ``ReplicaError/notAReplica(path:)`` for a single-writer journal,
  ///   ``ReplicaError/journal(path:reason:)`` for a damaged or unreadable one.
  /// - Complexity: O(file size) plus applying every commit.
  @inlinable
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, options: JournalOptions = JournalOptions(),
    configuration: ListReplicaConfiguration = ListReplicaConfiguration()
  ) throws(ReplicaError) -> ListReplica {
    var options = options
    options.writesReadIndex = false
    let writer: JournalWriter
    do { writer = try JournalWriter.open(at: path, options: options) } catch {
      throw .journal(path: path, reason: "\(error)")
    }
    do {
      let contents = try read(path: path, codec: codec, options: options)
      var initial = _ReplicaState<Section, Item>(
        replica: contents.replica, listID: contents.listID, base: contents.base, rebaseWindow: configuration.rebaseWindow,
        now: configuration.clock)
      initial.append(contents.commits)
      initial.journal = _ReplicaJournal(path: path, writer: writer, codec: codec)
      return ListReplica(state: initial)
    } catch {
      try? writer.close()
      throw error
    }
  }

  /// The header and the distinct commits of a replica journal, in the agreed order.
  @inlinable
  public static func read(path: String, codec: HistoryCodec<Section, Item>, options: JournalOptions = JournalOptions())
    throws(ReplicaError) -> (replica: ReplicaID, listID: UInt64, base: Snapshot, commits: [Commit])
  {
    var codec = codec
    var header: (replica: ReplicaID, listID: UInt64, base: Snapshot)?
    var commits: [Commit] = []
    var seen = Set<ReplicaCommitID>()
    do {
      let reader = try JournalReader.open(at: path, limits: options.limits, fileSystem: options.fileSystem)
      var iterator = reader.makeIterator()
      while let record = try iterator.next() {
        if header == nil {
          guard record.kind == _ReplicaRecordKind.header else {
            if record.kind == .commit || record.kind == .checkpoint || record.kind == .headMove {
              throw ReplicaError.notAReplica(path: path)
            }
            throw ReplicaError.journal(path: path, reason: "the first record (\(record.kind)) is not a replica header")
          }
          do { header = try _ReplicaHeader.decode(record.payload, codec: &codec) } catch {
            throw ReplicaError.journal(path: path, reason: "record \(record.sequence): \(error)")
          }
          continue
        }
        guard record.kind == _ReplicaRecordKind.commits else { continue }
        let decoded: [Commit]
        do { decoded = try codec.decodeReplicaCommits(record.payload) } catch {
          throw ReplicaError.journal(path: path, reason: "record \(record.sequence): \(error)")
        }
        for commit in decoded where seen.insert(commit.id).inserted { commits.append(commit) }
      }
    } catch let error as ReplicaError {
      throw error
    } catch {
      throw .journal(path: path, reason: "\(error)")
    }
    guard let header else {
      throw .journal(path: path, reason: "no replica header")
    }
    commits.sort { $0.orderKey < $1.orderKey }
    return (header.replica, header.listID, header.base, commits)
  }

  /// Makes every commit written so far durable (received batches always are once `receive`
  /// returns; local commits are as the journal's durability says); a no-op in memory.
  @inlinable
  public func sync() throws(ReplicaError) {
    try state.withLock { state throws(ReplicaError) in try state.journal?.sync() }
  }

  /// Closes the journal (further changes throw); a no-op for an in-memory replica.
  @inlinable
  public func close() throws(ReplicaError) {
    try state.withLock { state throws(ReplicaError) in try state.journal?.close() }
  }
}
