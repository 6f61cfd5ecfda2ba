import Foundation
import ListReplica
import ListState
import ListSync
import ListSyncWebSocketClient
import PostgresNIO
import SyncWorkload
import Testing

/// Two `listjournal-server` processes on one PostgreSQL database: clients connected to
/// different instances, going offline and coming back on either one, converge; PostgreSQL
/// restarted while they push loses no acknowledged commit.
@Suite(
  "End to end on PostgreSQL: two server instances", .serialized, .timeLimit(.minutes(5)),
  .enabled(if: PostgresServers.enabled, PostgresServers.skipMessage))
struct PostgresEndToEndTests {
  /// One device: its replica, and a client for each instance (only one runs at a time).
  final class Device: @unchecked Sendable {
    let clients: [TestClient]
    private(set) var current: Int?

    init(replica: ListReplica<String, SyncRow>, urls: [String], seed: UInt64, index: Int) {
      clients = urls.map { url in
        TestClient(
          .init(
            replica: replica, codec: TestClient.codec, transport: WebSocketSyncTransport(),
            endpoint: SyncEndpoint(url: url, list: "groceries", token: "writer"),
            configuration: TestClient.clientConfiguration),
          name: "client \(index)", seed: seed, index: index)
      }
    }

    var replica: ListReplica<String, SyncRow> { clients[0].client.replica }

    func connect(to instance: Int) async {
      if current == instance { return }
      await disconnect()
      clients[instance].goOnline()
      current = instance
    }

    func disconnect() async {
      guard let current else { return }
      await clients[current].goOffline()
      self.current = nil
    }

    /// Edits with the first client's workload; whichever client runs pushes them.
    func edit(_ count: Int) async throws {
      try await clients[0].edit(count)
      if let current, current != 0 { try? await clients[current].client.push() }
    }

    func sync() async throws {
      guard let current else { return }
      try await clients[current].sync()
    }
  }

  @Test(arguments: [3 as UInt64, 4])
  func clientsOfTwoInstancesConverge(seed: UInt64) async throws {
    try await PostgresServers.withInstances(2) { urls, servers in
      var random = SyncWorkloadRandom(seed: seed)
      let first = ListReplica<String, SyncRow>(
        replica: ReplicaID(rawValue: 1), listID: 0xB0A7 + seed, base: SyncWorkload.base(items: 10))
      var devices = [Device(replica: first, urls: urls, seed: seed, index: 0)]
      await devices[0].connect(to: 0)
      try await devices[0].edit(3)
      try await devices[0].sync()
      for index in 1..<6 {
        let replica = ListReplica(cloning: first, replica: ReplicaID(rawValue: UInt64(index + 1)))
        let device = Device(replica: replica, urls: urls, seed: seed, index: index)
        await device.connect(to: index % 2)
        devices.append(device)
      }
      for _ in 0..<50 {
        let device = devices.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: try await device.edit(Int.random(in: 1...4, using: &random))
        case 6..<8:
          if device.current == nil { await device.connect(to: Int.random(in: 0...1, using: &random)) } else {
            await device.disconnect()
          }
        case 8: await device.connect(to: Int.random(in: 0...1, using: &random))
        default: try await Task.sleep(for: .milliseconds(Int.random(in: 0..<30, using: &random)))
        }
      }
      for (index, device) in devices.enumerated() { await device.connect(to: index % 2) }
      // Round one stores every commit; round two delivers them, across instances by NOTIFY.
      for device in devices { try await device.sync() }
      for device in devices { try await device.sync() }
      let expected = first.snapshot
      for (index, device) in devices.enumerated() {
        #expect(device.replica.commitCount == first.commitCount, "seed \(seed): device \(index) holds other commits")
        #expect(device.replica.snapshot == expected, "seed \(seed): device \(index) differs")
      }
      for (instance, server) in servers.enumerated() {
        let state = try await HTTPProbe.get("http://127.0.0.1:\(server.port)/v1/lists/groceries", token: "writer")
        #expect(state.status == 200)
        let served = try #require(CanonicalList(json: state.json), "unexpected JSON: \(state.text.prefix(400))")
        #expect(served == CanonicalList(expected), "seed \(seed): instance \(instance)'s state differs")
        #expect(state.json["commits"] as? Int == first.commitCount)
      }
      for device in devices { await device.disconnect() }
    }
  }

  @Test func postgresRestartedUnderLoadLosesNoAcknowledgedCommit() async throws {
    let control = try #require(PostgresServers.control, "LISTJOURNAL_POSTGRES_CTL is not set (run under with-postgres)")
    try await PostgresServers.withInstances(2) { urls, servers in
      let first = ListReplica<String, SyncRow>(
        replica: ReplicaID(rawValue: 1), listID: 0x5E57A27, base: SyncWorkload.base(items: 8))
      var devices: [Device] = []
      for index in 0..<4 {
        let replica = index == 0 ? first : ListReplica(cloning: first, replica: ReplicaID(rawValue: UInt64(index + 1)))
        let device = Device(replica: replica, urls: urls, seed: 9, index: index)
        await device.connect(to: index % 2)
        devices.append(device)
      }
      try await devices[0].sync()
      let editors = devices
      let editing = Task {
        for round in 0..<120 {
          try await editors[round % editors.count].edit(1)
          try await Task.sleep(for: .milliseconds(5))
        }
      }
      try await Task.sleep(for: .milliseconds(150))
      let restart = Process()
      restart.executableURL = URL(fileURLWithPath: control)
      restart.arguments = ["restart"]
      try restart.run()
      restart.waitUntilExit()
      #expect(restart.terminationStatus == 0, "pg_ctl restart failed")
      try await editing.value
      // Clients whose appends failed during the restart push again; everything converges.
      for device in devices { try await device.sync() }
      for device in devices { try await device.sync() }
      let expected = first.snapshot
      let total = devices.map { $0.replica.versionVector[$0.replica.replicaID] }.reduce(0, +)
      for (index, device) in devices.enumerated() {
        #expect(device.replica.snapshot == expected, "device \(index) differs after the restart")
        #expect(UInt64(device.replica.commitCount) == total, "device \(index) lacks commits")
      }
      for server in servers {
        let state = try await HTTPProbe.get("http://127.0.0.1:\(server.port)/v1/lists/groceries", token: "writer")
        #expect(state.json["commits"] as? Int == Int(total), "an instance's read state lacks commits")
      }
      for device in devices { await device.disconnect() }
    }
  }
}

