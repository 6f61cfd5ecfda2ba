import JournalFormat
import JournalFormatTesting
import ListHistory
import ListReplica
import ListState
import TestSupport
import Testing

/// Replica journals: what a replica commits or receives survives a reopen and a crash; a
/// reopened replica resumes an exchange without loss or duplicates; damaged batches and foreign
/// files are refused whole with typed errors.
@Suite struct ReplicaJournalTests {
  typealias Replica = ListReplica<TestSection, TestItem>
  static let codec = HistoryCodec<TestSection, TestItem>()

  static func options(_ fs: FaultInjectingFileSystem, durability: JournalDurability = .strict) -> JournalOptions {
    var options = JournalOptions()
    options.fileSystem = fs
    options.durability = durability
    return options
  }

  @Test func aReopenedReplicaHoldsItsCommitsAndItsUndoStack() throws {
    let fs = FaultInjectingFileSystem()
    let phone = try Replica.create(at: "/phone", codec: Self.codec, options: Self.options(fs))
    try phone.transaction(label: "Start") { tx in
      try tx.appendSections([TestSection("S")])
      try tx.appendItems([TestItem("a"), TestItem("b")])
    }
    try phone.transaction(label: "Rename") { try $0.updateItem(TestItem("a", content: "Apple")) }
    try phone.undo()
    let snapshot = phone.snapshot
    let commits = phone.commits
    try phone.close()

    let reopened = try Replica.open(at: "/phone", codec: Self.codec, options: Self.options(fs))
    #expect(reopened.replicaID == phone.replicaID)
    #expect(reopened.listID == phone.listID)
    #expect(reopened.commits == commits)
    #expect(reopened.snapshot == snapshot)
    #expect(reopened.canRedo)
    #expect(reopened.redoLabel == "Rename")
    try reopened.redo()
    #expect(reopened.snapshot.item("a")?.content == "Apple")
    try reopened.undo()
    try reopened.undo()
    #expect(reopened.snapshot.isEmpty)
    #expect(!reopened.canUndo)
  }

  @Test func aCloneSharesTheListAndConverges() throws {
    let fs = FaultInjectingFileSystem()
    let phone = try Replica.create(at: "/phone", codec: Self.codec, options: Self.options(fs))
    try phone.transaction { tx in
      try tx.appendSections([TestSection("S")])
      try tx.appendItems([TestItem("a")])
    }
    let laptop = try Replica.create(at: "/laptop", cloning: phone, codec: Self.codec, options: Self.options(fs))
    #expect(laptop.listID == phone.listID)
    #expect(laptop.replicaID != phone.replicaID)
    #expect(laptop.snapshot == phone.snapshot)
    try laptop.transaction { try $0.appendItems([TestItem("b")]) }
    try phone.transaction { try $0.insertItems([TestItem("z")], beforeItem: "a") }
    try laptop.receive(phone.batch(since: laptop.versionVector, codec: Self.codec), codec: Self.codec)
    try phone.receive(laptop.batch(since: phone.versionVector, codec: Self.codec), codec: Self.codec)
    #expect(phone.snapshot == laptop.snapshot)
    #expect(phone.snapshot.itemIdentifiers == ["z", "a", "b"])
    try laptop.close()
    let again = try Replica.open(at: "/laptop", codec: Self.codec, options: Self.options(fs))
    #expect(again.snapshot == phone.snapshot)
  }

