/// One version of a journal's history as tools list it (`listjournal log`).
///
/// ```swift
/// for entry in history.versions { print(entry.version, entry.parent ?? "-", entry.label ?? "", entry.isHead) }
/// ```
public struct JournalVersionEntry: Hashable, Sendable {
  /// The version number (0 is the empty list).
  public var version: Version
  /// The version it was committed on top of; nil for version 0.
  public var parent: Version?
  /// Commit time, seconds since 1970 (millisecond precision).
  public var timestamp: Double
  /// The label given at commit, if any.
  public var label: String?
  /// Number of recorded events (primitive operations) of the transaction.
  public var operationCount: Int
  /// Whether this version is the journal's head (the current list).
  public var isHead: Bool
  /// Versions committed directly on top of this one, oldest first (more than one: a branch).
  public var children: [Version]

  @inlinable
  public init(
    version: Version, parent: Version?, timestamp: Double, label: String?, operationCount: Int, isHead: Bool,
    children: [Version]
  ) {
    self.version = version
    self.parent = parent
    self.timestamp = timestamp
    self.label = label
    self.operationCount = operationCount
    self.isHead = isHead
    self.children = children
  }
}
