extension _OrderedTree {
  /// Traps unless the tree is well formed: totals and summaries match the payload, labels
  /// strictly increase, every leaf is at the same depth, no node is empty or over capacity, and
  /// a root is never an internal node with one child.
  ///
  /// - Complexity: O(n).
  func _checkInvariants() {
    guard let root else { return }
    precondition(root.count > 0, "empty root")
    precondition(root.isLeaf || root.children.count > 1, "internal root with one child")
    var previous: UInt64? = nil
    var leafDepth: Int? = nil
    Self.check(root, depth: 0, isRoot: true, previous: &previous, leafDepth: &leafDepth)
  }

  private static func check(
    _ node: Node, depth: Int, isRoot: Bool, previous: inout UInt64?, leafDepth: inout Int?
  ) {
    if node.isLeaf {
      precondition(!node.entries.isEmpty && node.entries.count <= leafCapacity, "leaf size \(node.entries.count)")
      precondition(node.children.isEmpty && node.summaries.isEmpty, "leaf with children")
      if let leafDepth { precondition(leafDepth == depth, "leaves at different depths") } else { leafDepth = depth }
      var w1 = 0
      var w2 = 0
      for entry in node.entries {
        if let previous { precondition(previous < entry.label, "labels out of order") }
        previous = entry.label
        precondition(entry.w1 >= 0 && entry.w2 >= 0, "negative weight")
        w1 += entry.w1
        w2 += entry.w2
      }
      precondition(node.count == node.entries.count && node.w1 == w1 && node.w2 == w2, "leaf totals")
      return
    }
    precondition(!node.children.isEmpty && node.children.count <= internalCapacity, "internal size")
    precondition(node.children.count == node.summaries.count, "summaries count")
    precondition(node.entries.isEmpty, "internal node with entries")
    var count = 0
    var w1 = 0
    var w2 = 0
    for (child, summary) in zip(node.children, node.summaries) {
      precondition(summary.minLabel == child.minLabel, "summary minLabel")
      precondition(summary.count == child.count && summary.w1 == child.w1 && summary.w2 == child.w2, "summary totals")
      count += summary.count
      w1 += summary.w1
      w2 += summary.w2
      check(child, depth: depth + 1, isRoot: false, previous: &previous, leafDepth: &leafDepth)
    }
    precondition(node.count == count && node.w1 == w1 && node.w2 == w2, "internal totals")
  }
}
