/// The undo tree's nodes by version, with room for a run of lost versions right after version 0
/// that takes no memory: a journal whose older history was dropped (`compact --keep-last`) or
/// lost before its first kept checkpoint opens in time and memory proportional to what it kept.
///
/// ```swift
/// var nodes = _VersionNodes(root: rootNode)
/// nodes.addLostPrefix(through: 999_999)   // versions 1...999_999: no node stored
/// nodes.append(resumedNode)               // version 1_000_000
/// nodes[500].parent                       // -1: a lost version reads as a root without events
/// ```
@usableFromInline
struct _VersionNodes: Sendable {
  /// Version 0, then every version after the lost prefix, in version order.
  @usableFromInline
  private(set) var storage: ContiguousArray<_VersionNode>
  /// Versions `1...lostPrefix` are lost and have no stored node (0: none).
  @usableFromInline
  private(set) var lostPrefix = 0

  @inlinable
  init(root: _VersionNode) { storage = [root] }

  @inlinable
  var count: Int { storage.count + lostPrefix }

  /// What a lost version without a stored node reads as: a root with no events, like the
  /// nodes a gap later in the history appends.
  @inlinable
  static var lostNode: _VersionNode {
    _VersionNode(parent: -1, depth: 0, eventCount: 0, firstEvent: 0, eventsSinceCheckpoint: 0, timestampMillis: 0)
  }

  /// Whether `version` is in the lost prefix.
  @inlinable
  func isInLostPrefix(_ version: Int) -> Bool { version > 0 && version <= lostPrefix }

  @inlinable
  subscript(version: Int) -> _VersionNode {
    get {
      if lostPrefix == 0 || version == 0 { return storage[version] }
      return version <= lostPrefix ? Self.lostNode : storage[version - lostPrefix]
    }
    _modify {
      // Nothing links to a lost version (a commit on one makes a lost version too), so its node
      // is never written.
      precondition(!isInLostPrefix(version), "v\(version) is lost and has no node to change")
      yield &storage[version == 0 ? 0 : version - lostPrefix]
    }
  }

  /// Makes versions 1 through `last` lost without storing a node for each; only while version 0
  /// is the only version.
  ///
  /// - Complexity: O(1).
  @inlinable
  mutating func addLostPrefix(through last: Int) {
    precondition(count == 1 && last >= 1, "a lost prefix starts right after version 0")
    lostPrefix = last
  }

  /// Stores nodes for the lost versions from `version` to the end of the prefix, so that
  /// `version`, where a checkpoint resumed the history, can take children; only right after
  /// ``addLostPrefix(through:)``.
  ///
  /// - Complexity: O(versions from `version` to the end of the prefix).
  @inlinable
  mutating func storeLostVersions(from version: Int) {
    precondition(storage.count == 1 && isInLostPrefix(version), "v\(version) is not in a fresh lost prefix")
    let last = lostPrefix
    lostPrefix = version - 1
    storage.reserveCapacity(1 + last - lostPrefix)
    for _ in version...last { storage.append(Self.lostNode) }
  }

  @inlinable
  mutating func append(_ node: _VersionNode) { storage.append(node) }

  @inlinable
  mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(max(0, capacity - lostPrefix)) }

  /// The stored versions after version 0, in order (the lost prefix skipped).
  @inlinable
  var storedVersionsAfterRoot: Range<Int> { (lostPrefix + 1)..<count }
}
