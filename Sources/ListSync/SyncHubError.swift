import ListHistory

/// Why the hub refused a request (opening a session, a read endpoint).
///
/// ```swift
/// do { return try await hub.readState(list: list, version: version) } catch { return error.response }
/// ```
public enum SyncHubError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No token or an unknown one (401).
  case unauthenticated
  /// The token does not cover this list (403).
  case forbidden(list: String)
  /// The list name is not `[A-Za-z0-9._-]{1,128}` (400).
  case invalidListName(String)
  /// No such list, and this request may not create it (404).
  case notHosted(list: String)
  /// A parameter is out of range or unparsable, named with its value (400).
  case badRequest(String)
  /// The storage failed (500).
  case storage(SyncStorageError)
  /// The hub is shutting down (503).
  case shuttingDown

  public var description: String {
    switch self {
    case .unauthenticated: "a bearer token is required"
    case .forbidden(let list): "the token does not grant access to list '\(list)'"
    case .invalidListName(let name): "'\(name)' is not a list name ([A-Za-z0-9._-], 1 to 128 characters)"
    case .notHosted(let list): "no list named '\(list)'"
    case .badRequest(let message): message
    case .storage(let error): "\(error)"
    case .shuttingDown: "the server is shutting down"
    }
  }

  /// The HTTP status a server answers with.
  public var httpStatus: Int {
    switch self {
    case .unauthenticated: 401
    case .forbidden: 403
    case .invalidListName, .badRequest: 400
    case .notHosted: 404
    case .storage: 500
    case .shuttingDown: 503
    }
  }

  /// A short machine-readable name: `unauthenticated`, `forbidden`, `invalid-list-name`,
  /// `not-hosted`, `bad-request`, `storage`, `shutting-down`.
  public var code: String {
    switch self {
    case .unauthenticated: "unauthenticated"
    case .forbidden: "forbidden"
    case .invalidListName: "invalid-list-name"
    case .notHosted: "not-hosted"
    case .badRequest: "bad-request"
    case .storage: "storage"
    case .shuttingDown: "shutting-down"
    }
  }

  /// The JSON error response: `{"error": "…", "code": "…"}` with ``httpStatus``.
  public var response: SyncReadResponse {
    var json = JSONWriter()
    json.object { json in
      json.key("error")
      json.string(description)
      json.key("code")
      json.string(code)
    }
    return SyncReadResponse(status: httpStatus, body: json.bytes)
  }
}