  /// A crash (unsynced writes torn at random) at any point of an exchange: the reopened replica
  /// holds every batch it acknowledged, takes the exchange up again, and ends equal to the
  /// others; no commit is applied twice.
  @Test(arguments: 0..<25)
  func aReplicaReopenedAfterACrashResumesTheExchange(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &+ 101)
    let fs = FaultInjectingFileSystem()
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 30, sectionPoolSize: 4, invalidProbability: 0.05, targetItemCount: 20, weights: weights)
    let peer = Replica(replica: ReplicaID(rawValue: 1), listID: 5)
    var target = try Replica.create(
      at: "/target", codec: Self.codec, replica: ReplicaID(rawValue: 2), listID: 5,
      options: Self.options(fs, durability: .relaxed))
    var acknowledged = Set<ReplicaCommitID>()
    for round in 0..<40 {
      for _ in 0..<3 {
        let operation = generator.next(for: peer.snapshot, using: &random)
        _ = try? peer.transaction { tx in try operation.apply(to: &tx) }
        let own = generator.next(for: target.snapshot, using: &random)
        _ = try? target.transaction { tx in try own.apply(to: &tx) }
      }
      // A partial delivery, acknowledged once `receive` returns (received batches are synced).
      var commits = peer.changes(since: target.versionVector)
      commits.shuffle(using: &random)
      commits = Array(commits.prefix(Int(random.next() % UInt64(commits.count + 1))))
      try target.receive(commits)
      acknowledged.formUnion(commits.map(\.id))
      if round % 7 == seed % 7 {
        fs.crash(.tearUnsynced(seed: random.next()))
        target = try Replica.open(at: "/target", codec: Self.codec, options: Self.options(fs, durability: .relaxed))
        for id in acknowledged { #expect(target.holds(id), "acknowledged commit \(id) lost") }
        #expect(Set(target.commits.map(\.id)).count == target.commitCount)
      }
    }
    // Full exchange: both hold everything and agree.
    try target.receive(peer.changes(since: target.versionVector))
    try peer.receive(target.changes(since: peer.versionVector))
    #expect(peer.commits == target.commits)
    #expect(peer.snapshot == target.snapshot)
    let folded = Replica(replica: ReplicaID(rawValue: 3), listID: 5)
    try folded.receive(peer.commits)
    #expect(folded.snapshot == peer.snapshot)
  }

  @Test func aDamagedBatchIsRefusedWholeAtAnyByte() throws {
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 9)
    try phone.transaction { tx in
      try tx.appendSections([TestSection("S")])
      try tx.appendItems((0..<20).map { TestItem("i\($0)") })
    }
    for index in 0..<10 { try phone.transaction { try $0.moveItem("i\(index)", afterItem: "i19") } }
    let batch = try phone.batch(since: ReplicaVersionVector(), codec: Self.codec)
    for offset in stride(from: 0, to: batch.bytes.count, by: max(1, batch.bytes.count / 97)) {
      var damaged = batch
      damaged.bytes[offset] ^= 0x5A
      let laptop = Replica(replica: ReplicaID(rawValue: 2), listID: 9)
      #expect(throws: ReplicaError.self, "flipped byte \(offset)") {
        try laptop.receive(damaged, codec: Self.codec)
      }
      #expect(laptop.commitCount == 0, "nothing of a damaged batch is applied")
      #expect(laptop.snapshot.isEmpty)
    }
    // Truncated anywhere: refused too.
    for length in stride(from: 0, to: batch.bytes.count, by: 7) {
      let laptop = Replica(replica: ReplicaID(rawValue: 2), listID: 9)
      #expect(throws: ReplicaError.self) { try laptop.receive(ReplicaBatch(bytes: Array(batch.bytes.prefix(length))), codec: Self.codec) }
      #expect(laptop.commitCount == 0)
    }
    // The intact batch goes through.
    let laptop = Replica(replica: ReplicaID(rawValue: 2), listID: 9)
    try laptop.receive(batch, codec: Self.codec)
    #expect(laptop.snapshot == phone.snapshot)
  }

  @Test func aBatchOfAnotherListIsRefused() throws {
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 9)
    try phone.transaction { try $0.appendSections([TestSection("S")]) }
    let stranger = Replica(replica: ReplicaID(rawValue: 2), listID: 10)
    let batch = try phone.batch(since: ReplicaVersionVector(), codec: Self.codec)
    #expect(throws: ReplicaError.differentList(expected: 10, actual: 9)) { try stranger.receive(batch, codec: Self.codec) }
    #expect(stranger.commitCount == 0)
  }

  @Test func aSingleWriterJournalIsNotOpenedAsAReplica() throws {
    let fs = FaultInjectingFileSystem()
    var options = JournalOptions()
    options.fileSystem = fs
    let writer = try JournalWriter.create(at: "/plain", options: options)
    _ = try writer.append(JournalRecord(kind: .commit, version: 1, payload: [0]))
    try writer.close()
    #expect(throws: ReplicaError.notAReplica(path: "/plain")) {
      _ = try Replica.open(at: "/plain", codec: Self.codec, options: options)
    }
    #expect(throws: ReplicaError.exists(path: "/plain")) {
      _ = try Replica.create(at: "/plain", codec: Self.codec, options: options)
    }
  }

  @Test func repeatedAndConflictingCommitsAreToldApart() throws {
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 9)
    try phone.transaction { try $0.appendSections([TestSection("S")]) }
    let laptop = Replica(replica: ReplicaID(rawValue: 2), listID: 9)
    let first = try laptop.receive(phone.commits)
    #expect(first.received.count == 1)
    let again = try laptop.receive(phone.commits + phone.commits)
    #expect(again.received.isEmpty)
    #expect(again.duplicates == 2)
    #expect(!again.changedList)
    // A sequence 0 or clock 0 commit is invalid; nothing of its batch is applied.
    var broken = phone.commits[0]
    broken.id.sequence = 0
    #expect(throws: ReplicaError.self) { try laptop.receive([broken]) }
  }
}
