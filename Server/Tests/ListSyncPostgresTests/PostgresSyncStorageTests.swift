import Foundation
import ListReplica
import ListSync
import PostgresNIO
import SyncStorageConformance
import Testing

@testable import ListSyncPostgres

/// The `SyncStorage` contract on PostgreSQL, each test on a database of its own; one at a time,
/// since one of them restarts the server.
@Suite(.serialized, .enabled(if: PostgresTestEnvironment.enabled, PostgresTestEnvironment.skipMessage))
struct PostgresSyncStorageTests {
  /// Seeds for the random checks: `LISTJOURNAL_PROPERTY_STEPS` scales the long runs.
  static let steps = ProcessInfo.processInfo.environment["LISTJOURNAL_PROPERTY_STEPS"].flatMap(Int.init) ?? 0

  @Test func genesisAndCreate() async throws {
    try await PostgresTestDatabase.withStorages { storages in
      try await SyncStorageConformance.checkGenesisAndCreate(storages[0], list: "groceries")
      // Names are data, not SQL: quotes and other text pass through as they are.
      try await SyncStorageConformance.checkGenesisAndCreate(storages[0], list: "o'brien; DROP TABLE lists")
      #expect(try await storages[0].lists() == ["groceries", "o'brien; DROP TABLE lists"])
    }
  }

  @Test func creatorsRacingOnTwoInstancesAgreeOnOneGenesis() async throws {
    try await PostgresTestDatabase.withStorages(2) { storages in
      for round in 0..<5 {
        try await SyncStorageConformance.checkCreateRace(storages, list: "race-\(round)", creators: 24)
      }
    }
  }

  @Test func appendsAreIdempotent() async throws {
    try await PostgresTestDatabase.withStorages { storages in
      try await SyncStorageConformance.checkIdempotentAppends(storages[0], list: "idempotent")
    }
  }

  @Test func aConflictingTwinStoresNothing() async throws {
    try await PostgresTestDatabase.withStorages { storages in
      try await SyncStorageConformance.checkConflictingTwins(storages[0], list: "twins")
    }
  }

