import Foundation
import ListHistory
import ListReplica
import ListSync
import ListSyncWebSocketClient
import SyncWorkload
import Testing

/// Bad clients are refused — before the upgrade (401, 403, 404) or with an `error` message and a
/// close of their connection only — and a client connected meanwhile notices nothing.
@Suite("Refusals: bad tokens, garbage, oversized and foreign batches", .timeLimit(.minutes(2)))
struct RefusalTests {
  static let policy = SyncAccessPolicy(tokens: [
    .init(token: "writer", lists: .named(["groceries"]), access: .write),
    .init(token: "reader", lists: .all, access: .read),
    .init(token: "chores-only", lists: .named(["chores"]), access: .write),
  ])

  /// A server hosting `groceries`, a bystander client connected to it and a second one that
  /// checks the bystander's edits still arrive.
  struct Fixture {
    let server: TestServer
    let bystander: TestClient
    let watcher: TestClient

    static func start(maxFrameBytes: Int = 16 << 20) async throws -> Fixture {
      let server = try await TestServer.start(policy: RefusalTests.policy, maxFrameBytes: maxFrameBytes)
      let bystander = TestClient.creating(
        list: "groceries", url: server.url, token: "writer", listID: 0xBEEF, base: SyncWorkload.base(items: 4), seed: 9,
        index: 0)
      bystander.goOnline()
      try await bystander.edit(2)
      try await bystander.sync()
      let watcher = try await TestClient.joining(list: "groceries", url: server.url, token: "writer", seed: 9, index: 1)
      watcher.goOnline()
      try await watcher.sync()
      return Fixture(server: server, bystander: bystander, watcher: watcher)
    }

    /// The bystander kept its one connection, and its new edits reach the watcher.
    func expectBystanderUnaffected() async throws {
      try await bystander.edit(3)
      try await bystander.sync()
      try await watcher.sync()
      #expect(watcher.snapshot == bystander.snapshot)
      #expect(bystander.client.status.connections == 1, "the bystander reconnected: \(bystander.client.status)")
      #expect(bystander.client.status.phase == .connected)
    }

    func stop() async throws {
      await bystander.goOffline()
      await watcher.goOffline()
      try await server.stop()
      server.removeFiles()
    }
  }

  @Test func tokensAreCheckedBeforeTheUpgrade() async throws {
    let fixture = try await Fixture.start()
    let sync = fixture.server.http + "/v1/lists/groceries/sync"
    let none = try await HTTPProbe.get(sync)
    #expect(none.status == 401)
    #expect(none.json["code"] as? String == "unauthorized")
    let unknown = try await HTTPProbe.get(sync, token: "guess")
    #expect(unknown.status == 401)
    let other = try await HTTPProbe.get(sync, token: "chores-only")
    #expect(other.status == 403)
    #expect(other.json["code"] as? String == "forbidden")
    #expect((other.json["error"] as? String)?.contains("groceries") == true)
    // A read-only token may not create a list: an unknown list is 404 for it.
    let missing = try await HTTPProbe.get(fixture.server.http + "/v1/lists/pantry/sync", token: "reader")
    #expect(missing.status == 404)
    // The same refusals on a real WebSocket upgrade: the connection never opens, and the
    // transport reports the status and the server's reason.
    for (list, token, status) in [
      ("groceries", nil, 401), ("groceries", "guess", 401), ("groceries", "chores-only", 403), ("pantry", "reader", 404),
    ] as [(String, String?, Int)] {
      do {
        _ = try await RawSession.open(fixture.server, list: list, token: token)
        Issue.record("\(list) with token \(token ?? "none") was upgraded")
      } catch SyncTransportError.refused(let refused, let message) {
        #expect(refused == status, "\(list), \(token ?? "none"): \(message)")
        #expect(!message.isEmpty)
      } catch {
        Issue.record("\(list), \(token ?? "none"): \(error)")
      }
    }
    let badName = try await HTTPProbe.get(fixture.server.http + "/v1/lists/no%20spaces/sync", token: "writer")
    #expect(badName.status == 400)
    try await fixture.expectBystanderUnaffected()
    try await fixture.stop()
  }