extension PostgresEndToEndTests {
  /// Mallory's push of Alice's next commit, made from everything Alice pushed, on `port`.
  static func forge(as alice: TestClient, port: Int, request: UInt64) async throws -> SyncMessage? {
    let raw = try await RawSession.open(FakeServer(port: port), list: "shared", token: "mallory")
    let genesis = try await HostileClientTests.welcome(raw)
    let fake = ListReplica<String, SyncRow>(
      replica: alice.client.replica.replicaID, listID: genesis.listID, base: try genesis.decodeBase(codec: TestClient.codec))
    try fake.receive(alice.client.replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec), codec: TestClient.codec)
    try fake.transaction(label: "forged") { tx in try tx.appendSections(["Forged"]) }
    try await raw.send(
      .push(request: request, batch: try fake.batch(since: alice.client.replica.versionVector, codec: TestClient.codec)))
    let reply = try await raw.reply()
    await raw.channel.close()
    return reply
  }

  /// Owner bindings are in the database: an instance that loaded the list before Alice's first
  /// push, and one started after a restart, both refuse Mallory's commit under Alice's replica.
  @Test func aWriterCannotPushUnderAnotherReplicasIdentityOnAnyInstanceOrAfterARestart() async throws {
    try await PostgresServers.withInstances(2, tokens: HostileClientTests.tokensJSON) { urls, servers, start in
      let alice = TestClient.creating(
        list: "shared", url: urls[0], token: "alice", listID: 0xA11CE, base: SyncWorkload.base(items: 3), seed: 5, index: 20)
      alice.goOnline()
      try await alice.sync()
      // Instance 1 loads the list (and its bindings: none yet) before Alice pushes a commit.
      let watcher = try await RawSession.open(FakeServer(port: servers[1].port), list: "shared", token: "reader")
      _ = try await HostileClientTests.welcome(watcher)
      try await alice.edit(2)
      try await alice.sync()
      let held = alice.client.replica.commitCount
      guard case .error(7, let code, let message) = try await Self.forge(as: alice, port: servers[1].port, request: 7) else {
        Issue.record("instance 1 did not refuse a commit under Alice's replica from Mallory's token")
        return
      }
      #expect(code == .notTheAuthor, "\(message)")
      #expect(message.contains("\(alice.client.replica.replicaID)"), "\(message)")
      // Alice's real next commit is accepted.
      try await alice.edit(1)
      try await alice.sync()
      #expect(try await HostileClientTests.commitCount("http://\(servers[0].baseURL)", list: "shared") == held + 1)
      await alice.goOffline()
      await watcher.channel.close()
      // Every instance restarted: the bindings come back from the database.
      for server in servers { #expect(server.terminate() == 0) }
      let restarted = try start()
      guard case .error(8, let again, _) = try await Self.forge(as: alice, port: restarted.port, request: 8) else {
        Issue.record("after a restart, Mallory's commit under Alice's replica was not refused")
        return
      }
      #expect(again == .notTheAuthor)
      #expect(try await HostileClientTests.commitCount("http://\(restarted.baseURL)", list: "shared") == held + 1)
    }
  }
}

