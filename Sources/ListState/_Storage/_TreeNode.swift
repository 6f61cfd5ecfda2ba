/// The header fields every B+tree node of the storage keeps first: how many slots are used and
/// allocated, and the node's height.
@usableFromInline
protocol _TreeNodeHeader {
  /// Entries or elements (leaf), children (internal).
  var count: Int32 { get set }
  /// Slots allocated.
  var capacity: Int32 { get }
  /// 0 for a leaf; one more than the children's otherwise.
  var height: Int32 { get }
}

/// What ``_HashNode`` and ``_OrderedNode`` share: a single-allocation node (a `ManagedBuffer`
/// whose header is a ``_TreeNodeHeader``) that can be created empty and filled with children.
/// The accessors below are written once here; both node types are final classes, so every use
/// is specialized and inlined as if each type declared them itself.
///
/// ```swift
/// let root = _OrderedNode<Int>.stackLevels(leaves, capacity: _OrderedTree<Int>.internalCapacity)
/// root.height   // 1 when the leaves fit under one node
/// ```
@usableFromInline
protocol _TreeNode: AnyObject {
  associatedtype Header: _TreeNodeHeader
  /// The header, through its address (a stored class property would pay dynamic exclusivity
  /// checks on every access).
  var headerPointer: UnsafeMutablePointer<Header> { get }
  /// A new, empty node.
  static func make(height: Int, capacity: Int) -> Self
  /// Appends `child` as the last child of this internal node.
  func branchAppend(_ child: Self)
}

extension _TreeNode {
  @inlinable
  @inline(__always)
  var count: Int {
    get { Int(headerPointer.pointee.count) }
    set { headerPointer.pointee.count = Int32(truncatingIfNeeded: newValue) }
  }

  @inlinable
  @inline(__always)
  var slotCapacity: Int { Int(headerPointer.pointee.capacity) }

  @inlinable
  @inline(__always)
  var height: Int { Int(headerPointer.pointee.height) }

  @inlinable
  @inline(__always)
  var isLeaf: Bool { headerPointer.pointee.height == 0 }

  /// Stacks internal levels of at most `capacity` children over `nodes` (one level of the
  /// tree, left to right; not empty) until one node remains, and returns it. Children are
  /// spread evenly, so no node of a bulk-built tree is left nearly empty.
  ///
  /// - Complexity: O(`nodes.count`).
  @inlinable
  static func stackLevels(_ nodes: [Self], capacity: Int) -> Self {
    var level = nodes
    var height = nodes[0].height + 1
    while level.count > 1 {
      let groupCount = (level.count + capacity - 1) / capacity
      var next: [Self] = []
      next.reserveCapacity(groupCount)
      var start = 0
      for i in 0..<groupCount {
        let end = level.count * (i + 1) / groupCount
        let node = make(height: height, capacity: capacity)
        for child in level[start..<end] { node.branchAppend(child) }
        next.append(node)
        start = end
      }
      level = next
      height += 1
    }
    return level[0]
  }
}
