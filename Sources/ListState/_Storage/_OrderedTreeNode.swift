/// A node of an ``_OrderedTree``: a leaf holding entries sorted by label, or an internal node
/// holding children with their summaries.
///
/// Nodes are shared between snapshots. A node is mutated in place only while it is uniquely
/// referenced; otherwise the mutating path copies it first (path copying), so a shared node is
/// never changed — which is why the `@unchecked Sendable` is sound.
final class _OrderedTreeNode<ID: Hashable & Sendable>: @unchecked Sendable {
  typealias Entry = _OrderedEntry<ID>

  /// Leaf payload, sorted by label (empty in internal nodes).
  var entries: [Entry]
  /// Internal payload (empty in leaves).
  var children: [_OrderedTreeNode<ID>]
  /// `summaries[i]` describes `children[i]`.
  var summaries: [_OrderedSummary]
  let isLeaf: Bool
  /// Totals of the whole subtree.
  var count: Int
  var w1: Int
  var w2: Int

  init(entries: [Entry]) {
    self.entries = entries
    self.children = []
    self.summaries = []
    self.isLeaf = true
    var w1 = 0
    var w2 = 0
    for entry in entries {
      w1 &+= entry.w1
      w2 &+= entry.w2
    }
    self.count = entries.count
    self.w1 = w1
    self.w2 = w2
  }

  init(children: [_OrderedTreeNode<ID>]) {
    self.entries = []
    self.children = children
    self.isLeaf = false
    self.summaries = children.map(\.summary)
    var count = 0
    var w1 = 0
    var w2 = 0
    for summary in summaries {
      count &+= summary.count
      w1 &+= summary.w1
      w2 &+= summary.w2
    }
    self.count = count
    self.w1 = w1
    self.w2 = w2
  }

  private init(copying other: _OrderedTreeNode<ID>) {
    self.entries = other.entries
    self.children = other.children
    self.summaries = other.summaries
    self.isLeaf = other.isLeaf
    self.count = other.count
    self.w1 = other.w1
    self.w2 = other.w2
  }

  /// A shallow copy: the payload arrays are shared copy-on-write, children are shared.
  func copy() -> _OrderedTreeNode<ID> { _OrderedTreeNode(copying: self) }

  /// Number of entries (leaf) or children (internal).
  var slotCount: Int { isLeaf ? entries.count : children.count }

  var minLabel: UInt64 { isLeaf ? entries[0].label : summaries[0].minLabel }

  var summary: _OrderedSummary { _OrderedSummary(minLabel: minLabel, count: count, w1: w1, w2: w2) }

  /// Recomputes the totals from the payload.
  func recomputeTotals() {
    var count = 0
    var w1 = 0
    var w2 = 0
    if isLeaf {
      count = entries.count
      for entry in entries {
        w1 &+= entry.w1
        w2 &+= entry.w2
      }
    } else {
      for summary in summaries {
        count &+= summary.count
        w1 &+= summary.w1
        w2 &+= summary.w2
      }
    }
    self.count = count
    self.w1 = w1
    self.w2 = w2
  }

  /// The index of the child whose label range covers `label`: the last child whose smallest
  /// label is `<= label`, or 0.
  func childIndex(forLabel label: UInt64) -> Int {
    var low = 1
    var high = summaries.count
    // Find the first summary with minLabel > label, in 1..<count; the answer is the one before.
    while low < high {
      let mid = (low + high) >> 1
      if summaries[mid].minLabel <= label { low = mid + 1 } else { high = mid }
    }
    return low - 1
  }

  /// The index of the first entry whose label is `>= label` (leaves only).
  func entryLowerBound(_ label: UInt64) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) >> 1
      if entries[mid].label < label { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Splits off the upper half of an overfull node and returns it.
  func splitOffUpperHalf() -> _OrderedTreeNode<ID> {
    if isLeaf {
      let middle = entries.count / 2
      let upper = _OrderedTreeNode(entries: Array(entries[middle...]))
      entries.removeSubrange(middle...)
      recomputeTotals()
      return upper
    } else {
      let middle = children.count / 2
      let upper = _OrderedTreeNode(children: Array(children[middle...]))
      children.removeSubrange(middle...)
      summaries.removeSubrange(middle...)
      recomputeTotals()
      return upper
    }
  }
}
