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
struct _OrderedTree<ID: Hashable & Sendable>: Sendable {
  typealias Node = _OrderedTreeNode<ID>
  typealias Entry = _OrderedEntry<ID>

  static var leafCapacity: Int { 64 }
  static var internalCapacity: Int { 64 }
  /// A node below this many slots is merged with, or rebalanced against, a neighbour.
  static var minimumFill: Int { 16 }

  var root: Node?

  init() { root = nil }

  var isEmpty: Bool { root == nil }
  var count: Int { root?.count ?? 0 }
  /// Sum of `w1` over all entries.
  var w1: Int { root?.w1 ?? 0 }
  /// Sum of `w2` over all entries.
  var w2: Int { root?.w2 ?? 0 }

  /// True when both trees share the same root node (so they are equal).
  func isIdentical(to other: _OrderedTree) -> Bool { root === other.root }
}

// MARK: - Queries

extension _OrderedTree {
  /// The index of the entry with exactly `label`, and the sums of `w1`/`w2` over the entries
  /// before it; nil when no entry has that label.
  ///
  /// - Complexity: O(log n).
  func rank(ofLabel label: UInt64) -> (index: Int, w1: Int, w2: Int)? {
    guard var node = root else { return nil }
    var index = 0
    var w1 = 0
    var w2 = 0
    while !node.isLeaf {
      let child = node.childIndex(forLabel: label)
      node.summaries.withUnsafeBufferPointer { summaries in
        for i in 0..<child {
          index &+= summaries[i].count
          w1 &+= summaries[i].w1
          w2 &+= summaries[i].w2
        }
      }
      node = node.children[child]
    }
    let position = node.entryLowerBound(label)
    guard position < node.entries.count, node.entries[position].label == label else { return nil }
    node.entries.withUnsafeBufferPointer { entries in
      for i in 0..<position {
        w1 &+= entries[i].w1
        w2 &+= entries[i].w2
      }
    }
    return (index + position, w1, w2)
  }

  /// The number of entries whose label is smaller than `label`.
  ///
  /// - Complexity: O(log n).
  func lowerBound(ofLabel label: UInt64) -> Int {
    guard var node = root else { return 0 }
    var index = 0
    while !node.isLeaf {
      let child = node.childIndex(forLabel: label)
      for i in 0..<child { index &+= node.summaries[i].count }
      node = node.children[child]
    }
    return index + node.entryLowerBound(label)
  }

  /// The entry at `index` (`0..<count`).
  ///
  /// - Complexity: O(log n).
  func entry(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "_OrderedTree index out of range")
    var node = root!
    var remaining = index
    while !node.isLeaf {
      var child = 0
      while remaining >= node.summaries[child].count {
        remaining -= node.summaries[child].count
        child += 1
      }
      node = node.children[child]
    }
    return node.entries[remaining]
  }

  /// The entry covering `offset` of the running `w1` sum (`0..<w1`): the entry `e` with
  /// `prefix <= offset < prefix + e.w1`, its index, and `offset - prefix`.
  ///
  /// - Complexity: O(log n).
  func entry(atW1Offset offset: Int) -> (index: Int, entry: Entry, remainder: Int) {
    entry(atOffset: offset, weight: \.w1, entryWeight: \.w1)
  }

  /// Like ``entry(atW1Offset:)`` for the visible-row weight `w2`.
  func entry(atW2Offset offset: Int) -> (index: Int, entry: Entry, remainder: Int) {
    entry(atOffset: offset, weight: \.w2, entryWeight: \.w2)
  }

  @inline(__always)
  private func entry(
    atOffset offset: Int, weight: KeyPath<_OrderedSummary, Int>, entryWeight: KeyPath<Entry, Int>
  ) -> (index: Int, entry: Entry, remainder: Int) {
    var node = root!
    var remaining = offset
    var index = 0
    while !node.isLeaf {
      var child = 0
      let last = node.summaries.count - 1
      while child < last, remaining >= node.summaries[child][keyPath: weight] {
        remaining -= node.summaries[child][keyPath: weight]
        index += node.summaries[child].count
        child += 1
      }
      node = node.children[child]
    }
    var position = 0
    let last = node.entries.count - 1
    while position < last, remaining >= node.entries[position][keyPath: entryWeight] {
      remaining -= node.entries[position][keyPath: entryWeight]
      position += 1
    }
    return (index + position, node.entries[position], remaining)
  }

  /// The label of the entry at `index`, or nil when `index` is outside `0..<count`.
  func label(at index: Int) -> UInt64? {
    guard index >= 0, index < count else { return nil }
    return entry(at: index).label
  }

  /// Calls `body` with every entry in order.
  ///
  /// - Complexity: O(n).
  func forEach(_ body: (Entry) throws -> Void) rethrows {
    guard let root else { return }
    try Self.forEach(root, body)
  }

  private static func forEach(_ node: Node, _ body: (Entry) throws -> Void) rethrows {
    if node.isLeaf {
      for entry in node.entries { try body(entry) }
    } else {
      for child in node.children { try forEach(child, body) }
    }
  }

  /// All entries in order.
  var entries: [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(count)
    forEach { result.append($0) }
    return result
  }

  /// All identifiers in order.
  var ids: [ID] {
    var result: [ID] = []
    result.reserveCapacity(count)
    forEach { result.append($0.id) }
    return result
  }
}

