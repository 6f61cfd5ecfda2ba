import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// Two hubs sharing one storage (as two server instances share PostgreSQL): each fans out the
/// commits the other stored, so clients connected to different hubs converge.
@Suite struct SyncMultiInstanceTests {
  /// One instance's view of a shared storage: appends are told to the other instances.
  final class SharedStorage: SyncStorage {
    let base: SyncFileStorage
    let peers: ListMutex<[SharedStorage]> = ListMutex([])
    let notices: AsyncStream<SyncAppendNotice>
    let sink: AsyncStream<SyncAppendNotice>.Continuation

    init(base: SyncFileStorage) {
      self.base = base
      (notices, sink) = AsyncStream.makeStream(of: SyncAppendNotice.self)
    }

    func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? { try await base.genesis(of: list) }
    func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
      try await base.create(list, genesis: genesis)
    }
    func append(_ commits: [SyncStoredCommit], to list: String) async throws(SyncStorageError) -> SyncAppendResult {
      let result = try await base.append(commits, to: list)
      if let last = result.stored.last {
        for peer in peers.withLock({ $0 }) { peer.sink.yield(SyncAppendNotice(list: list, lastPosition: last.position)) }
      }
      return result
    }
    func commits(of list: String, after position: UInt64, limit: Int) async throws(SyncStorageError) -> [SyncStoredCommit] {
      try await base.commits(of: list, after: position, limit: limit)
    }
    func commits(of list: String, notCoveredBy vector: ReplicaVersionVector) async throws(SyncStorageError) -> [SyncStoredCommit] {
      try await base.commits(of: list, notCoveredBy: vector)
    }
    func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64 { try await base.lastPosition(of: list) }
    func lists() async throws(SyncStorageError) -> [String] { try await base.lists() }
    func externalAppends() -> AsyncStream<SyncAppendNotice> { notices }
    func close() async throws(SyncStorageError) { sink.finish() }
  }

  @Test func clientsOfDifferentInstancesConverge() async throws {
    let fixture = try SyncFixture()
    let first = SharedStorage(base: fixture.storage)
    let second = SharedStorage(base: fixture.storage)
    first.peers.withLock { $0 = [second] }
    second.peers.withLock { $0 = [first] }
    let hubs = [SyncHub(storage: first), SyncHub(storage: second)]
    var random = SeededRandom(seed: 3)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 30, sectionPoolSize: 4, invalidProbability: 0, targetItemCount: 20, weights: weights)
    let origin = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    let replicas = [origin] + (2...4).map { Replica(cloning: origin, replica: ReplicaID(rawValue: UInt64($0))) }
    // Clients 1 and 3 on the first instance, 2 and 4 on the second.
    let runners = replicas.enumerated().map { index, replica in
      Runner(fixture.client(replica, transport: InProcessSyncTransport(hub: hubs[index % 2])))
    }
    try await withDeadline("create") { try await runners[0].client.waitUntilSynced() }
    for step in 0..<150 {
      let replica = replicas[Int(random.next() % 4)]
      let operation = generator.next(for: replica.snapshot, using: &random)
      _ = try? replica.transaction { tx in try operation.apply(to: &tx) }
      if step % 25 == 0 { await Task.yield() }
    }
    try await withDeadline("quiescence") {
      for _ in 0..<2 { for runner in runners { try await runner.client.waitUntilSynced() } }
      // Another instance's commits arrive through its notice, not through a barrier: wait for them.
      for _ in 0..<12_000 where Set(replicas.map(\.versionVector)).count > 1 { try await Task.sleep(for: .milliseconds(5)) }
    }
    for replica in replicas {
      #expect(replica.commits == origin.commits, "\(replica.replicaID)")
      #expect(replica.snapshot == origin.snapshot, "\(replica.replicaID)")
    }
    // Every client stayed on its first connection: the others' commits came by fan-out.
    for runner in runners { #expect(runner.client.status.connections == 1) }
    for runner in runners { await runner.stop() }
    for hub in hubs { await hub.shutdown() }
  }
}
