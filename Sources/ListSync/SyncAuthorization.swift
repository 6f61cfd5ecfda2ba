/// The answer of ``SyncHub/authorize(token:list:)``: the access a bearer token grants to a list,
/// or why it grants none (the HTTP status a server answers with).
///
/// ```swift
/// switch hub.authorize(token: bearer, list: list) {
/// case .read, .write: …                                   // upgrade the connection
/// case let refusal: respond(status: refusal.httpStatus)   // 401 or 403
/// }
/// ```
public enum SyncAuthorization: Sendable, Hashable {
  case read
  case write
  /// No token, or a token the policy does not know: 401.
  case unauthenticated
  /// A known token that does not cover the list: 403.
  case forbidden

  /// The access granted, nil when refused.
  public var access: SyncAccess? {
    switch self {
    case .read: .read
    case .write: .write
    case .unauthenticated, .forbidden: nil
    }
  }

  /// The HTTP status of a refusal (401 or 403); 200 when granted.
  public var httpStatus: Int {
    switch self {
    case .read, .write: 200
    case .unauthenticated: 401
    case .forbidden: 403
    }
  }
}