// MARK: - Mutations

extension _OrderedTree {
  /// Builds a tree from entries already sorted by strictly increasing label, bottom-up.
  ///
  /// - Complexity: O(n).
  init(sortedEntries: [Entry]) {
    self.root = Self.build(sortedEntries)
  }

  private static func build(_ sorted: [Entry]) -> Node? {
    guard !sorted.isEmpty else { return nil }
    var level: [Node] = []
    let leafCount = (sorted.count + leafCapacity - 1) / leafCapacity
    level.reserveCapacity(leafCount)
    // Balanced chunks: every leaf gets floor or ceil of count / leafCount entries.
    var start = 0
    for i in 0..<leafCount {
      let end = sorted.count * (i + 1) / leafCount
      level.append(Node(entries: Array(sorted[start..<end])))
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
  mutating func insert(_ entry: Entry) {
    guard root != nil else {
      root = Node(entries: [entry])
      return
    }
    if let upper = Self.insert(entry, into: &root!) {
      root = Node(children: [root!, upper])
    }
  }

  /// Returns the split-off upper half when the node overflowed.
  private static func insert(_ entry: Entry, into node: inout Node) -> Node? {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    node.count &+= 1
    node.w1 &+= entry.w1
    node.w2 &+= entry.w2
    if node.isLeaf {
      let position = node.entryLowerBound(entry.label)
      assert(position == node.entries.count || node.entries[position].label != entry.label, "duplicate label")
      node.entries.insert(entry, at: position)
      return node.entries.count > leafCapacity ? node.splitOffUpperHalf() : nil
    }
    let child = node.childIndex(forLabel: entry.label)
    let upper = insert(entry, into: &node.children[child])
    node.summaries[child] = node.children[child].summary
    if let upper {
      node.children.insert(upper, at: child + 1)
      node.summaries.insert(upper.summary, at: child + 1)
      if node.children.count > internalCapacity { return node.splitOffUpperHalf() }
    }
    return nil
  }

  /// Appends entries whose labels are all larger than every label in the tree, in order.
  ///
  /// - Complexity: O(n + k) when the tree is empty (bottom-up build), else O(k log n).
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
  @discardableResult
  mutating func remove(label: UInt64) -> Entry? {
    guard root != nil, rank(ofLabel: label) != nil else { return nil }
    let removed = Self.remove(label: label, from: &root!)
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.children.count == 1 {
      root = root!.children[0]
    }
    return removed
  }

  private static func remove(label: UInt64, from node: inout Node) -> Entry {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    let removed: Entry
    if node.isLeaf {
      let position = node.entryLowerBound(label)
      removed = node.entries.remove(at: position)
    } else {
      let child = node.childIndex(forLabel: label)
      removed = remove(label: label, from: &node.children[child])
      if node.children[child].count == 0 {
        node.children.remove(at: child)
        node.summaries.remove(at: child)
      } else {
        node.summaries[child] = node.children[child].summary
        if node.children[child].slotCount < minimumFill, node.children.count > 1 {
          rebalance(node, around: child)
        }
      }
    }
    node.count &-= 1
    node.w1 &-= removed.w1
    node.w2 &-= removed.w2
    return removed
  }

  /// Merges the underfull child at `index` with a neighbour, or spreads their slots evenly when
  /// together they do not fit one node. Totals of `parent` are unchanged.
  private static func rebalance(_ parent: Node, around index: Int) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    if !isKnownUniquelyReferenced(&parent.children[left]) { parent.children[left] = parent.children[left].copy() }
    if !isKnownUniquelyReferenced(&parent.children[right]) { parent.children[right] = parent.children[right].copy() }
    let a = parent.children[left]
    let b = parent.children[right]
    let capacity = a.isLeaf ? leafCapacity : internalCapacity
    if a.slotCount + b.slotCount <= capacity {
      if a.isLeaf {
        a.entries.append(contentsOf: b.entries)
      } else {
        a.children.append(contentsOf: b.children)
        a.summaries.append(contentsOf: b.summaries)
      }
      a.recomputeTotals()
      parent.children.remove(at: right)
      parent.summaries.remove(at: right)
      parent.summaries[left] = a.summary
    } else {
      let total = a.slotCount + b.slotCount
      let split = total / 2
      if a.isLeaf {
        var all = a.entries
        all.append(contentsOf: b.entries)
        a.entries = Array(all[..<split])
        b.entries = Array(all[split...])
      } else {
        var allChildren = a.children
        allChildren.append(contentsOf: b.children)
        var allSummaries = a.summaries
        allSummaries.append(contentsOf: b.summaries)
        a.children = Array(allChildren[..<split])
        a.summaries = Array(allSummaries[..<split])
        b.children = Array(allChildren[split...])
        b.summaries = Array(allSummaries[split...])
      }
      a.recomputeTotals()
      b.recomputeTotals()
      parent.summaries[left] = a.summary
      parent.summaries[right] = b.summary
    }
  }

  /// Changes the weights of the entry with `label` in place (the label must stay the same).
  /// Returns false (and changes nothing) when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @discardableResult
  mutating func adjustWeights(label: UInt64, w1 dw1: Int, w2 dw2: Int) -> Bool {
    guard root != nil else { return false }
    return Self.adjust(label: label, dw1, dw2, in: &root!)
  }

  private static func adjust(label: UInt64, _ dw1: Int, _ dw2: Int, in node: inout Node) -> Bool {
    if node.isLeaf {
      let position = node.entryLowerBound(label)
      guard position < node.entries.count, node.entries[position].label == label else { return false }
      if !isKnownUniquelyReferenced(&node) { node = node.copy() }
      node.entries[position].w1 &+= dw1
      node.entries[position].w2 &+= dw2
    } else {
      if !isKnownUniquelyReferenced(&node) { node = node.copy() }
      let child = node.childIndex(forLabel: label)
      guard adjust(label: label, dw1, dw2, in: &node.children[child]) else { return false }
      node.summaries[child].w1 &+= dw1
      node.summaries[child].w2 &+= dw2
    }
    node.w1 &+= dw1
    node.w2 &+= dw2
    return true
  }

  /// Replaces the identifier of the entry with `label` (weights and label unchanged).
  ///
  /// - Complexity: O(log n).
  mutating func replaceID(label: UInt64, with id: ID) {
    guard root != nil else { return }
    Self.replaceID(label: label, id, in: &root!)
  }

  private static func replaceID(label: UInt64, _ id: ID, in node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    if node.isLeaf {
      let position = node.entryLowerBound(label)
      precondition(position < node.entries.count && node.entries[position].label == label, "unknown label")
      node.entries[position].id = id
    } else {
      replaceID(label: label, id, in: &node.children[node.childIndex(forLabel: label)])
    }
  }

  /// Gives the entries at `range` new labels: `newLabel(i)` for the entry at index `i`, which must
  /// stay strictly increasing and between the labels outside the range. Calls `visit` with each
  /// relabeled identifier and its new label.
  ///
  /// - Complexity: O(k + log n) for k relabeled entries.
  mutating func relabel(_ range: Range<Int>, _ newLabel: (Int) -> UInt64, visit: (ID, UInt64) -> Void) {
    guard root != nil, !range.isEmpty else { return }
    Self.relabel(&root!, range, base: 0, newLabel, visit)
  }

  private static func relabel(
    _ node: inout Node, _ range: Range<Int>, base: Int, _ newLabel: (Int) -> UInt64, _ visit: (ID, UInt64) -> Void
  ) {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    if node.isLeaf {
      let lower = max(range.lowerBound - base, 0)
      let upper = min(range.upperBound - base, node.entries.count)
      for i in lower..<upper {
        let label = newLabel(base + i)
        node.entries[i].label = label
        visit(node.entries[i].id, label)
      }
      return
    }
    var start = base
    for child in 0..<node.children.count {
      let end = start + node.summaries[child].count
      if end > range.lowerBound, start < range.upperBound {
        relabel(&node.children[child], range, base: start, newLabel, visit)
        node.summaries[child].minLabel = node.children[child].minLabel
      }
      if end >= range.upperBound { break }
      start = end
    }
  }
}
