import JournalFormat
import JournalFormatTesting
import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// A server restarted (gracefully, or after power loss) under clients that keep editing: the
/// clients reconnect to the new instance, nothing acknowledged is lost, and all converge.
@Suite struct SyncRestartTests {
  /// A transport to whichever hub currently runs.
  final class SwitchableTransport: SyncTransport {
    let current: ListMutex<InProcessSyncTransport>
    init(_ transport: InProcessSyncTransport) { current = ListMutex(transport) }
    func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
      try await current.withLock { $0 }.connect(to: url, bearer: token)
    }
  }

  @Test(arguments: [false, true])
  func clientsResumeAfterARestart(powerLoss: Bool) async throws {
    var random = SeededRandom(seed: powerLoss ? 2 : 1)
    let fileSystem = FaultInjectingFileSystem()
    let fixture = try SyncFixture(fileSystem: fileSystem)
    let transport = SwitchableTransport(fixture.transport)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 30, sectionPoolSize: 4, invalidProbability: 0, targetItemCount: 20, weights: weights)
    let offset: UInt64 = powerLoss ? 10 : 0
    let origin = Replica(replica: ReplicaID(rawValue: 1 + offset), listID: 7)
    let replicas = [origin] + (2...3).map { Replica(cloning: origin, replica: ReplicaID(rawValue: UInt64($0) + offset)) }
    let runners = replicas.map { Runner(fixture.client($0, transport: transport)) }
    func edit(_ steps: Int) {
      for _ in 0..<steps {
        let replica = replicas[Int(random.next() % 3)]
        let operation = generator.next(for: replica.snapshot, using: &random)
        _ = try? replica.transaction { tx in try operation.apply(to: &tx) }
      }
    }
    edit(40)
    try await withDeadline("before") { for runner in runners { try await runner.client.waitUntilSynced() } }
    let acknowledged = Set(origin.commits.map(\.id))
    edit(20)
    if powerLoss {
      fileSystem.crash(.tearUnsynced(seed: 9))
    }
    await fixture.hub.shutdown()
    // Edits while the server is down.
    edit(20)
    var options = JournalOptions()
    options.fileSystem = fileSystem
    let storage = try SyncFileStorage(directory: "/data", options: options)
    let stored = Set(try await storage.commits(of: "groceries", after: 0, limit: Int.max).map(\.id))
    #expect(acknowledged.isSubset(of: stored), "acknowledged commits lost")
    let hub = SyncHub(storage: storage)
    transport.current.withLock { $0 = InProcessSyncTransport(hub: hub) }
    edit(20)
    do {
      try await withDeadline("after") {
        for _ in 0..<2 { for runner in runners { try await runner.client.waitUntilSynced() } }
      }
    } catch {
      Issue.record("\(error): \(runners.map { String(describing: $0.client.status) })")
      throw error
    }
    for replica in replicas {
      #expect(replica.commits == origin.commits)
      #expect(replica.snapshot == origin.snapshot)
    }
    #expect(try await storage.lastPosition(of: "groceries") == UInt64(origin.commitCount))
    for runner in runners { #expect(runner.client.status.connections >= 2) }
    for runner in runners { await runner.stop() }
    await hub.shutdown()
  }
}
