/// A persistent B+tree holding one sequence of siblings (a section's root items, an item's
/// children, or the list's sections), ordered by a `UInt64` order label and augmented with
/// counts and two weight sums per node.
///
/// It answers, in O(log n): the index and prefix weights of an element given its label
/// (``rank(ofLabel:)``), the element at an index, the element covering a weight offset, and it
/// inserts, removes and re-weighs elements. Labels are handed out by
/// ``insert(contentsOf:at:relabeled:)`` (see `_OrderedTree+Labels.swift`).
///
/// The struct is a single optional reference (8 bytes), so an item without children pays
/// nothing for its empty sequence. Copies share nodes; mutation copies the root-to-leaf path of
/// shared nodes and mutates unique ones in place.
///
/// ```swift
/// var tree = _OrderedTree<String>()
/// var relabeled: [(String, UInt64)] = []
/// tree.insert(contentsOf: [.init(id: "a", w1: 1, w2: 1)], at: 0, relabeled: &relabeled)
/// tree.count   // 1
/// ```
@usableFromInline
struct _OrderedTree<ID: Hashable & Sendable>: Sendable {
  @usableFromInline
  typealias Node = _OrderedTreeNode<ID>
  @usableFromInline
  typealias Entry = _OrderedEntry<ID>

  @inlinable
  static var leafCapacity: Int { 64 }
  @inlinable
  static var internalCapacity: Int { 64 }
  /// A node below this many slots is merged with, or rebalanced against, a neighbour.
  @inlinable
  static var minimumFill: Int { 16 }

  @usableFromInline
  var root: Node?

  @inlinable
  init() { root = nil }

  @inlinable
  var isEmpty: Bool { root == nil }
  @inlinable
  var count: Int { root?.count ?? 0 }
  /// Sum of `w1` over all entries.
  @inlinable
  var w1: Int { root?.totals.w1 ?? 0 }
  /// Sum of `w2` over all entries.
  @inlinable
  var w2: Int { root?.totals.w2 ?? 0 }

  /// True when both trees share the same root node (so they are equal).
  @inlinable
  func isIdentical(to other: _OrderedTree) -> Bool { root === other.root }
}

// MARK: - Queries