  @Test(arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
  func readsByPositionAndByVector(seed: UInt64) async throws {
    try await PostgresTestDatabase.withStorages { storages in
      try await SyncStorageConformance.checkReads(storages[0], list: "reads", commits: 300 + Self.steps / 10, seed: seed)
    }
  }

  @Test(arguments: [0xC0FF_EE01, 0xC0FF_EE02] as [UInt64])
  func positionsAreSerialAcrossTwoInstances(seed: UInt64) async throws {
    try await PostgresTestDatabase.withStorages(2) { storages in
      try await SyncStorageConformance.checkSerialPositions(
        storages, list: "serial", writers: 8, commitsPerWriter: 300 + Self.steps / 8, seed: seed)
    }
  }

  @Test func readersFollowingByPositionNeverSkipALateCommit() async throws {
    try await PostgresTestDatabase.withStorages(2) { storages in
      try await SyncStorageConformance.checkFollowingReaders(storages, list: "follow", writers: 8, appendsPerWriter: 60, seed: 1)
    }
  }

  @Test func externalAppendsTellOfTheOtherInstancesAppendsOnly() async throws {
    try await PostgresTestDatabase.withStorages(2) { storages in
      try await SyncStorageConformance.checkExternalAppends(writer: storages[0], listener: storages[1], list: "notices")
    }
  }

  @Test func closeEndsStreamsAndRefusesCalls() async throws {
    try await PostgresTestDatabase.withStorages { storages in
      try await SyncStorageConformance.checkClose(storages[0], list: "closing")
    }
  }

  @Test func theSchemaIsCreatedOnceAndANewerOneIsRefused() async throws {
    let database = try await PostgresTestDatabase.create()
    defer { Task { try? await database.drop() } }
    // Two instances starting together migrate once (the advisory lock) and both work.
    try await database.withStorages(2) { storages in
      async let first = storages[0].lists()
      async let second = storages[1].lists()
      let (one, other) = try await (first, second)
      #expect(one == [] && other == [])
    }
    try await PostgresTestDatabase.withAdminConnection(database.configuration) { connection in
      let versions = try await connection.query("SELECT version FROM listjournal_schema", logger: PostgresTestEnvironment.logger)
        .decode(Int.self).reduce(into: []) { $0.append($1) }
      #expect(versions == [PostgresSyncStorage.schemaVersion])
      try await connection.query("UPDATE listjournal_schema SET version = 99", logger: PostgresTestEnvironment.logger)
    }
    try await database.withStorages(1) { storages in
      let error = await #expect(throws: SyncStorageError.self) { try await storages[0].lists() }
      guard case .backend(let message) = error else {
        Issue.record("a newer schema threw \(String(describing: error))")
        return
      }
      #expect(message.contains("99") && message.contains("newer"))
    }
    try await database.drop()
  }

  @Test func ownerBindingsAreSharedByInstancesAndSurviveAReopen() async throws {
    let database = try await PostgresTestDatabase.create()
    let alice = ReplicaID(rawValue: 0xA11CE)
    let bob = ReplicaID(rawValue: 0xB0B)
    try await database.withStorages(2) { (storages) async throws -> Void in
      _ = try await storages[0].create("owned", genesis: ConformanceCommits.genesis(1))
      #expect(try await storages[1].owners(of: "owned") == [:])
      try await storages[0].bindOwners([alice: "alice"], of: "owned")
      // The same owner again is no change; another owner on the other instance is refused whole.
      try await storages[1].bindOwners([alice: "alice"], of: "owned")
      await #expect(throws: SyncStorageError.boundToAnotherOwner(list: "owned", replica: alice)) {
        try await storages[1].bindOwners([alice: "mallory", bob: "mallory"], of: "owned")
      }
      #expect(try await storages[1].owners(of: "owned") == [alice: "alice"], "a refused binding bound something")
      try await storages[1].bindOwners([bob: "bob"], of: "owned")
    }
    // A fresh storage (a restarted server) reads them back.
    try await database.withStorages(1) { (storages) async throws -> Void in
      #expect(try await storages[0].owners(of: "owned") == [alice: "alice", bob: "bob"])
      await #expect(throws: SyncStorageError.boundToAnotherOwner(list: "owned", replica: bob)) {
        try await storages[0].bindOwners([bob: "mallory"], of: "owned")
      }
    }
    try await database.drop()
  }

  @Test func aSchemaOfVersionOneGainsTheOwnersTable() async throws {
    let database = try await PostgresTestDatabase.create()
    try await PostgresTestDatabase.withAdminConnection(database.configuration) { connection in
      // The first schema as it was: lists and commits, version 1.
      for statement in [
        "CREATE TABLE listjournal_schema (version integer NOT NULL)",
        "CREATE TABLE lists (name text PRIMARY KEY, list_id bigint NOT NULL, base bytea NOT NULL, last_position bigint NOT NULL DEFAULT 0)",
        """
        CREATE TABLE commits (list text NOT NULL REFERENCES lists (name), replica bigint NOT NULL, sequence bigint NOT NULL,
          lamport_clock bigint NOT NULL, dependencies bytea NOT NULL, position bigint NOT NULL, body bytea NOT NULL,
          PRIMARY KEY (list, replica, sequence), UNIQUE (list, position))
        """,
        "INSERT INTO listjournal_schema (version) VALUES (1)",
        "INSERT INTO lists (name, list_id, base, last_position) VALUES ('old', 7, '\\x'::bytea, 0)",
      ] {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: PostgresTestEnvironment.logger)
      }
    }
    try await database.withStorages(1) { (storages) async throws -> Void in
      #expect(try await storages[0].lists() == ["old"])
      #expect(try await storages[0].owners(of: "old") == [:])
      try await storages[0].bindOwners([ReplicaID(rawValue: 3): "carol"], of: "old")
      #expect(try await storages[0].owners(of: "old") == [ReplicaID(rawValue: 3): "carol"])
    }
    try await PostgresTestDatabase.withAdminConnection(database.configuration) { connection in
      let versions = try await connection.query("SELECT version FROM listjournal_schema", logger: PostgresTestEnvironment.logger)
        .decode(Int.self).reduce(into: []) { $0.append($1) }
      #expect(versions == [2])
    }
    try await database.drop()
  }

  @Test func damagedDependenciesAreReportedWithTheCommit() async throws {
    let database = try await PostgresTestDatabase.create()
    try await database.withStorages(1) { storages in
      _ = try await storages[0].create("damaged", genesis: ConformanceCommits.genesis(1))
      _ = try await storages[0].append(ConformanceCommits.commits(replica: 3, 1...2), to: "damaged")
    }
    try await PostgresTestDatabase.withAdminConnection(database.configuration) { connection in
      try await connection.query(
        "UPDATE commits SET dependencies = '\\x05'::bytea WHERE position = 2", logger: PostgresTestEnvironment.logger)
    }
    try await database.withStorages(1) { storages in
      let error = await #expect(throws: SyncStorageError.self) {
        try await storages[0].commits(of: "damaged", after: 0, limit: 10)
      }
      guard case .damaged(let list, let reason) = error else {
        Issue.record("damaged dependencies threw \(String(describing: error))")
        return
      }
      #expect(list == "damaged" && reason.contains("position 2") && reason.contains("0000000000000003:2"))
    }
    try await database.drop()
  }
}

