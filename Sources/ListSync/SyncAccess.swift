/// What a session may do with a list.
///
/// ```swift
/// let session = try await hub.openSession(list: "groceries", access: .read) { frame in … }
/// ```
public enum SyncAccess: String, Sendable, Hashable, Codable, Comparable {
  /// Receive commits and read the list; pushes are refused.
  case read
  /// Receive and push commits; a list that does not exist yet is created.
  case write

  public static func < (lhs: SyncAccess, rhs: SyncAccess) -> Bool { lhs == .read && rhs == .write }
}