extension _OrderedTree {
  /// The index of the entry with exactly `label`, and the sums of `w1`/`w2` over the entries
  /// before it; nil when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func rank(ofLabel label: UInt64) -> (index: Int, w1: Int, w2: Int)? {
    guard var node = root else { return nil }
    var index = 0
    var w1 = 0
    var w2 = 0
    while !node.isLeaf {
      let child = node.childIndex(forLabel: label)
      if child > 0 {
        let before = node.prefix[child - 1]
        index &+= before.count
        w1 &+= before.w1
        w2 &+= before.w2
      }
      node = node.children[child]
    }
    let position = node.labelLowerBound(label)
    guard position < node.labels.count, node.labels[position] == label else { return nil }
    let before = node.totalsBefore(position)
    return (index &+ position, w1 &+ before.w1, w2 &+ before.w2)
  }

  /// The number of entries whose label is smaller than `label`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func lowerBound(ofLabel label: UInt64) -> Int {
    guard var node = root else { return 0 }
    var index = 0
    while !node.isLeaf {
      let child = node.childIndex(forLabel: label)
      if child > 0 { index &+= node.prefix[child - 1].count }
      node = node.children[child]
    }
    return index + node.labelLowerBound(label)
  }

  /// The entry at `index` (`0..<count`).
  ///
  /// - Complexity: O(log n).
  @inlinable
  func entry(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "_OrderedTree index out of range")
    var node = root!
    var remaining = index
    while !node.isLeaf {
      let child = node.childIndex(forIndex: remaining)
      if child > 0 { remaining -= node.prefix[child - 1].count }
      node = node.children[child]
    }
    return node.entry(at: remaining)
  }

  /// The entry covering `offset` of the running `w1` sum (`0..<w1`): the entry `e` with
  /// `prefix <= offset < prefix + e.w1`, its index, and `offset - prefix`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func entry(atW1Offset offset: Int) -> (index: Int, entry: Entry, remainder: Int) {
    entry(atOffset: offset, visible: false)
  }

  /// Like ``entry(atW1Offset:)`` for the visible-row weight `w2`.
  @inlinable
  func entry(atW2Offset offset: Int) -> (index: Int, entry: Entry, remainder: Int) {
    entry(atOffset: offset, visible: true)
  }

  @inlinable
  func entry(atOffset offset: Int, visible: Bool) -> (index: Int, entry: Entry, remainder: Int) {
    var node = root!
    var remaining = offset
    var index = 0
    while !node.isLeaf {
      let child = node.slot(forOffset: remaining, visible: visible)
      if child > 0 {
        let before = node.prefix[child - 1]
        remaining -= visible ? before.w2 : before.w1
        index += before.count
      }
      node = node.children[child]
    }
    let position = node.slot(forOffset: remaining, visible: visible)
    let before = node.totalsBefore(position)
    remaining -= visible ? before.w2 : before.w1
    return (index + position, node.entry(at: position), remaining)
  }

  /// The label of the entry at `index`, or nil when `index` is outside `0..<count`.
  @inlinable
  func label(at index: Int) -> UInt64? {
    guard index >= 0, index < count else { return nil }
    return entry(at: index).label
  }

  /// Calls `body` with every entry in order.
  ///
  /// - Complexity: O(n).
  @inlinable
  func forEach(_ body: (Entry) throws -> Void) rethrows {
    guard let root else { return }
    try Self.forEach(root, body)
  }

  @inlinable
  static func forEach(_ node: Node, _ body: (Entry) throws -> Void) rethrows {
    if node.isLeaf {
      for i in 0..<node.ids.count { try body(node.entry(at: i)) }
    } else {
      for child in node.children { try forEach(child, body) }
    }
  }

  /// All entries in order.
  @inlinable
  var entries: [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(count)
    forEach { result.append($0) }
    return result
  }

  /// All identifiers in order.
  @inlinable
  var ids: [ID] {
    var result: [ID] = []
    result.reserveCapacity(count)
    guard let root else { return result }
    Self.collectIDs(root, into: &result)
    return result
  }

  @inlinable
  static func collectIDs(_ node: Node, into result: inout [ID]) {
    if node.isLeaf {
      result.append(contentsOf: node.ids)
    } else {
      for child in node.children { collectIDs(child, into: &result) }
    }
  }
}

// MARK: - Mutations

extension _OrderedTree {
  /// Builds a tree from entries already sorted by strictly increasing label, bottom-up.
  ///
  /// - Complexity: O(n).
  @inlinable
  init(sortedEntries: [Entry]) {
    self.root = Self.build(sortedEntries)
  }

  @inlinable
  static func build(_ sorted: [Entry]) -> Node? {
    guard !sorted.isEmpty else { return nil }
    var level: [Node] = []
    let leafCount = (sorted.count + leafCapacity - 1) / leafCapacity
    level.reserveCapacity(leafCount)
    // Balanced chunks: every leaf gets floor or ceil of count / leafCount entries.
    var start = 0
    for i in 0..<leafCount {
      let end = sorted.count * (i + 1) / leafCount
      level.append(Node(entries: sorted[start..<end]))
      start = end
    }
    while level.count > 1 {
      let groupCount = (level.count + internalCapacity - 1) / internalCapacity
      var next: [Node] = []
      next.reserveCapacity(groupCount)
      var start = 0
      for i in 0..<groupCount {
        let end = level.count * (i + 1) / groupCount
        next.append(Node(children: Array(level[start..<end])))
        start = end
      }
      level = next
    }
    return level[0]
  }

