/// What the history keeps about one version: where it came from, when, why and how big it was.
///
/// ```swift
/// let info = store.info(for: store.head)!
/// print(info.label ?? "Untitled", info.operationCount)   // "Move Item 1"
/// ```
public struct VersionInfo: Hashable, Sendable {
  /// The version this one describes.
  public var version: Version
  /// The version it was committed on top of; nil for version 0.
  public var parent: Version?
  /// Commit time, seconds since 1970 (as recorded, so replay restores it exactly).
  public var timestamp: Double
  /// The label for an undo menu ("Move Item", "Delete 3 Items"), if one was given.
  public var label: String?
  /// The number of recorded events of the transaction.
  public var operationCount: Int

  @inlinable
  public init(version: Version, parent: Version?, timestamp: Double, label: String?, operationCount: Int) {
    self.version = version
    self.parent = parent
    self.timestamp = timestamp
    self.label = label
    self.operationCount = operationCount
  }
}
