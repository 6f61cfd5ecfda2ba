import Foundation
import ListReplica
import ListSync
import SyncWorkload
import Testing

/// `URLSessionSyncTransport`, what apps on Apple platforms use, against the real server. Where
/// URLSession speaks WebSocket, a URLSession client and a NIO client edit one list and converge,
/// and a token for another list is refused with 403. Where it does not (FoundationNetworking on
/// a libcurl without WebSockets, as on Debian), the client stops at once with a typed error
/// instead of reconnecting forever.
@Suite("URLSession transport against the server", .timeLimit(.minutes(5)))
struct URLSessionTransportTests {
  @Test func aURLSessionClientConvergesOrSaysWhyItCannot() async throws {
    let policy = SyncAccessPolicy(tokens: [
      .init(token: "writer", lists: .named(["groceries"]), access: .write),
      .init(token: "chores-only", lists: .named(["chores"]), access: .write),
    ])
    let server = try await TestServer.start(policy: policy)
    defer { server.removeFiles() }
    let nio = TestClient.creating(
      list: "groceries", url: server.url, token: "writer", listID: 0x5E55, base: SyncWorkload.base(items: 8), seed: 41,
      index: 0)
    nio.goOnline()
    try await nio.edit(20)
    try await nio.sync()

    let replica = ListReplica(cloning: nio.client.replica, replica: ReplicaID(rawValue: 77))
    let client = SyncClient(
      replica: replica, codec: TestClient.codec, transport: URLSessionSyncTransport(),
      endpoint: SyncEndpoint(url: server.url, list: "groceries", token: "writer"), configuration: TestClient.clientConfiguration)
    let run = Task { try await client.run() }
    defer { run.cancel() }
    do {
      try await client.waitUntilSynced()
    } catch SyncClientError.connection(.unsupported(let message)) {
      #expect(message.localizedCaseInsensitiveContains("websocket"), "\(message)")
      #expect(client.status.connections == 0)
      await #expect(throws: SyncClientError.self) { try await run.value }
      await nio.goOffline()
      try await server.stop()
      return
    }

    var workload = SyncWorkload(seed: 42, client: 77)
    for round in 0..<5 {
      for _ in 0..<10 { try workload.edit(replica) }
      try await client.push()
      try await nio.edit(10)
      if round % 2 == 0 { try await client.waitUntilSynced() }
    }
    for _ in 0..<2 {
      try await client.waitUntilSynced()
      try await nio.sync()
    }
    #expect(replica.versionVector == nio.client.replica.versionVector)
    #expect(replica.snapshot == nio.snapshot)
    #expect(client.status.connections == 1)

    let refused = SyncClient(
      replica: ListReplica(cloning: replica, replica: ReplicaID(rawValue: 78)), codec: TestClient.codec,
      transport: URLSessionSyncTransport(),
      endpoint: SyncEndpoint(url: server.url, list: "groceries", token: "chores-only"))
    await #expect(throws: SyncClientError.connection(.refused(status: 403, message: ""))) {
      do { try await refused.run() } catch SyncClientError.connection(.refused(let status, _)) {
        throw SyncClientError.connection(.refused(status: status, message: ""))
      }
    }
    run.cancel()
    _ = try? await run.value
    await nio.goOffline()
    try await server.stop()
  }
}
