/// The fields every B+tree node's header starts with: how many slots are used and allocated,
/// and the node's height. (The hash map's header holds it as its first field, followed by the
/// subtree's entry count; the ordered tree's header is just this.)
@usableFromInline
struct _TreeNodeShape {
  /// Entries or elements (leaf), children (internal).
  @usableFromInline
  var count: Int32
  /// Slots allocated.
  @usableFromInline
  var capacity: Int32
  /// 0 for a leaf; one more than the children's otherwise.
  @usableFromInline
  var height: Int32

  @inlinable
  @inline(__always)
  init(count: Int32, capacity: Int32, height: Int32) {
    self.count = count
    self.capacity = capacity
    self.height = height
  }
}

/// What ``_HashNode`` and ``_OrderedNode`` share: a single-allocation node (a `ManagedBuffer`
/// whose header starts with a ``_TreeNodeShape``) that can be created empty and filled with
/// children.
///
/// The layout accessors are not here but next to the code of each tree (`_HashTree.swift`,
/// `_OrderedTree.swift`): they are `@_transparent`, and mandatory inlining sees only bodies
/// in the same file when the package is built without whole-module optimization (an app's
/// debug build).
///
/// ```swift
/// let root = _OrderedNode<Int>.stackLevels(leaves, capacity: _OrderedTree<Int>.internalCapacity)
/// root.height   // 1 when the leaves fit under one node
/// ```
@usableFromInline
protocol _TreeNode: AnyObject {
  /// A new, empty node.
  static func make(height: Int, capacity: Int) -> Self
  /// Appends `child` as the last child of this internal node.
  func branchAppend(_ child: Self)
}

extension _TreeNode {
  /// Stacks internal levels of at most `capacity` children over `leaves` (left to right; not
  /// empty) until one node remains, and returns it. Children are spread evenly, so no node of a
  /// bulk-built tree is left nearly empty.
  ///
  /// - Complexity: O(`leaves.count`).
  @inlinable
  static func stackLevels(_ leaves: [Self], capacity: Int) -> Self {
    var level = leaves
    var height = 1
    while level.count > 1 {
      let groupCount = (level.count + capacity - 1) / capacity
      var next: [Self] = []
      next.reserveCapacity(groupCount)
      var start = 0
      var i = 0
      while i < groupCount {
        let end = level.count * (i + 1) / groupCount
        let node = make(height: height, capacity: capacity)
        var j = start
        while j < end {
          node.branchAppend(level[j])
          j += 1
        }
        next.append(node)
        start = end
        i += 1
      }
      level = next
      height += 1
    }
    return level[0]
  }
}
