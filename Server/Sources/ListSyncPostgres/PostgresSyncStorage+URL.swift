import Foundation
import PostgresNIO

extension PostgresSyncStorage {
  /// A connection pool's configuration from a libpq-style URL:
  /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
  ///
  /// `host=/path` in the query connects through a Unix socket folder instead (as libpq's
  /// `postgres:///lists?host=/var/run/postgresql`). The user defaults to `user=` in the query.
  ///
  /// ```swift
  /// let configuration = try PostgresSyncStorage.configuration(url: "postgres://sync@127.0.0.1:5433/lists?sslmode=disable")
  /// ```
  ///
  /// - Throws: ``PostgresURLError`` naming the part it refused.
  /// - Complexity: O(length of the URL).
  public static func configuration(url: String) throws(PostgresURLError) -> PostgresClient.Configuration {
    guard let components = URLComponents(string: url),
      let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
    else { throw .notPostgresURL(url) }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }

    guard let user = components.user.flatMap({ $0.removingPercentEncoding }) ?? query["user"], !user.isEmpty else {
      throw .missingUser
    }
    let password = components.password.flatMap { $0.removingPercentEncoding } ?? query["password"]
    var database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    database = database.removingPercentEncoding ?? database
    let databaseName = database.isEmpty ? query["dbname"] : database

    let tls: PostgresClient.Configuration.TLS
    switch query["sslmode"] ?? "prefer" {
    case "disable": tls = .disable
    case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
    case "require": tls = .require(.makeClientConfiguration())
    case let mode: throw .unsupportedSSLMode(mode)
    }

    if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
      let port = components.port ?? 5432
      return PostgresClient.Configuration(
        unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: databaseName)
    }
    let port = components.port ?? 5432
    guard (1...65535).contains(port) else { throw .invalidPort(String(port)) }
    let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
    return PostgresClient.Configuration(
      host: host, port: port, username: user, password: password, database: databaseName, tls: tls)
  }
}