  /// Inserts `entry` at the place its label dictates. The label must not be present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ entry: Entry) {
    guard root != nil else {
      root = Node(entries: CollectionOfOne(entry))
      return
    }
    if let upper = Self.insert(entry, into: &root!) {
      root = Node(children: [root!, upper])
    }
  }

  /// Returns the split-off upper half when the node overflowed.
  @inlinable
  static func insert(_ entry: Entry, into node: inout Node) -> Node? {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      let position = node.labelLowerBound(entry.label)
      assert(position == node.labels.count || node.labels[position] != entry.label, "duplicate label")
      let before = position > 0 ? node.leafPrefix[position - 1] : _LeafWeights(w1: 0, w2: 0)
      node.labels.insert(entry.label, at: position)
      node.ids.insert(entry.id, at: position)
      node.leafPrefix.insert(_LeafWeights(w1: before.w1 &+ entry._w1, w2: before.w2 &+ entry._w2), at: position)
      node.addToLeafPrefix(from: position + 1, w1: entry.w1, w2: entry.w2)
      return node.ids.count > leafCapacity ? node.splitOffUpperHalf() : nil
    }
    let child = node.childIndex(forLabel: entry.label)
    let upper = insert(entry, into: &node.children[child])
    node.labels[child] = node.children[child].minLabel
    node.addToPrefix(from: child, count: 1, w1: entry.w1, w2: entry.w2)
    if let upper {
      // prefix[child] now covers the lower half and the upper half together.
      node.children.insert(upper, at: child + 1)
      node.labels.insert(upper.minLabel, at: child + 1)
      node.prefix.insert(node.prefix[child], at: child + 1)
      let base = child > 0 ? node.prefix[child - 1] : .zero
      let lower = node.children[child].totals
      node.prefix[child] = _OrderedWeights(count: base.count + lower.count, w1: base.w1 + lower.w1, w2: base.w2 + lower.w2)
      if node.children.count > internalCapacity { return node.splitOffUpperHalf() }
    }
    return nil
  }

  /// Appends entries whose labels are all larger than every label in the tree, in order.
  ///
  /// - Complexity: O(n + k) when the tree is empty (bottom-up build), else O(k log n).
  @inlinable
  mutating func append(sortedEntries: [Entry]) {
    if root == nil {
      root = Self.build(sortedEntries)
    } else {
      for entry in sortedEntries { insert(entry) }
    }
  }

  /// Removes and returns the entry with `label`; nil (and no change) when absent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(label: UInt64) -> Entry? {
    guard root != nil, rank(ofLabel: label) != nil else { return nil }
    let removed = Self.remove(label: label, from: &root!)
    if root!.slotCount == 0 {
      root = nil
    } else if !root!.isLeaf, root!.children.count == 1 {
      root = root!.children[0]
    }
    return removed
  }

  @inlinable
  static func remove(label: UInt64, from node: inout Node) -> Entry {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      let position = node.labelLowerBound(label)
      let removed = node.entry(at: position)
      node.labels.remove(at: position)
      node.ids.remove(at: position)
      node.leafPrefix.remove(at: position)
      node.addToLeafPrefix(from: position, w1: -removed.w1, w2: -removed.w2)
      return removed
    }
    let child = node.childIndex(forLabel: label)
    let removed = remove(label: label, from: &node.children[child])
    if node.children[child].slotCount == 0 {
      node.children.remove(at: child)
      node.labels.remove(at: child)
      node.prefix.remove(at: child)
      node.addToPrefix(from: child, count: -1, w1: -removed.w1, w2: -removed.w2)
    } else {
      node.labels[child] = node.children[child].minLabel
      node.addToPrefix(from: child, count: -1, w1: -removed.w1, w2: -removed.w2)
      if node.children[child].slotCount < minimumFill, node.children.count > 1 {
        rebalance(node, around: child)
      }
    }
    return removed
  }

  /// Merges the underfull child at `index` with a neighbour, or spreads their slots evenly when
  /// together they do not fit one node.
  @inlinable
  static func rebalance(_ parent: Node, around index: Int) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    if !isKnownUniquelyReferenced(&parent.children[left]) { parent.children[left] = Node(copying: parent.children[left]) }
    if !isKnownUniquelyReferenced(&parent.children[right]) {
      parent.children[right] = Node(copying: parent.children[right])
    }
    let a = parent.children[left]
    let b = parent.children[right]
    let capacity = a.isLeaf ? leafCapacity : internalCapacity
    let total = a.slotCount + b.slotCount
    let split = total <= capacity ? total : total / 2
    if a.isLeaf {
      let labels = a.labels + b.labels
      let ids = a.ids + b.ids
      let weights = a.leafWeightList + b.leafWeightList
      a.labels = Array(labels[..<split])
      a.ids = Array(ids[..<split])
      a.setLeafWeights(Array(weights[..<split]))
      b.labels = Array(labels[split...])
      b.ids = Array(ids[split...])
      b.setLeafWeights(Array(weights[split...]))
    } else {
      let children = a.children + b.children
      a.children = Array(children[..<split])
      a.labels = a.children.map(\.minLabel)
      a.recomputePrefix()
      b.children = Array(children[split...])
      b.labels = b.children.map(\.minLabel)
      b.recomputePrefix()
    }
    if split == total {
      // Merged into `a`: the running total of `right` already covers both.
      parent.children.remove(at: right)
      parent.labels.remove(at: right)
      parent.prefix.remove(at: left)
    } else {
      parent.labels[right] = b.minLabel
      let base = left > 0 ? parent.prefix[left - 1] : .zero
      let totals = a.totals
      parent.prefix[left] = _OrderedWeights(count: base.count + totals.count, w1: base.w1 + totals.w1, w2: base.w2 + totals.w2)
    }
    parent.labels[left] = a.minLabel
  }

  /// Changes the weights of the entry with `label` in place (the label must stay the same).
  /// Returns false (and changes nothing observable) when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func adjustWeights(label: UInt64, w1 dw1: Int, w2 dw2: Int) -> Bool {
    guard root != nil else { return false }
    return Self.adjust(label: label, dw1, dw2, in: &root!)
  }

  @inlinable
  static func adjust(label: UInt64, _ dw1: Int, _ dw2: Int, in node: inout Node) -> Bool {
    if node.isLeaf {
      let position = node.labelLowerBound(label)
      guard position < node.labels.count, node.labels[position] == label else { return false }
      if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
      node.addToLeafPrefix(from: position, w1: dw1, w2: dw2)
      return true
    }
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    let child = node.childIndex(forLabel: label)
    guard adjust(label: label, dw1, dw2, in: &node.children[child]) else { return false }
    node.addToPrefix(from: child, count: 0, w1: dw1, w2: dw2)
    return true
  }

  /// Replaces the identifier of the entry with `label` (weights and label unchanged).
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func replaceID(label: UInt64, with id: ID) {
    guard root != nil else { return }
    Self.replaceID(label: label, id, in: &root!)
  }

  @inlinable
  static func replaceID(label: UInt64, _ id: ID, in node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      let position = node.labelLowerBound(label)
      precondition(position < node.labels.count && node.labels[position] == label, "unknown label")
      node.ids[position] = id
    } else {
      replaceID(label: label, id, in: &node.children[node.childIndex(forLabel: label)])
    }
  }

  /// Gives the entries at `range` new labels: `newLabel(i)` for the entry at index `i`, which must
  /// stay strictly increasing and between the labels outside the range. Calls `visit` with each
  /// relabeled identifier and its new label.
  ///
  /// - Complexity: O(k + log n) for k relabeled entries.
  @inlinable
  mutating func relabel(_ range: Range<Int>, _ newLabel: (Int) -> UInt64, visit: (ID, UInt64) -> Void) {
    guard root != nil, !range.isEmpty else { return }
    Self.relabel(&root!, range, base: 0, newLabel, visit)
  }

  @inlinable
  static func relabel(
    _ node: inout Node, _ range: Range<Int>, base: Int, _ newLabel: (Int) -> UInt64, _ visit: (ID, UInt64) -> Void
  ) {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      let lower = max(range.lowerBound - base, 0)
      let upper = min(range.upperBound - base, node.ids.count)
      for i in lower..<upper {
        let label = newLabel(base + i)
        node.labels[i] = label
        visit(node.ids[i], label)
      }
      return
    }
    var start = base
    for child in 0..<node.children.count {
      let end = base + node.prefix[child].count
      if end > range.lowerBound, start < range.upperBound {
        relabel(&node.children[child], range, base: start, newLabel, visit)
        node.labels[child] = node.children[child].minLabel
      }
      if end >= range.upperBound { break }
      start = end
    }
  }
}
