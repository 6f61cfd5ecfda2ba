import JournalFormat
import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// Group commit: pushes that arrive while an append is in flight are stored together, with one
/// sync for the group, and each is acknowledged with its own counts.
@Suite struct SyncGroupCommitTests {
  /// File storage whose appends take a while, so pushes pile up behind one.
  final class SlowStorage: SyncStorage {
    let base: SyncFileStorage
    let appends = ListMutex(0)

    init(base: SyncFileStorage) { self.base = base }

    func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? { try await base.genesis(of: list) }
    func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
      try await base.create(list, genesis: genesis)
    }
    func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError) -> SyncAppendResult {
      appends.withLock { $0 += 1 }
      try? await Task.sleep(for: .milliseconds(30))
      return try await base.append(commits, to: list)
    }
    func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError) -> [SyncStoredCommit] {
      try await base.commits(of: list, after: position, limit: limit)
    }
    func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError) -> [SyncStoredCommit] {
      try await base.commits(of: list, notCoveredBy: vector)
    }
    func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64 { try await base.lastPosition(of: list) }
    func lists() async throws(SyncStorageError) -> [String] { try await base.lists() }
    func externalAppends() -> AsyncStream<SyncAppendNotice> { base.externalAppends() }
    func close() async throws(SyncStorageError) { try await base.close() }
  }

  final class GroupObserver: SyncHubObserver {
    let groups = ListMutex<[(count: Int, pushes: Int)]>([])
    func commitsStored(list: String, count: Int, pushes: Int) { groups.withLock { $0.append((count, pushes)) } }
  }

  @Test func concurrentPushesShareAnAppend() async throws {
    let fixture = try SyncFixture()
    let storage = SlowStorage(base: fixture.storage)
    let observer = GroupObserver()
    let hub = SyncHub(storage: storage, observer: observer)
    let transport = InProcessSyncTransport(hub: hub)
    let origin = try SyncHubTests.replica(1, items: [])
    let genesis = try SyncListGenesis(of: origin, codec: SyncFixture.codec)
    let count = 8
    let replicas = try (0..<count).map { index in try SyncHubTests.replica(UInt64(10 + index), items: ["r\(index)a", "r\(index)b"]) }
    var connections: [any SyncChannel] = []
    for _ in 0..<count {
      let channel = try await transport.connect(to: "local:/v1/lists/groceries/sync", bearer: nil)
      try await channel.send(SyncMessage.hello(version: 1, vector: ReplicaVersionVector(), genesis: genesis).encoded())
      guard case .welcome = try SyncMessage(decoding: try #require(await channel.receive())) else { throw DeadlineExceeded(what: "welcome") }
      connections.append(channel)
    }
    let syncsBefore = fixture.fileSystem.count(of: .sync)
    // All push at once (each replica's own commits, plus the shared section commit of replica
    // 10..: distinct replicas, so nothing is a duplicate across pushes).
    // Each connection pushes, then (an empty push as a barrier) collects what others pushed.
    let answers = try await withThrowingTaskGroup(of: (Int, SyncMessage?, [ReplicaCommitID]).self) { group in
      for (index, channel) in connections.enumerated() {
        let batch = try ReplicaBatch(commits: replicas[index].commits, listID: 7, codec: SyncFixture.codec)
        let empty = try ReplicaBatch(commits: [ReplicaCommit<TestSection, TestItem>](), listID: 7, codec: SyncFixture.codec)
        group.addTask {
          try await channel.send(SyncMessage.push(request: 1, batch: batch).encoded())
          var answer: SyncMessage?
          var received: [ReplicaCommitID] = []
          while let frame = try await channel.receive() {
            let message = try SyncMessage(decoding: frame)
            switch message {
            case .ack(1, _, _), .error(1, _, _):
              answer = message
              try await channel.send(SyncMessage.push(request: 2, batch: empty).encoded())
            case .commits(let batch): received += try batch.commits(codec: SyncFixture.codec).commits.map(\.id)
            case .ack(2, _, _): return (index, answer, received)
            default: continue
            }
          }
          return (index, answer, received)
        }
      }
      var answers: [(Int, SyncMessage?, [ReplicaCommitID])] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
    for (index, _, received) in answers {
      let own = Set(replicas[index].commits.map(\.id))
      let others = Set(replicas.enumerated().filter { $0.offset != index }.flatMap { $0.element.commits.map(\.id) })
      #expect(Set(received).isDisjoint(with: own), "connection \(index) received its own commits back")
      #expect(Set(received) == others, "connection \(index) missed others' commits")
    }
    for (_, answer, _) in answers {
      guard case .ack(_, let stored, let duplicates) = answer else {
        Issue.record("a push was not acknowledged: \(String(describing: answer))")
        continue
      }
      #expect(stored == 3 && duplicates == 0)
    }
    let groups = observer.groups.withLock { $0 }
    #expect(groups.map(\.pushes).reduce(0, +) == count)
    #expect(groups.map(\.count).reduce(0, +) == 3 * count)
    #expect(groups.contains { $0.pushes > 1 }, "no push shared an append: \(groups)")
    #expect(storage.appends.withLock { $0 } == groups.count)
    #expect(fixture.fileSystem.count(of: .sync) - syncsBefore == groups.count, "one sync per group")
    for channel in connections { await channel.close() }
    await hub.shutdown()
  }
}
