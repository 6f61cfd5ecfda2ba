import Foundation
import ListSync
import ListSyncPostgres
import Logging
import PostgresNIO
import Testing

/// The PostgreSQL the tests use: `LISTJOURNAL_POSTGRES_URL` (`Server/Tools/with-postgres` sets
/// it). Without it the tests that need a database are skipped, unless
/// `LISTJOURNAL_REQUIRE_POSTGRES=1` (CI), which makes the missing database a failure.
enum PostgresTestEnvironment {
  static let url = ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
  static let required = ProcessInfo.processInfo.environment["LISTJOURNAL_REQUIRE_POSTGRES"] == "1"
  /// `restart|stop|start` for the cluster, when the test runs under `with-postgres`.
  static let control = ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }

  /// Whether the database tests run: with a database, or to fail when one is required.
  static let enabled = url != nil || required
  static let skipMessage: Comment =
    "no PostgreSQL: run under Server/Tools/with-postgres or set LISTJOURNAL_POSTGRES_URL"

  /// The URL, or a recorded failure (the database is required but missing).
  static func requireURL() throws -> String {
    guard let url else {
      Issue.record("LISTJOURNAL_REQUIRE_POSTGRES=1 but LISTJOURNAL_POSTGRES_URL is not set")
      throw CancellationError()
    }
    return url
  }

  static let logger: Logger = {
    var logger = Logger(label: "listjournal.postgres.tests")
    logger.logLevel = .critical
    return logger
  }()
}

/// A database of one test's own, created on the server the URL names and dropped afterwards, so
/// tests never see each other's lists or notices.
struct PostgresTestDatabase {
  let name: String
  let configuration: PostgresClient.Configuration

  /// Runs `body` with `instances` storages (each its own pool, as separate server instances)
  /// on a fresh database; closes them and drops the database afterwards.
  static func withStorages<R: Sendable>(
    _ instances: Int = 1, _ body: ([PostgresSyncStorage]) async throws -> R
  ) async throws -> R {
    let database = try await create()
    do {
      let result = try await database.withStorages(instances, body)
      try await database.drop()
      return result
    } catch {
      try? await database.drop()
      throw error
    }
  }

  func withStorages<R: Sendable>(_ instances: Int, _ body: ([PostgresSyncStorage]) async throws -> R) async throws -> R {
    let storages = (0..<instances).map { _ in
      // A short limit: a query lost in a restart fails the append soon, and the writer retries.
      PostgresSyncStorage(configuration: configuration, operationTimeout: .seconds(5), logger: PostgresTestEnvironment.logger)
    }
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for storage in storages { group.addTask { try await storage.run() } }
      do {
        let result = try await body(storages)
        for storage in storages { try await storage.close() }
        try await group.waitForAll()
        return result
      } catch {
        for storage in storages { try? await storage.close() }
        group.cancelAll()
        throw error
      }
    }
  }

  static func create() async throws -> PostgresTestDatabase {
    let url = try PostgresTestEnvironment.requireURL()
    let admin = try PostgresSyncStorage.configuration(url: url)
    let name = "lj_test_\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF)"
    try await withAdminConnection(admin) { connection in
      try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: PostgresTestEnvironment.logger)
    }
    var configuration = admin
    configuration.database = name
    return PostgresTestDatabase(name: name, configuration: configuration)
  }

  func drop() async throws {
    let url = try PostgresTestEnvironment.requireURL()
    let admin = try PostgresSyncStorage.configuration(url: url)
    try await Self.withAdminConnection(admin) { connection in
      try await connection.query(
        PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: PostgresTestEnvironment.logger)
    }
  }

  /// Runs `body` on a connection to the URL's own database (retrying while the server starts).
  static func withAdminConnection(
    _ configuration: PostgresClient.Configuration, _ body: (PostgresConnection) async throws -> Void
  ) async throws {
    let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresTestEnvironment.logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      try await client.withConnection { connection in try await body(connection) }
    }
  }
}