/// What needs no database: the URL, the dependencies' bytes.
struct PostgresSyncStorageOfflineTests {
  @Test func urlsBecomeConfigurations() throws {
    let tcp = try PostgresSyncStorage.configuration(url: "postgres://sync:s%40cret@db.example:6543/lists?sslmode=disable")
    #expect(tcp.host == "db.example" && tcp.port == 6543)
    #expect(tcp.username == "sync" && tcp.password == "s@cret" && tcp.database == "lists")
    let defaults = try PostgresSyncStorage.configuration(url: "postgresql://me@localhost")
    #expect(defaults.port == 5432 && defaults.database == nil && defaults.password == nil)
    let socket = try PostgresSyncStorage.configuration(url: "postgres:///lists?host=/var/run/postgresql&user=me")
    #expect(socket.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432" && socket.username == "me" && socket.database == "lists")

    #expect(throws: PostgresURLError.notPostgresURL("mysql://me@localhost/x")) {
      try PostgresSyncStorage.configuration(url: "mysql://me@localhost/x")
    }
    #expect(throws: PostgresURLError.missingUser) { try PostgresSyncStorage.configuration(url: "postgres://localhost/x") }
    #expect(throws: PostgresURLError.unsupportedSSLMode("verify-full")) {
      try PostgresSyncStorage.configuration(url: "postgres://me@localhost/x?sslmode=verify-full")
    }
    #expect(throws: PostgresURLError.invalidPort("0")) { try PostgresSyncStorage.configuration(url: "postgres://me@localhost:0/x") }
  }

  @Test func dependencyBytesRoundTripAndRefuseDamage() {
    var random = ConformanceRandom(seed: 42)
    for _ in 0..<2_000 {
      var entries: [ReplicaID: UInt64] = [:]
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        let sequence = [UInt64.random(in: 1...200, using: &random), UInt64.max, UInt64.random(in: 1...UInt64.max, using: &random)]
          .randomElement(using: &random)!
        entries[ReplicaID(rawValue: random.next())] = sequence
      }
      let vector = ReplicaVersionVector(entries)
      let bytes = _VectorBytes.encode(vector)
      #expect(_VectorBytes.decode(bytes) == vector)
      // Every strict prefix is refused, and so is a trailing byte.
      if !bytes.isEmpty {
        let cut = Int.random(in: 0..<bytes.count, using: &random)
        #expect(_VectorBytes.decode(bytes[..<cut]) == nil, "prefix \(cut) of \(bytes) decoded")
      }
      #expect(_VectorBytes.decode(bytes + [0]) == nil)
    }
    #expect(_VectorBytes.decode([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]) == nil)
  }
}
