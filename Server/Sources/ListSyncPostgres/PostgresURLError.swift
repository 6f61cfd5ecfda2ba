/// Why a `postgres://` URL was refused, with the URL's offending part.
public enum PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not a URL, or its scheme is not `postgres` / `postgresql`.
  case notPostgresURL(String)
  /// The port is outside 1...65535.
  case invalidPort(String)
  /// No user name, neither in the URL nor as `user=`.
  case missingUser
  /// An `sslmode` this storage does not offer (`disable`, `prefer`, `require`).
  case unsupportedSSLMode(String)

  public var description: String {
    switch self {
    case .notPostgresURL(let url): "not a postgres:// URL: '\(url)'"
    case .invalidPort(let port): "invalid port '\(port)' in the PostgreSQL URL"
    case .missingUser: "the PostgreSQL URL names no user (postgres://USER@HOST/DATABASE)"
    case .unsupportedSSLMode(let mode): "unsupported sslmode '\(mode)' (use disable, prefer or require)"
    }
  }
}
