/// Where a list lives: the server's base URL, the list's name and the bearer token.
///
/// ```swift
/// let endpoint = SyncEndpoint(url: "wss://lists.example.com", list: "groceries", token: "phone-7f3a")
/// endpoint.syncURL   // "wss://lists.example.com/v1/lists/groceries/sync"
/// ```
public struct SyncEndpoint: Sendable, Hashable {
  /// The server's base URL (`ws://host:port` or `wss://…`), without a trailing slash.
  public var url: String
  public var list: String
  public var token: String?

  public init(url: String, list: String, token: String?) {
    self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
    self.list = list
    self.token = token
  }

  /// The WebSocket URL of the list's sync endpoint.
  public var syncURL: String { "\(url)/v1/lists/\(list)/sync" }

  /// The list named in a sync URL's path (`…/v1/lists/{list}/sync`), or nil.
  public static func list(inSyncURL url: String) -> String? {
    let parts = url.split(separator: "?", maxSplits: 1)[0].split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[parts.count - 1] == "sync", parts[parts.count - 3] == "lists" else { return nil }
    return String(parts[parts.count - 2])
  }
}
