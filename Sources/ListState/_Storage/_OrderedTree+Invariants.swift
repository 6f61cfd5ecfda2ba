extension _OrderedTree {
  /// Traps unless the tree is well formed: running totals match the payload, labels strictly
  /// increase, every leaf is at the same depth, no node is empty or over capacity, non-root
  /// nodes are at least a quarter full, and a root is never an internal node with one child.
  ///
  /// - Complexity: O(n).
  @inlinable
  func _checkInvariants() {
    guard let root else { return }
    precondition(root.count > 0, "empty root")
    precondition(root.isLeaf || root.count > 1, "internal root with one child")
    var previous: UInt64? = nil
    var leafDepth: Int? = nil
    _ = Self.check(root, isRoot: true, depth: 0, previous: &previous, leafDepth: &leafDepth)
  }

  /// Returns the node's totals, recomputed from the leaves.
  @inlinable
  static func check(
    _ node: Node, isRoot: Bool, depth: Int, previous: inout UInt64?, leafDepth: inout Int?
  ) -> _OrderedWeights {
    let n = node.count
    precondition(n > 0 && n <= node.slotCapacity, "node size \(n) of \(node.slotCapacity)")
    precondition(node.slotCapacity <= (node.isLeaf ? leafCapacity : internalCapacity), "node capacity")
    if !isRoot { precondition(n >= minimumFill(isLeaf: node.isLeaf), "underfull node (\(n) slots)") }
    if node.isLeaf {
      if let leafDepth { precondition(leafDepth == depth, "leaves at different depths") } else { leafDepth = depth }
      var totals = _OrderedWeights.zero
      for i in 0..<n {
        if let previous { precondition(previous < node.label(at: i), "labels out of order") }
        previous = node.label(at: i)
        let (w1, w2) = node.leafWeights(at: i)
        precondition(w1 >= 0 && w2 >= 0 && w1 < 1 << 31 && w2 < 1 << 31, "negative weight")
        totals.count += 1
        totals.w1 += w1
        totals.w2 += w2
      }
      return totals
    }
    var totals = _OrderedWeights.zero
    for index in 0..<n {
      let child = node.children[index]
      precondition(node.label(at: index) == child.minLabel, "minimum label")
      precondition(Int(node.branchSlots[index].slots) == child.count, "child slot count")
      precondition(child.height == node.height - 1, "child height")
      let childTotals = check(child, isRoot: false, depth: depth + 1, previous: &previous, leafDepth: &leafDepth)
      precondition(childTotals == child.totals, "child totals")
      totals.count += childTotals.count
      totals.w1 += childTotals.w1
      totals.w2 += childTotals.w2
      precondition(node.totalsBefore(index + 1) == totals, "running totals")
    }
    return totals
  }
}
