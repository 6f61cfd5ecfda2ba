/// A node of an ``_OrderedTree``: a leaf of elements sorted by label, or an internal node of
/// children.
///
/// The layout is struct-of-arrays so that a search touches few cache lines: labels (leaf) or
/// smallest labels (internal) in one array for the binary search by label, running totals in
/// another for the binary search by index or weight, identifiers or child pointers in a third.
///
/// Nodes are shared between snapshots. A node is mutated in place only while it is uniquely
/// referenced; otherwise the mutating path copies it first (path copying), so a shared node is
/// never changed — which is why the `@unchecked Sendable` is sound.
@usableFromInline
final class _OrderedTreeNode<ID: Hashable & Sendable>: @unchecked Sendable {
  @usableFromInline
  typealias Entry = _OrderedEntry<ID>

  /// Leaf: the elements' labels, increasing. Internal: the smallest label under each child.
  @usableFromInline
  var labels: [UInt64]
  /// Leaf: the elements' identifiers.
  @usableFromInline
  var ids: [ID]
  /// Leaf: running weight totals (inclusive).
  @usableFromInline
  var leafPrefix: [_LeafWeights]
  /// Internal: the children.
  @usableFromInline
  var children: [_OrderedTreeNode<ID>]
  /// Internal: running count and weight totals over the children (inclusive).
  @usableFromInline
  var prefix: [_OrderedWeights]
  @usableFromInline
  let isLeaf: Bool

  @inlinable
  init(entries: some Collection<Entry>) {
    labels = entries.map(\.label)
    ids = entries.map(\.id)
    var running: [_LeafWeights] = []
    running.reserveCapacity(entries.count)
    var w1: UInt32 = 0
    var w2: UInt32 = 0
    for entry in entries {
      w1 &+= entry._w1
      w2 &+= entry._w2
      running.append(_LeafWeights(w1: w1, w2: w2))
    }
    leafPrefix = running
    children = []
    prefix = []
    isLeaf = true
  }

  @inlinable
  init(children: [_OrderedTreeNode<ID>]) {
    self.labels = children.map(\.minLabel)
    self.ids = []
    self.leafPrefix = []
    self.children = children
    self.prefix = []
    self.isLeaf = false
    recomputePrefix()
  }

  @inlinable
  init(copying other: _OrderedTreeNode<ID>) {
    labels = other.labels
    ids = other.ids
    leafPrefix = other.leafPrefix
    children = other.children
    prefix = other.prefix
    isLeaf = other.isLeaf
  }

  /// Number of elements (leaf) or children (internal).
  @inlinable
  var slotCount: Int { labels.count }

  @inlinable
  var minLabel: UInt64 { labels[0] }

  /// The totals of the whole subtree.
  @inlinable
  var totals: _OrderedWeights {
    if isLeaf {
      guard let last = leafPrefix.last else { return .zero }
      return _OrderedWeights(count: ids.count, w1: Int(last.w1), w2: Int(last.w2))
    }
    return prefix.last ?? .zero
  }

  @inlinable
  var count: Int { isLeaf ? ids.count : (prefix.last?.count ?? 0) }

  /// The weights of leaf element `i`.
  @inlinable
  func leafWeights(at i: Int) -> (w1: Int, w2: Int) {
    let upper = leafPrefix[i]
    guard i > 0 else { return (Int(upper.w1), Int(upper.w2)) }
    let lower = leafPrefix[i - 1]
    return (Int(upper.w1 &- lower.w1), Int(upper.w2 &- lower.w2))
  }

  /// Leaf element `i` as an entry.
  @inlinable
  func entry(at i: Int) -> Entry {
    let (w1, w2) = leafWeights(at: i)
    return Entry(label: labels[i], id: ids[i], w1: w1, w2: w2)
  }

  /// The totals before child (internal) or element (leaf) `i`.
  @inlinable
  func totalsBefore(_ i: Int) -> _OrderedWeights {
    guard i > 0 else { return .zero }
    if isLeaf {
      let value = leafPrefix[i - 1]
      return _OrderedWeights(count: i, w1: Int(value.w1), w2: Int(value.w2))
    }
    return prefix[i - 1]
  }

  /// Rebuilds the leaf running totals from per-element weights `weights`.
  @inlinable
  func setLeafWeights(_ weights: [(w1: Int, w2: Int)]) {
    var w1: UInt32 = 0
    var w2: UInt32 = 0
    leafPrefix.removeAll(keepingCapacity: true)
    leafPrefix.reserveCapacity(weights.count)
    for weight in weights {
      w1 &+= UInt32(truncatingIfNeeded: weight.w1)
      w2 &+= UInt32(truncatingIfNeeded: weight.w2)
      leafPrefix.append(_LeafWeights(w1: w1, w2: w2))
    }
  }

