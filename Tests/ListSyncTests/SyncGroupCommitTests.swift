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

  /// Fan-out of a group of many pushes: every session receives every other session's commits
  /// exactly once, never its own, each replica's in sequence order, and in few frames — about
  /// log2(pushes in the group) per push of its own rather than one per other push. Random
  /// numbers of sessions and of pipelined single-commit pushes, several seeds.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func fanOutOfAGroupIsCompleteOrderedAndFewFrames(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let fixture = try SyncFixture()
    let storage = SlowStorage(base: fixture.storage)
    let observer = GroupObserver()
    let hub = SyncHub(storage: storage, observer: observer)
    let transport = InProcessSyncTransport(hub: hub)
    let origin = try SyncHubTests.replica(1, items: [])
    let genesis = try SyncListGenesis(of: origin, codec: SyncFixture.codec)
    let count = Int.random(in: 6...20, using: &random)
    let replicas = try (0..<count).map { index in
      try SyncHubTests.replica(
        UInt64(10 + index), items: (0..<Int.random(in: 0...5, using: &random)).map { "r\(index)-\($0)" })
    }
    var connections: [any SyncChannel] = []
    for _ in 0..<count {
      let channel = try await transport.connect(to: "local:/v1/lists/groceries/sync", bearer: nil)
      try await channel.send(SyncMessage.hello(version: 1, vector: ReplicaVersionVector(), genesis: genesis).encoded())
      guard case .welcome = try SyncMessage(decoding: try #require(await channel.receive())) else { throw DeadlineExceeded(what: "welcome") }
      connections.append(channel)
    }
    // Each connection pipelines one push per commit and reads until all are acknowledged; once
    // every connection's are, each sends an empty push as a barrier and reads up to its ack.
    @Sendable func read(_ index: Int, _ channel: any SyncChannel, until done: @Sendable (SyncMessage) -> Bool) async throws
      -> [[ReplicaCommitID]]
    {
      var frames: [[ReplicaCommitID]] = []
      while let frame = try await channel.receive() {
        let message = try SyncMessage(decoding: frame)
        switch message {
        case .commits(let batch): frames.append(try batch.commits(codec: SyncFixture.codec).commits.map(\.id))
        case .ack(_, let stored, _) where stored <= 1: if done(message) { return frames }
        case let other: Issue.record("connection \(index): \(other)")
        }
      }
      return frames
    }
    var received = [[[ReplicaCommitID]]](repeating: [], count: count)
    try await withThrowingTaskGroup(of: (Int, [[ReplicaCommitID]]).self) { group in
      for (index, channel) in connections.enumerated() {
        let pushes = try replicas[index].commits.map { try ReplicaBatch(commits: [$0], listID: 7, codec: SyncFixture.codec) }
        group.addTask {
          for (offset, batch) in pushes.enumerated() {
            try await channel.send(SyncMessage.push(request: UInt64(offset + 1), batch: batch).encoded())
          }
          let acks = ListMutex(0)
          return (index, try await read(index, channel) { _ in acks.withLock { $0 += 1; return $0 == pushes.count } })
        }
      }
      for try await (index, frames) in group { received[index] += frames }
    }
    try await withThrowingTaskGroup(of: (Int, [[ReplicaCommitID]]).self) { group in
      for (index, channel) in connections.enumerated() {
        let empty = try ReplicaBatch(commits: [ReplicaCommit<TestSection, TestItem>](), listID: 7, codec: SyncFixture.codec)
        group.addTask {
          try await channel.send(SyncMessage.push(request: 1000, batch: empty).encoded())
          return (index, try await read(index, channel) { if case .ack(1000, _, _) = $0 { true } else { false } })
        }
      }
      for try await (index, frames) in group { received[index] += frames }
    }
    let groups = observer.groups.withLock { $0 }
    let pushes = replicas.map(\.commitCount).reduce(0, +)
    var levels = 0
    while 1 << levels < pushes { levels += 1 }
    for (index, frames) in received.enumerated() {
      let ids = frames.flatMap { $0 }
      let others = replicas.enumerated().filter { $0.offset != index }.flatMap { $0.element.commits.map(\.id) }
      #expect(ids.count == Set(ids).count, "connection \(index) received a commit twice")
      #expect(Set(ids) == Set(others), "connection \(index) missed others' commits or got its own")
      for replica in replicas {
        let sequences = ids.filter { $0.replica == replica.replicaID }.map(\.sequence)
        #expect(sequences == sequences.sorted(), "connection \(index) received \(replica.replicaID) out of order")
      }
      // One frame per group it pushed nothing in, and at most `levels` per push of its own.
      let bound = groups.count + replicas[index].commitCount * max(1, levels)
      #expect(frames.count <= bound, "connection \(index): \(frames.count) frames, more than \(bound)")
    }
    #expect(groups.map(\.count).reduce(0, +) == pushes)
    for channel in connections { await channel.close() }
    await hub.shutdown()
  }
}
