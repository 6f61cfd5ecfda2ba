import Foundation

/// Who may read and write which list: bearer tokens, each granting read or write access to
/// some lists or to all.
///
/// A server loads it from a JSON file:
///
/// ```json
/// {"tokens": [
///   {"token": "phone-7f3a", "lists": ["groceries", "chores"], "access": "write"},
///   {"token": "dashboard", "lists": "*", "access": "read"}
/// ]}
/// ```
/// ```swift
/// let policy = try SyncAccessPolicy.load(from: "tokens.json")
/// policy.authorize(token: "dashboard", list: "groceries")   // .read
/// policy.authorize(token: nil, list: "groceries")           // .unauthenticated
/// ```
/// - Complexity: ``authorize(token:list:)`` is O(lists of the token).
public struct SyncAccessPolicy: Sendable, Hashable, Codable {
  /// The lists a token covers.
  public enum Lists: Sendable, Hashable, Codable {
    /// Every list (`"*"` in the file).
    case all
    /// These lists.
    case named(Set<String>)

    public func contains(_ list: String) -> Bool {
      switch self {
      case .all: true
      case .named(let names): names.contains(list)
      }
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        guard text == "*" else {
          throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "lists is \"\(text)\": give \"*\" or an array of list names")
        }
        self = .all
        return
      }
      let names = try container.decode([String].self)
      for name in names where !SyncHub.isValidListName(name) {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(name)' is not a list name ([A-Za-z0-9._-], 1 to 128 characters)")
      }
      self = .named(Set(names))
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .all: try container.encode("*")
      case .named(let names): try container.encode(names.sorted())
      }
    }
  }

  /// What one token grants.
  public struct Grant: Sendable, Hashable, Codable {
    public var token: String
    public var lists: Lists
    public var access: SyncAccess
    /// Who pushes with this token (optional): tokens with the same owner share replica
    /// identities (one person's devices); without it, the token is an owner of its own.
    public var owner: String?

    public init(token: String, lists: Lists, access: SyncAccess, owner: String? = nil) {
      self.token = token
      self.lists = lists
      self.access = access
      self.owner = owner
    }
  }

  /// The grants, one per token.
  public var tokens: [Grant]
  /// The access of a request without a known token; nil (the default) refuses it with 401.
  public var anonymous: SyncAccess?

  public init(tokens: [Grant], anonymous: SyncAccess? = nil) {
    self.tokens = tokens
    self.anonymous = anonymous
  }

  /// Everyone may read and write every list, token or not: for tests and local use only.
  public static var open: SyncAccessPolicy { SyncAccessPolicy(tokens: [], anonymous: .write) }

  /// The access `token` grants to `list`.
  public func authorize(token: String?, list: String) -> SyncAuthorization {
    guard let token, let grant = tokens.first(where: { $0.token == token }) else {
      switch anonymous {
      case .read: return .read
      case .write: return .write
      case nil: return .unauthenticated
      }
    }
    guard grant.lists.contains(list) else { return .forbidden }
    return grant.access == .write ? .write : .read
  }

  /// Whether `token` is known (or anonymous access is allowed) and may see `list` at all.
  /// The owner a known token pushes as: `owner:NAME` for a grant naming its owner, otherwise
  /// `token:` and `digest(token)` (a one-way digest, so the name stored on disk does not reveal
  /// the token); nil for no or an unknown token (anonymous sessions bind nothing).
  public func owner(of token: String?, digest: (String) -> String) -> String? {
    guard let token, let grant = tokens.first(where: { $0.token == token }) else { return nil }
    if let owner = grant.owner { return "owner:" + owner }
    return "token:" + digest(token)
  }

  public func lists(visibleTo token: String?) -> Lists? {
    guard let token, let grant = tokens.first(where: { $0.token == token }) else { return anonymous == nil ? nil : .all }
    return grant.lists
  }

  /// Parses a policy file's JSON.
  ///
  /// - Throws: ``SyncAccessPolicyError`` naming the field (`tokens[2].access`) and, for
  ///   syntax errors, what the JSON parser reports.
  public static func decode(json: [UInt8], source: String = "tokens") throws(SyncAccessPolicyError) -> SyncAccessPolicy {
    let policy: SyncAccessPolicy
    do {
      policy = try JSONDecoder().decode(SyncAccessPolicy.self, from: Data(json))
    } catch let error as DecodingError {
      throw SyncAccessPolicyError(decoding: error, source: source, json: json)
    } catch {
      throw SyncAccessPolicyError(source: source, field: nil, line: nil, reason: "\(error)")
    }
    var seen: [String: Int] = [:]
    for (index, grant) in policy.tokens.enumerated() {
      let field = "tokens[\(index)].token"
      guard !grant.token.isEmpty else {
        throw SyncAccessPolicyError(source: source, field: field, line: nil, reason: "the token is empty")
      }
      if let first = seen[grant.token] {
        throw SyncAccessPolicyError(source: source, field: field, line: nil, reason: "the same token as tokens[\(first)]")
      }
      seen[grant.token] = index
    }
    return policy
  }

  /// Reads and parses a policy file.
  public static func load(from path: String) throws(SyncAccessPolicyError) -> SyncAccessPolicy {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw SyncAccessPolicyError(source: path, field: nil, line: nil, reason: "cannot read the file")
    }
    return try decode(json: Array(data), source: path)
  }
}
