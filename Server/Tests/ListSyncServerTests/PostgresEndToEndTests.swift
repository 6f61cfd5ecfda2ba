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
    let base = try #require(url, "LISTJOURNAL_REQUIRE_POSTGRES=1 but LISTJOURNAL_POSTGRES_URL is not set")
    let database = "e2e_\(UInt32.random(in: 0...UInt32.max))"
    try await execute("CREATE DATABASE \(database)", on: base)
    let databaseURL = replacingDatabase(in: base, with: database)
    let root = try TestServer.temporaryDirectory()
    let tokens = root.appendingPathComponent("tokens.json")
    try Self.tokens.write(to: tokens, atomically: true, encoding: .utf8)
    var servers: [ServerProcess] = []
    do {
      for instance in 0..<count {
        servers.append(
          try ServerProcess.start(
            data: root.appendingPathComponent("unused-\(instance)"),
            arguments: ["--tokens", tokens.path, "--postgres", databaseURL]))
      }
      try await body(servers.map { "ws://127.0.0.1:\($0.port)" }, servers)
    } catch {
      for server in servers { Issue.record("instance log:\n\(server.log.suffix(3000))") }
      for server in servers { _ = server.terminate() }
      try? FileManager.default.removeItem(at: root)
      try? await execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", on: base)
      throw error
    }
    for server in servers { #expect(server.terminate() == 0, "an instance did not shut down gracefully") }
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
      try await client.query(PostgresQuery(unsafeSQL: sql))
      group.cancelAll()
    }
  }
}
