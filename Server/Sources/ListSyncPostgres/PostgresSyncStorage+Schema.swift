import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// Creates the tables, or brings an older schema up to ``schemaVersion``, in one transaction
  /// under an advisory lock, so instances starting together migrate once.
  ///
  /// A database whose schema is newer than this version understands is refused rather than
  /// written to.
  ///
  /// - Complexity: a handful of statements; nothing when the schema is current.
  func migrate() async throws {
    try await client.withTransaction(logger: logger) { connection in
      // Any constant shared by every instance; "LJ" "schema" in ASCII.
      _ = try await connection.query("SELECT pg_advisory_xact_lock(7795718346839746917)", logger: logger).collect()
      _ = try await connection.query(
        "CREATE TABLE IF NOT EXISTS listjournal_schema (version integer NOT NULL)", logger: logger
      ).collect()
      var current = 0
      for try await version in try await connection.query("SELECT version FROM listjournal_schema", logger: logger)
        .decode(Int.self)
      {
        current = max(current, version)
      }
      guard current <= Self.schemaVersion else {
        throw SyncStorageError.backend(
          "the database's schema version \(current) is newer than this server understands (\(Self.schemaVersion))")
      }
      if current < 1 {
        _ = try await connection.query(
          """
          CREATE TABLE lists (
            name text PRIMARY KEY,
            list_id bigint NOT NULL,
            base bytea NOT NULL,
            last_position bigint NOT NULL DEFAULT 0
          )
          """, logger: logger
        ).collect()
        _ = try await connection.query(
          """
          CREATE TABLE commits (
            list text NOT NULL REFERENCES lists (name),
            replica bigint NOT NULL,
            sequence bigint NOT NULL,
            lamport_clock bigint NOT NULL,
            dependencies bytea NOT NULL,
            position bigint NOT NULL,
            body bytea NOT NULL,
            PRIMARY KEY (list, replica, sequence),
            UNIQUE (list, position)
          )
          """, logger: logger
        ).collect()
      }
      if current < 2 {
        _ = try await connection.query(
          """
          CREATE TABLE replica_owners (
            list text NOT NULL REFERENCES lists (name),
            replica bigint NOT NULL,
            owner text NOT NULL,
            PRIMARY KEY (list, replica)
          )
          """, logger: logger
        ).collect()
      }
      if current < Self.schemaVersion {
        _ = try await connection.query("DELETE FROM listjournal_schema", logger: logger).collect()
        _ = try await connection.query(
          "INSERT INTO listjournal_schema (version) VALUES (\(Self.schemaVersion))", logger: logger
        ).collect()
      }
    }
  }
}
