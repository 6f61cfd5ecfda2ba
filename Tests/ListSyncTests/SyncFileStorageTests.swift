import JournalFormat
import JournalFormatTesting
import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The journal-file storage: a list's file is a replica journal the library (and the CLI)
/// reads; an append is one sync; after torn writes at random points a reopened storage holds
/// every acknowledged commit, once, and accepts new ones.
@Suite struct SyncFileStorageTests {
  static func options(_ fileSystem: FaultInjectingFileSystem) -> JournalOptions {
    var options = JournalOptions()
    options.fileSystem = fileSystem
    return options
  }

  static func stored(_ commits: [ReplicaCommit<TestSection, TestItem>]) throws -> [SyncStoredCommit] {
    var generic = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var codec = SyncFixture.codec
    return try commits.map { commit in
      let decoded = try generic.decodeReplicaCommits(try codec.encode(replicaCommits: [commit]))
      return SyncStoredCommit(
        id: commit.id, lamportClock: commit.lamportClock, dependencies: commit.dependencies,
        bytes: try generic.encode(replicaCommits: decoded))
    }
  }

  @Test func aListFileIsAReplicaJournal() async throws {
    let fileSystem = FaultInjectingFileSystem()
    let storage = try SyncFileStorage(directory: "/data", options: Self.options(fileSystem), replica: ReplicaID(rawValue: 0xAB))
    let phone = try SyncHubTests.replica(1, items: ["a", "b", "c"])
    let genesis = try SyncListGenesis(of: phone, codec: SyncFixture.codec)
    #expect(try await storage.create("groceries", genesis: genesis) == genesis)
    let syncsBefore = fileSystem.count(of: .sync)
    let result = try await storage.append(try Self.stored(phone.commits), to: "groceries")
    #expect(result.stored.map(\.position) == [1, 2, 3, 4])
    #expect(fileSystem.count(of: .sync) == syncsBefore + 1, "one sync per append")
    let again = try await storage.append(try Self.stored(phone.commits), to: "groceries")
    #expect(again.stored.isEmpty && again.duplicates == 4)
    // What `listjournal info/log/show` read: the replica journal reader, with the app's types too.
    let read = try Replica.read(path: storage.path(of: "groceries"), codec: SyncFixture.codec, options: Self.options(fileSystem))
    #expect(read.replica == ReplicaID(rawValue: 0xAB))
    #expect(read.listID == phone.listID)
    #expect(read.commits == phone.commits)
    let generic = try ListReplica<JournalValueElement, JournalValueElement>.read(
      path: storage.path(of: "groceries"), codec: .generic(), options: Self.options(fileSystem))
    #expect(generic.commits.map(\.id) == phone.commits.map(\.id))
    // Reopened: the same commits at the same positions.
    try await storage.close()
    let reopened = try SyncFileStorage(directory: "/data", options: Self.options(fileSystem))
    #expect(try await reopened.commits(of: "groceries", after: 0, limit: 10) == result.stored)
    #expect(try await reopened.commits(of: "groceries", after: 2, limit: 1) == [result.stored[2]])
    #expect(try await reopened.genesis(of: "groceries") == genesis)
    #expect(try await reopened.genesis(of: "chores") == nil)
    await #expect(throws: SyncStorageError.unknownList("chores")) { try await reopened.lastPosition(of: "chores") }
    // A conflicting twin stores nothing of its append.
    let impostor = try SyncHubTests.replica(1, items: ["z"])
    let extra = try SyncHubTests.replica(5, items: [])
    await #expect(throws: SyncStorageError.conflictingCommit(list: "groceries", id: ReplicaCommitID(replica: ReplicaID(rawValue: 1), sequence: 2))) {
      try await reopened.append(try Self.stored(extra.commits + impostor.commits), to: "groceries")
    }
    #expect(try await reopened.lastPosition(of: "groceries") == 4)
  }

  /// Commits an app's codec encodes, decoded generically and encoded again, decode back to the
  /// app's commits: the server may store its own encoding.
  @Test func genericReencodingKeepsTheAppsCommits() throws {
    var random = SeededRandom(seed: 5)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 40, sectionPoolSize: 5, invalidProbability: 0, targetItemCount: 30, weights: weights)
    let replica = Replica(replica: ReplicaID(rawValue: 3), listID: 1)
    for _ in 0..<400 {
      let operation = generator.next(for: replica.snapshot, using: &random)
      _ = try? replica.transaction(label: random.chance(0.3) ? "label \(random.next() % 9)" : nil) { tx in try operation.apply(to: &tx) }
      if random.chance(0.1) { _ = try replica.undo() }
    }
    var codec = SyncFixture.codec
    for commit in try Self.stored(replica.commits).enumerated() {
      #expect(try codec.decodeReplicaCommits(commit.element.bytes) == [replica.commits[commit.offset]])
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func tornWritesKeepEveryAcknowledgedCommit(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let fileSystem = FaultInjectingFileSystem()
    let fixture = try SyncFixture(fileSystem: fileSystem)
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    let connection = try await SyncHubTests.greeted(fixture, genesis: try SyncListGenesis(of: phone, codec: SyncFixture.codec))
    try phone.transaction { tx in try tx.appendSections([TestSection("S")]) }
    var acknowledged: [ReplicaCommitID] = []
    var refusals = 0
    var acksAfterRefusal = 0
    var pushed = ReplicaVersionVector()
    // A sync fails at a random append: its writes stay unsynced, then power is lost.
    fileSystem.inject(.sync, onCall: fileSystem.count(of: .sync) + 2 + Int(random.next() % 12))
    for request in 1...20 as ClosedRange<UInt64> {
      for _ in 0..<(1 + Int(random.next() % 3)) {
        try phone.transaction { tx in try tx.appendItems([TestItem("i\(random.next() % 1_000_000)")], toSection: "S") }
      }
      let batch = try phone.batch(since: pushed, codec: SyncFixture.codec)
      try await connection.send(.push(request: request, batch: batch))
      let (answer, _) = try await SyncHubTests.answer(to: request, on: connection)
      if case .ack = answer {
        if refusals > 0 { acksAfterRefusal += 1 }
        acknowledged += phone.changes(since: pushed).map(\.id)
        pushed = phone.versionVector
      } else {
        guard case .error(_, .storage, _) = answer else {
          Issue.record("seed \(seed): push \(request) answered \(String(describing: answer))")
          return
        }
        refusals += 1
      }
    }
    // The failed sync was refused, and the list recovered: later pushes were stored.
    #expect(refusals == 1, "seed \(seed)")
    #expect(acksAfterRefusal > 0, "seed \(seed)")
    // Unsynced writes of a last append, then power loss.
    fileSystem.inject(.sync, onCall: fileSystem.count(of: .sync) + 1)
    try phone.transaction { tx in try tx.appendItems([TestItem("last")], toSection: "S") }
    try await connection.send(.push(request: 99, batch: try phone.batch(since: pushed, codec: SyncFixture.codec)))
    _ = try await SyncHubTests.answer(to: 99, on: connection)
    fileSystem.crash(.tearUnsynced(seed: seed))
    fileSystem.clearFaults()
    let reopened = try SyncFileStorage(directory: "/data", options: Self.options(fileSystem))
    let held = try await reopened.commits(of: "groceries", after: 0, limit: Int.max)
    let ids = held.map(\.id)
    #expect(Set(ids).count == ids.count, "seed \(seed): a commit is held twice")
    #expect(held.map(\.position) == Array(1...UInt64(max(held.count, 1))).prefix(held.count).map { $0 })
    for id in acknowledged { #expect(ids.contains(id), "seed \(seed): acknowledged commit \(id) lost") }
    var codec = SyncFixture.codec
    let decoded = try held.flatMap { try codec.decodeReplicaCommits($0.bytes) }
    #expect(decoded.map(\.id) == ids)
    // The reopened list takes everything again, storing only what it lacks.
    let result = try await reopened.append(try Self.stored(phone.commits), to: "groceries")
    #expect(result.stored.count + result.duplicates == phone.commitCount)
    #expect(try await reopened.lastPosition(of: "groceries") == UInt64(phone.commitCount))
  }
}