  /// Per-element weights of a leaf.
  @inlinable
  var leafWeightList: [(w1: Int, w2: Int)] { (0..<ids.count).map { leafWeights(at: $0) } }

  /// Recomputes the running totals of an internal node from its children.
  @inlinable
  func recomputePrefix() {
    prefix.removeAll(keepingCapacity: true)
    prefix.reserveCapacity(children.count)
    var running = _OrderedWeights.zero
    for child in children {
      let totals = child.totals
      running.count &+= totals.count
      running.w1 &+= totals.w1
      running.w2 &+= totals.w2
      prefix.append(running)
    }
  }

  /// Adds `delta` to the running totals from child `i` on (its subtree changed by `delta`).
  @inlinable
  func addToPrefix(from i: Int, count: Int, w1: Int, w2: Int) {
    prefix.withUnsafeMutableBufferPointer { prefix in
      for j in i..<prefix.count {
        prefix[j].count &+= count
        prefix[j].w1 &+= w1
        prefix[j].w2 &+= w2
      }
    }
  }

  /// Adds weights to the running totals of a leaf from element `i` on.
  @inlinable
  func addToLeafPrefix(from i: Int, w1: Int, w2: Int) {
    let d1 = UInt32(truncatingIfNeeded: w1)
    let d2 = UInt32(truncatingIfNeeded: w2)
    leafPrefix.withUnsafeMutableBufferPointer { prefix in
      for j in i..<prefix.count {
        prefix[j].w1 &+= d1
        prefix[j].w2 &+= d2
      }
    }
  }

  /// The index of the child whose label range covers `label`: the last child whose smallest
  /// label is `<= label`, or 0.
  @inlinable
  func childIndex(forLabel label: UInt64) -> Int {
    labels.withUnsafeBufferPointer { _SortedSearch.lastNotAbove($0, label) }
  }

  /// The first position whose label is `>= label` (leaves).
  @inlinable
  func labelLowerBound(_ label: UInt64) -> Int {
    labels.withUnsafeBufferPointer { _SortedSearch.lowerBound($0, label) }
  }

  /// The first child whose running count exceeds `index` (internal).
  @inlinable
  func childIndex(forIndex index: Int) -> Int {
    prefix.withUnsafeBufferPointer { prefix in
      var low = 0
      var high = prefix.count - 1
      while low < high {
        let mid = (low + high) >> 1
        if prefix[mid].count > index { high = mid } else { low = mid + 1 }
      }
      return low
    }
  }

  /// The first child (internal) or element (leaf) whose running weight exceeds `offset`
  /// (clamped to the last one).
  @inlinable
  func slot(forOffset offset: Int, visible: Bool) -> Int {
    if isLeaf {
      return leafPrefix.withUnsafeBufferPointer { prefix in
        var low = 0
        var high = prefix.count - 1
        while low < high {
          let mid = (low + high) >> 1
          if Int(visible ? prefix[mid].w2 : prefix[mid].w1) > offset { high = mid } else { low = mid + 1 }
        }
        return low
      }
    }
    return prefix.withUnsafeBufferPointer { prefix in
      var low = 0
      var high = prefix.count - 1
      while low < high {
        let mid = (low + high) >> 1
        if (visible ? prefix[mid].w2 : prefix[mid].w1) > offset { high = mid } else { low = mid + 1 }
      }
      return low
    }
  }

  /// Splits off the upper half of an overfull node and returns it.
  @inlinable
  func splitOffUpperHalf() -> _OrderedTreeNode<ID> {
    if isLeaf {
      let middle = ids.count / 2
      let weights = leafWeightList
      let upper = _OrderedTreeNode(copying: self)
      upper.labels = Array(labels[middle...])
      upper.ids = Array(ids[middle...])
      upper.setLeafWeights(Array(weights[middle...]))
      labels.removeSubrange(middle...)
      ids.removeSubrange(middle...)
      setLeafWeights(Array(weights[..<middle]))
      return upper
    }
    let middle = children.count / 2
    let upper = _OrderedTreeNode(children: Array(children[middle...]))
    children.removeSubrange(middle...)
    labels.removeSubrange(middle...)
    prefix.removeSubrange(middle...)
    return upper
  }
}
