import Foundation
import ListReplica
import ListSync
import ListSyncWebSocketClient
import SyncWorkload
import Testing

/// Clients on real WebSockets to a real server on loopback, editing online and offline, converge:
/// every client, a client joining afterwards and the server's state endpoint hold the same list.
@Suite("End to end: random clients converge", .timeLimit(.minutes(5)))
struct EndToEndTests {
  static var steps: Int { ProcessInfo.processInfo.environment["LISTSYNC_E2E_STEPS"].flatMap(Int.init) ?? 60 }

  @Test(arguments: [1 as UInt64, 2])
  func randomClientsEditingOfflineAndReconnectingConverge(seed: UInt64) async throws {
    let policy = SyncAccessPolicy(tokens: [
      .init(token: "writer", lists: .named(["groceries"]), access: .write),
      .init(token: "reader", lists: .all, access: .read),
    ])
    let server = try await TestServer.start(policy: policy)
    defer { server.removeFiles() }
    var random = SyncWorkloadRandom(seed: seed)
    let base = SyncWorkload.base(items: 12)
    let first = TestClient.creating(
      list: "groceries", url: server.url, token: "writer", listID: 0xC0FFEE + seed, base: base, seed: seed, index: 0)
    first.goOnline()
    try await first.edit(3)
    try await first.sync()
    var clients = [first]
    for index in 1..<6 {
      // Some join from the server; others were cloned on a device from the first (same genesis).
      let client: TestClient
      if index % 2 == 1 {
        client = try await TestClient.joining(list: "groceries", url: server.url, token: "writer", seed: seed, index: index)
      } else {
        let replica = ListReplica(cloning: first.client.replica, replica: ReplicaID(rawValue: UInt64(index + 1)))
        client = TestClient(
          .init(
            replica: replica, codec: TestClient.codec, transport: WebSocketSyncTransport(),
            endpoint: SyncEndpoint(url: server.url, list: "groceries", token: "writer"),
            configuration: TestClient.clientConfiguration),
          name: "client \(index)", seed: seed, index: index)
      }
      if Bool.random(using: &random) { client.goOnline() }
      clients.append(client)
    }
    for _ in 0..<Self.steps {
      let client = clients.randomElement(using: &random)!
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<6: try await client.edit(Int.random(in: 1...4, using: &random))
      case 6..<8: if client.isOnline { await client.goOffline() } else { client.goOnline() }
      case 8: if client.isOnline { try await client.sync() }
      default: try await Task.sleep(for: .milliseconds(Int.random(in: 0..<30, using: &random)))
      }
    }
    for client in clients { client.goOnline() }
    // Round one: every commit is stored; round two: every client has received all of them.
    for client in clients { try await client.sync() }
    for client in clients { try await client.sync() }
    let expected = CanonicalList(first.snapshot)
    for client in clients.dropFirst() {
      #expect(CanonicalList(client.snapshot) == expected, "seed \(seed): \(client.name) differs")
      #expect(client.snapshot == first.snapshot, "seed \(seed): \(client.name) differs")
    }
    let late = try await TestClient.joining(list: "groceries", url: server.url, token: "reader", seed: seed, index: 99)
    #expect(late.snapshot == first.snapshot, "seed \(seed): a client joining afterwards differs")
    let state = try await HTTPProbe.get(server.http + "/v1/lists/groceries", token: "reader")
    #expect(state.status == 200)
    let served = try #require(CanonicalList(json: state.json), "unexpected JSON: \(state.text.prefix(400))")
    #expect(served == expected, "seed \(seed): the server's state differs:\n\(served)\nclients:\n\(expected)")
    let commits = first.client.replica.commitCount
    #expect(state.json["commits"] as? Int == commits)
    for client in clients { await client.goOffline() }
    try await server.stop()
  }
}
