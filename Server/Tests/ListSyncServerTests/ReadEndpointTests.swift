import Foundation
import ListHistory
import ListReplica
import ListSync
import SyncWorkload
import Testing

/// `GET /health` and the JSON read endpoints, with the same bearer tokens as sync.
@Suite("Health and read endpoints", .timeLimit(.minutes(2)))
struct ReadEndpointTests {
  @Test func healthCountsListsAndSessionsAndTurnsUnavailableOnShutdown() async throws {
    let server = try await TestServer.start()
    defer { server.removeFiles() }
    let empty = try await HTTPProbe.get(server.http + "/health")
    #expect(empty.status == 200)
    #expect(empty.json["status"] as? String == "ok")
    #expect(empty.json["storage"] as? String == "ok")
    #expect(empty.json["lists"] as? Int == 0)
    #expect(empty.json["sessions"] as? Int == 0)
    let client = TestClient.creating(
      list: "groceries", url: server.url, token: nil, listID: 0x11, base: SyncWorkload.base(items: 3), seed: 1, index: 0)
    client.goOnline()
    try await client.edit(2)
    try await client.sync()
    let busy = try await HTTPProbe.get(server.http + "/health")
    #expect(busy.json["lists"] as? Int == 1)
    #expect(busy.json["sessions"] as? Int == 1)
    await client.goOffline()
    await server.server.drain()
    let draining = try await HTTPProbe.get(server.http + "/health")
    #expect(draining.status == 503)
    try await server.stop()
  }

  @Test func stateLogAndDiffFollowTheAgreedOrder() async throws {
    let policy = SyncAccessPolicy(tokens: [
      .init(token: "writer", lists: .named(["groceries"]), access: .write),
      .init(token: "reader", lists: .all, access: .read),
      .init(token: "chores-only", lists: .named(["chores"]), access: .read),
    ])
    let server = try await TestServer.start(policy: policy)
    defer { server.removeFiles() }
    let base = SyncWorkload.base(items: 6)
    let client = TestClient.creating(
      list: "groceries", url: server.url, token: "writer", listID: 0x22, base: base, seed: 4, index: 0)
    client.goOnline()
    try await client.edit(7)
    try await client.sync()
    let http = server.http + "/v1/lists"

    let lists = try await HTTPProbe.get(http, token: "reader")
    #expect(lists.json["lists"] as? [String] == ["groceries"])
    #expect(try await HTTPProbe.get(http, token: "chores-only").json["lists"] as? [String] == [])
    #expect(try await HTTPProbe.get(http).status == 401)

    let head = try await HTTPProbe.get(http + "/groceries", token: "reader")
    #expect(head.status == 200)
    #expect(CanonicalList(json: head.json) == CanonicalList(client.snapshot))
    #expect(head.json["version"] as? Int == 7)
    let origin = try await HTTPProbe.get(http + "/groceries?version=0", token: "reader")
    #expect(CanonicalList(json: origin.json) == CanonicalList(base))

    let log = try await HTTPProbe.get(http + "/groceries/log?after=2&limit=3", token: "reader")
    #expect(log.status == 200)
    let entries = (log.json["entries"] as? [[String: Any]]) ?? []
    #expect(entries.compactMap { $0["version"] as? Int } == [3, 4, 5])

    let diff = try await HTTPProbe.get(http + "/groceries/diff?from=0&to=7", token: "reader")
    #expect(diff.status == 200)
    #expect(!diff.json.isEmpty, "\(diff.text.prefix(200))")

    for (path, status) in [
      ("/groceries/diff", 400), ("/groceries?version=abc", 400), ("/groceries?version=99", 400),
      ("/groceries/log?limit=-1", 400), ("/pantry", 404),
    ] {
      let reply = try await HTTPProbe.get(http + path, token: "reader")
      #expect(reply.status == status, "\(path): \(reply.text)")
      #expect(reply.json["code"] is String, "\(path): \(reply.text)")
      #expect(reply.json["error"] is String, "\(path): \(reply.text)")
    }
    #expect(try await HTTPProbe.get(http + "/groceries", token: "chores-only").status == 403)
    #expect(try await HTTPProbe.get(http + "/groceries").status == 401)
    await client.goOffline()
    try await server.stop()
  }
}