  @Test func garbageGetsAnErrorAndClosesThatConnectionOnly() async throws {
    let fixture = try await Fixture.start()
    for garbage: [UInt8] in [[0xFF, 0x00, 0x13], [], [0x03, 0x80], Array("GET / HTTP/1.1".utf8)] {
      let raw = try await RawSession.open(fixture.server, token: "writer")
      try await raw.channel.send(garbage)
      let reply = try await raw.receive()
      guard case .error(let request, let code, _) = reply else {
        Issue.record("expected an error for \(garbage), got \(String(describing: reply))")
        continue
      }
      #expect(request == 0)
      #expect(code == .malformed)
      #expect(await raw.isClosedByServer())
    }
    try await fixture.expectBystanderUnaffected()
    try await fixture.stop()
  }

  @Test func oversizedMessagesAreRefusedAndClosed() async throws {
    let limit = 64 << 10
    let fixture = try await Fixture.start(maxFrameBytes: limit)
    // Just over the limit: the hub explains before closing.
    let raw = try await RawSession.open(fixture.server, token: "writer")
    _ = try await raw.hello()
    try await raw.channel.send([0x03] + [UInt8](repeating: 7, count: limit))
    let reply = try await raw.reply()
    guard case .error(_, let code, _) = reply else {
      Issue.record("expected error 2, got \(String(describing: reply))")
      return
    }
    #expect(code == .tooLarge)
    #expect(await raw.isClosedByServer())
    // Far over it: refused by the frame decoder (1009) before it is read whole.
    let huge = try await RawSession.open(fixture.server, token: "writer")
    try? await huge.channel.send([UInt8](repeating: 3, count: 4 << 20))
    #expect(await huge.isClosedByServer())
    try await fixture.expectBystanderUnaffected()
    try await fixture.stop()
  }

  @Test func aBatchOfAnotherListIsRefused() async throws {
    let fixture = try await Fixture.start()
    let foreign = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 77), listID: 0xD00D, base: SyncWorkload.base(items: 2))
    var workload = SyncWorkload(seed: 3, client: 77)
    try workload.edit(foreign)
    let batch = try foreign.batch(since: ReplicaVersionVector(), codec: TestClient.codec)
    // A push of another list's batch: error 4 for that request.
    let raw = try await RawSession.open(fixture.server, token: "writer")
    guard case .welcome(let genesis, _, _) = try await raw.hello() else {
      Issue.record("no welcome")
      return
    }
    try await raw.send(.push(request: 41, batch: batch))
    let reply = try await raw.reply()
    guard case .error(let request, let code, _) = reply else {
      Issue.record("expected error 4, got \(String(describing: reply))")
      return
    }
    #expect(request == 41)
    #expect(code == .differentList)
    await raw.channel.close()
    // A hello offering another list's genesis: error 4 and close.
    let other = try await RawSession.open(fixture.server, token: "writer")
    try await other.send(
      .hello(
        version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(),
        genesis: SyncListGenesis(listID: 0xD00D, base: genesis.base)))
    let refusal = try await other.reply()
    guard case .error(_, let helloCode, _) = refusal else {
      Issue.record("expected error 4, got \(String(describing: refusal))")
      return
    }
    #expect(helloCode == .differentList)
    #expect(await other.isClosedByServer())
    // Nothing of the foreign list was stored.
    let log = try await HTTPProbe.get(fixture.server.http + "/v1/lists/groceries/log?limit=1000", token: "reader")
    let replicas = Set(((log.json["entries"] as? [[String: Any]]) ?? []).compactMap { $0["replica"] as? String })
    #expect(!replicas.contains { $0.hasSuffix("4d") }, "\(replicas)")
    #expect(log.json["commits"] as? Int == fixture.bystander.client.replica.commitCount)
    try await fixture.expectBystanderUnaffected()
    try await fixture.stop()
  }

  @Test func aReadOnlySessionsPushGetsErrorThreeAndStaysOpen() async throws {
    let fixture = try await Fixture.start()
    let raw = try await RawSession.open(fixture.server, token: "reader")
    _ = try await raw.hello()
    let batch = try fixture.bystander.client.replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)
    for request: UInt64 in [5, 6] {
      try await raw.send(.push(request: request, batch: batch))
      let reply = try await raw.reply()
      guard case .error(let echoed, let code, _) = reply else {
        Issue.record("expected error 3, got \(String(describing: reply))")
        return
      }
      #expect(echoed == request)
      #expect(code == .readOnly)
    }
    // Still open: it receives the bystander's next commits.
    try await fixture.bystander.edit(1)
    try await fixture.bystander.sync()
    let fanOut = try await raw.next { if case .commits = $0 { true } else { false } }
    #expect(fanOut != nil)
    await raw.channel.close()
    try await fixture.expectBystanderUnaffected()
    try await fixture.stop()
  }
}
