/// The code of an `error` frame: what kind of refusal it is (see `Documentation/SYNC.md`).
///
/// Unknown codes decode as they are, so a newer server's codes reach an older client intact.
///
/// ```swift
/// if case .error(_, let code, _) = message, code == .readOnly { … }
/// ```
public struct SyncErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64

  public init(rawValue: UInt64) { self.rawValue = rawValue }

  /// A frame that does not follow the protocol (the connection is closed).
  public static let malformed = SyncErrorCode(rawValue: 1)
  /// A frame or push over the server's limits (the connection is closed).
  public static let tooLarge = SyncErrorCode(rawValue: 2)
  /// A push on a read-only session (it stays open).
  public static let readOnly = SyncErrorCode(rawValue: 3)
  /// A batch or genesis of a different list than the one the session is for.
  public static let differentList = SyncErrorCode(rawValue: 4)
  /// A commit whose identity the list holds with different contents; nothing of the push stored.
  public static let conflictingCommit = SyncErrorCode(rawValue: 5)
  /// The server's storage failed; the push may be retried.
  public static let storage = SyncErrorCode(rawValue: 6)
  /// The client speaks a protocol version the server does not (the connection is closed).
  public static let unsupportedVersion = SyncErrorCode(rawValue: 7)
  /// The list is not hosted and this session may not create it.
  public static let notHosted = SyncErrorCode(rawValue: 8)
  /// A push of commits under a replica identity another token owns.
  public static let notTheAuthor = SyncErrorCode(rawValue: 9)
  /// A push over one of the hub's limits on what a batch expands to (decoded size, label,
  /// operations, commit size) or with a Lamport clock implausibly far ahead.
  public static let overLimit = SyncErrorCode(rawValue: 10)

  public var description: String {
    switch self {
    case .malformed: "malformed"
    case .tooLarge: "too large"
    case .readOnly: "read-only"
    case .differentList: "different list"
    case .conflictingCommit: "conflicting commit"
    case .storage: "storage"
    case .unsupportedVersion: "unsupported version"
    case .notHosted: "not hosted"
    case .notTheAuthor: "not the author"
    case .overLimit: "over limit"
    default: "code \(rawValue)"
    }
  }
}