/// Server processes on a fresh database of the PostgreSQL that `LISTJOURNAL_POSTGRES_URL` names
/// (`Server/Tools/with-postgres` sets it; CI sets `LISTJOURNAL_REQUIRE_POSTGRES=1`, which makes a
/// missing database a failure instead of a skip).
enum PostgresServers {
  static let url = ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
  static let control = ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }
  static let required = ProcessInfo.processInfo.environment["LISTJOURNAL_REQUIRE_POSTGRES"] == "1"
  static let enabled = url != nil || required
  static let skipMessage: Comment = "no PostgreSQL: run under Server/Tools/with-postgres or set LISTJOURNAL_POSTGRES_URL"
  static let tokens = #"{"tokens": [{"token": "writer", "lists": "*", "access": "write"}]}"#

  static func withInstances(
    _ count: Int, _ body: (_ urls: [String], _ servers: [ServerProcess]) async throws -> Void
  ) async throws {
    try await withInstances(count, tokens: tokens) { urls, servers, _ in try await body(urls, servers) }
  }

  /// `count` instances on a fresh database; `body` may start more on it (`start`), each
  /// terminated afterwards like the first ones.
  static func withInstances(
    _ count: Int, tokens tokensJSON: String,
    _ body: (_ urls: [String], _ servers: [ServerProcess], _ start: () throws -> ServerProcess) async throws -> Void
  ) async throws {
    let base = try #require(url, "LISTJOURNAL_REQUIRE_POSTGRES=1 but LISTJOURNAL_POSTGRES_URL is not set")
    let database = "e2e_\(UInt32.random(in: 0...UInt32.max))"
    try await execute("CREATE DATABASE \(database)", on: base)
    let databaseURL = replacingDatabase(in: base, with: database)
    let root = try TestServer.temporaryDirectory()
    let tokens = root.appendingPathComponent("tokens.json")
    try tokensJSON.write(to: tokens, atomically: true, encoding: .utf8)
    var servers: [ServerProcess] = []
    let start = { () throws -> ServerProcess in
      let server = try ServerProcess.start(
        data: root.appendingPathComponent("unused-\(servers.count)"), arguments: ["--tokens", tokens.path, "--postgres", databaseURL])
      servers.append(server)
      return server
    }
    do {
      for _ in 0..<count { _ = try start() }
      let first = servers
      try await body(first.map { "ws://127.0.0.1:\($0.port)" }, first, start)
    } catch {
      for server in servers { Issue.record("instance log:\n\(server.log.suffix(3000))") }
      for server in servers { _ = server.terminate() }
      try? FileManager.default.removeItem(at: root)
      try? await execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", on: base)
      throw error
    }
    for server in servers where server.process.isRunning {
      #expect(server.terminate() == 0, "an instance did not shut down gracefully")
    }
    try? FileManager.default.removeItem(at: root)
    try await execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", on: base)
  }

  static func replacingDatabase(in url: String, with database: String) -> String {
    var components = URLComponents(string: url)!
    components.path = "/" + database
    return components.string!
  }

  static func execute(_ sql: String, on url: String) async throws {
    var components = URLComponents(string: url)!
    let configuration = PostgresClient.Configuration(
      host: components.host ?? "127.0.0.1", port: components.port ?? 5432, username: components.user ?? "postgres",
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    components.query = nil
    let client = PostgresClient(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      // PSQLError's description hides the server's message; the test log needs it.
      do { try await client.query(PostgresQuery(unsafeSQL: sql)) } catch {
        throw ServerProcess.StartError.didNotStart("\(sql): \(String(reflecting: error))")
      }
    }
  }
}
