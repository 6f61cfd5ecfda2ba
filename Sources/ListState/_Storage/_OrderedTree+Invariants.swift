extension _OrderedTree {
  /// Traps unless the tree is well formed: running totals match the payload, labels strictly
  /// increase, every leaf is at the same depth, no node is empty or over capacity, and a root is
  /// never an internal node with one child.
  ///
  /// - Complexity: O(n).
  @inlinable
  func _checkInvariants() {
    guard let root else { return }
    precondition(root.slotCount > 0, "empty root")
    precondition(root.isLeaf || root.children.count > 1, "internal root with one child")
    var previous: UInt64? = nil
    var leafDepth: Int? = nil
    _ = Self.check(root, depth: 0, previous: &previous, leafDepth: &leafDepth)
  }

  /// Returns the node's totals, recomputed from the leaves.
  @inlinable
  static func check(_ node: Node, depth: Int, previous: inout UInt64?, leafDepth: inout Int?) -> _OrderedWeights {
    if node.isLeaf {
      precondition(!node.ids.isEmpty && node.ids.count <= leafCapacity, "leaf size \(node.ids.count)")
      precondition(node.labels.count == node.ids.count && node.leafPrefix.count == node.ids.count, "leaf arrays")
      precondition(node.children.isEmpty && node.prefix.isEmpty, "leaf with children")
      if let leafDepth { precondition(leafDepth == depth, "leaves at different depths") } else { leafDepth = depth }
      var totals = _OrderedWeights.zero
      for i in 0..<node.ids.count {
        if let previous { precondition(previous < node.labels[i], "labels out of order") }
        previous = node.labels[i]
        let (w1, w2) = node.leafWeights(at: i)
        precondition(w1 >= 0 && w2 >= 0 && w1 < 1 << 31 && w2 < 1 << 31, "negative weight")
        totals.count += 1
        totals.w1 += w1
        totals.w2 += w2
      }
      return totals
    }
    precondition(!node.children.isEmpty && node.children.count <= internalCapacity, "internal size")
    precondition(node.children.count == node.labels.count && node.children.count == node.prefix.count, "internal arrays")
    precondition(node.ids.isEmpty && node.leafPrefix.isEmpty, "internal node with entries")
    var totals = _OrderedWeights.zero
    for (index, child) in node.children.enumerated() {
      precondition(node.labels[index] == child.minLabel, "minimum label")
      let childTotals = check(child, depth: depth + 1, previous: &previous, leafDepth: &leafDepth)
      precondition(childTotals == child.totals, "child totals")
      totals.count += childTotals.count
      totals.w1 += childTotals.w1
      totals.w2 += childTotals.w2
      precondition(node.prefix[index] == totals, "running totals")
    }
    return totals
  }
}
