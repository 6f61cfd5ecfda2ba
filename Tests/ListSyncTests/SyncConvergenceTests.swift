import Foundation
import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// Random runs: 2 to 6 clients edit at random (TestSupport's generator, undo, redo) while
/// connected or offline, disconnect and reconnect at random, and some pushes reach the hub
/// twice. After quiescence every client holds every commit and the same list, equal to one fold
/// of all the commits, to the reference model of the merge rules, and to the hub's read state.
@Suite struct SyncConvergenceTests {
  static var steps: Int { Int(Environment.value("LISTJOURNAL_PROPERTY_STEPS") ?? "") ?? 300 }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func clientsConvergeThroughTheHub(seed: UInt64) async throws {
    try await Self.run(seed: seed, clients: 2 + Int(seed % 5), steps: Self.steps)
  }

  /// The same runs with lists unloaded from the hub's memory a millisecond after their last
  /// session leaves: every reload from storage must give the same identities, vector and
  /// positions.
  @Test(arguments: [7, 8, 9] as [UInt64])
  func clientsConvergeWhileIdleListsUnloadAndReload(seed: UInt64) async throws {
    var configuration = SyncHubConfiguration()
    configuration.idleListTimeout = .milliseconds(1)
    try await Self.run(seed: seed, clients: 2 + Int(seed % 5), steps: Self.steps, hub: configuration)
  }

  static func run(seed: UInt64, clients count: Int, steps: Int, hub: SyncHubConfiguration = SyncHubConfiguration())
    async throws
  {
    var random = SeededRandom(seed: seed)
    let fixture = try SyncFixture(configuration: hub)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 40, sectionPoolSize: 5, invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let configuration = ListReplicaConfiguration(rebaseWindow: 1 << 16, clock: { 1_800_000_000 })
    let first = Replica(replica: ReplicaID(rawValue: 1), listID: 7, configuration: configuration)
    var replicas = [first]
    for index in 1..<count {
      replicas.append(Replica(cloning: first, replica: ReplicaID(rawValue: UInt64(index + 1)), configuration: configuration))
    }
    let transport = DuplicatingTransport(base: fixture.transport, seed: seed)
    let clients = replicas.map { fixture.client($0, transport: transport) }
    var runners: [Runner?] = clients.map { random.chance(0.7) ? Runner($0) : nil }
    for step in 0..<steps {
      let index = Int(random.next() % UInt64(count))
      let replica = replicas[index]
      switch random.next() % 12 {
      case 0...5:
        let operation = generator.next(for: replica.snapshot, using: &random)
        _ = try? replica.transaction { tx in try operation.apply(to: &tx) }
        if runners[index] != nil, random.chance(0.5) { try? await clients[index].push() }
      case 6:
        if random.chance(0.5) { _ = try replica.undo() } else { _ = try replica.redo() }
      case 7, 8:
        if let runner = runners[index] {
          await runner.stop()
          runners[index] = nil
        } else {
          runners[index] = Runner(clients[index])
        }
      case 9:
        if runners[index] != nil {
          try await withDeadline("seed \(seed) step \(step): sync") { try await clients[index].waitUntilSynced() }
        }
      default:
        await Task.yield()
      }
    }
    for index in runners.indices where runners[index] == nil { runners[index] = Runner(clients[index]) }
    try await withDeadline("seed \(seed): quiescence") {
      for _ in 0..<2 { for client in clients { try await client.waitUntilSynced() } }
    }
    let reference = replicas[0]
    let folded = Replica(replica: ReplicaID(rawValue: 99), listID: 7, configuration: configuration)
    try folded.receive(reference.commits.shuffled(using: &random))
    let model = ReferenceReplicaFold(base: reference.base, commits: reference.commits)
    #expect(ReferenceList(reference.snapshot) == model.list, "seed \(seed): the list differs from the model")
    for replica in replicas {
      #expect(replica.versionVector == reference.versionVector, "seed \(seed): \(replica.replicaID)")
      #expect(replica.commits == reference.commits, "seed \(seed): \(replica.replicaID)")
      #expect(replica.snapshot == folded.snapshot, "seed \(seed): \(replica.replicaID) differs from one fold")
    }
    #expect(try await fixture.storage.lastPosition(of: "groceries") == UInt64(reference.commitCount))
    let state = try await fixture.hub.readState(list: "groceries", version: nil)
    #expect(state.status == 200)
    #expect(try ReadJSON.state(state.body) == ReadJSON.state(of: reference.snapshot), "seed \(seed): the hub's read state differs")
    for runner in runners { await runner?.stop() }
    await fixture.hub.shutdown()
  }
}

/// Sends some push frames twice, as a client retrying over a flaky network would.
struct DuplicatingTransport: SyncTransport {
  let base: any SyncTransport
  let random: ListMutex<SeededRandom>

  init(base: any SyncTransport, seed: UInt64) {
    self.base = base
    random = ListMutex(SeededRandom(seed: seed &* 31))
  }

  func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    Channel(base: try await base.connect(to: url, bearer: token), random: random)
  }

  struct Channel: SyncChannel {
    let base: any SyncChannel
    let random: ListMutex<SeededRandom>

    func send(_ frame: [UInt8]) async throws {
      try await base.send(frame)
      if frame.first == 0x03, random.withLock({ $0.chance(0.25) }) { try await base.send(frame) }
    }

    func receive() async throws -> [UInt8]? { try await base.receive() }
    func close() async { await base.close() }
  }
}

enum Environment {
  static func value(_ name: String) -> String? {
    guard let pointer = getenv(name) else { return nil }
    return String(cString: pointer)
  }
}
