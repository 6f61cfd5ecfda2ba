import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// A server, frame by frame, that holds a different commit under one of the client's
/// identities: it refuses every push holding that commit with error 5 (and stores nothing of
/// it, as the hub does), acknowledges every other push, and records what was pushed.
final class TwinRefusingServer: SyncTransport, SyncChannel {
  struct Inbox {
    var frames: [[UInt8]] = []
    var waiting: CheckedContinuation<[UInt8]?, Never>?
    var closed = false
    var pushes: [[ReplicaCommitID]] = []
    var stored: Set<ReplicaCommitID> = []
  }

  let twin: ReplicaCommitID
  let genesis: SyncListGenesis
  let inbox = ListMutex(Inbox())

  init(twin: ReplicaCommitID, genesis: SyncListGenesis) {
    self.twin = twin
    self.genesis = genesis
  }

  var pushes: [[ReplicaCommitID]] { inbox.withLock { $0.pushes } }
  var stored: Set<ReplicaCommitID> { inbox.withLock { $0.stored } }

  func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    inbox.withLock { $0.closed = false }
    return self
  }

  func send(_ frame: [UInt8]) async throws {
    switch try SyncMessage(decoding: frame) {
    case .hello:
      deliver(SyncMessage.welcome(genesis: genesis, lastPosition: 0, vector: ReplicaVersionVector()).encoded())
    case .push(let request, let batch):
      let ids = try batch.commits(codec: SyncFixture.codec).commits.map(\.id)
      let refuse = ids.contains(twin)
      inbox.withLock { inbox in
        if !ids.isEmpty { inbox.pushes.append(ids) }
        if !refuse { inbox.stored.formUnion(ids) }
      }
      deliver(
        refuse
          ? SyncMessage.error(request: request, code: .conflictingCommit, message: "list 'groceries' holds a different commit \(twin)").encoded()
          : SyncMessage.ack(request: request, stored: UInt64(ids.count), duplicates: 0).encoded())
    default:
      break
    }
  }

  func receive() async throws -> [UInt8]? {
    await withCheckedContinuation { continuation in
      let ready = inbox.withLock { inbox -> [UInt8]?? in
        if !inbox.frames.isEmpty { return .some(inbox.frames.removeFirst()) }
        if inbox.closed { return .some(nil) }
        inbox.waiting = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  func deliver(_ frame: [UInt8]?) {
    let waiter = inbox.withLock { inbox -> CheckedContinuation<[UInt8]?, Never>? in
      if let waiter = inbox.waiting {
        inbox.waiting = nil
        return waiter
      }
      if let frame { inbox.frames.append(frame) } else { inbox.closed = true }
      return nil
    }
    waiter?.resume(returning: frame)
  }

  func close() async { deliver(nil) }
}

@Suite struct SyncConflictingTwinTests {
  /// The twin is pushed with the commits made before it was refused, then alone, and never
  /// again; the others are stored, later edits keep syncing, and the app sees the refusal.
  @Test func aRefusedTwinIsNotPushedAgainAndTheRestSyncs() async throws {
    let replica = Replica(replica: ReplicaID(rawValue: 7), listID: 42)
    try replica.transaction { tx in try tx.appendSections([TestSection("S")]) }
    try replica.transaction { tx in try tx.appendItems([TestItem("a")], toSection: "S") }
    try replica.transaction { tx in try tx.appendItems([TestItem("b")], toSection: "S") }
    let twin = ReplicaCommitID(replica: ReplicaID(rawValue: 7), sequence: 2)
    let server = TwinRefusingServer(twin: twin, genesis: try SyncListGenesis(of: replica, codec: SyncFixture.codec))
    var configuration = SyncClientConfiguration()
    configuration.autoPushInterval = .milliseconds(1)
    let client = Client(
      replica: replica, codec: SyncFixture.codec, transport: server,
      endpoint: SyncEndpoint(url: "local:", list: "groceries", token: nil), configuration: configuration)
    let runner = Runner(client)
    try await withDeadline("the first sync") { try await client.waitUntilSynced() }
    #expect(client.status.refusedCommits == [twin])
    #expect(client.status.lastError == "\(SyncClientError.conflictingCommit(twin))")
    #expect(server.stored == [ReplicaCommitID(replica: ReplicaID(rawValue: 7), sequence: 1), ReplicaCommitID(replica: ReplicaID(rawValue: 7), sequence: 3)])
    // Later edits, pushed by the client's own loop and by the barrier, skip the twin.
    for item in ["c", "d", "e"] {
      _ = try await client.transaction { tx in try tx.appendItems([TestItem(item)], toSection: "S") }
      try await Task.sleep(for: .milliseconds(5))
    }
    try await withDeadline("the second sync") { try await client.waitUntilSynced() }
    let withTwin = server.pushes.filter { $0.contains(twin) }
    #expect(withTwin.count == 2, "pushes holding the twin: \(withTwin)")
    #expect(withTwin.last == [twin])
    #expect(server.stored.count == 5)
    #expect(!server.stored.contains(twin))
    #expect(client.status.refusedCommits == [twin])
    // The replica keeps its commit: it is the server that holds another one.
    #expect(replica.holds(twin))
    await runner.stop()
  }

  /// A twin pushed alone is refused for good at once: pushed once, whatever the waits.
  @Test func aSingleCommitPushRefusedAsATwinIsRefusedAtOnce() async throws {
    let replica = Replica(replica: ReplicaID(rawValue: 8), listID: 42)
    try replica.transaction { tx in try tx.appendSections([TestSection("S")]) }
    let twin = ReplicaCommitID(replica: ReplicaID(rawValue: 8), sequence: 1)
    let server = TwinRefusingServer(twin: twin, genesis: try SyncListGenesis(of: replica, codec: SyncFixture.codec))
    let client = Client(
      replica: replica, codec: SyncFixture.codec, transport: server,
      endpoint: SyncEndpoint(url: "local:", list: "groceries", token: nil))
    let runner = Runner(client)
    try await withDeadline("sync") { try await client.waitUntilSynced() }
    try await withDeadline("sync again") { try await client.waitUntilSynced() }
    #expect(server.pushes == [[twin]])
    #expect(client.status.refusedCommits == [twin])
    await runner.stop()
  }
}
