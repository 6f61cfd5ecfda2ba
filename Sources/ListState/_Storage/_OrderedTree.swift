/// A persistent B+tree holding one sequence of siblings (a section's root items, an item's
/// children, or the list's sections), ordered by a `UInt64` order label and augmented with
/// counts and two weight sums per node.
///
/// It answers, in O(log n): the index and prefix weights of an element given its label
/// (``rank(ofLabel:)``), the element at an index, the element covering a weight offset, and it
/// inserts, removes and re-weighs elements. Labels are handed out by
/// ``insert(_:w1:w2:at:relabeled:)`` and ``insert(contentsOf:at:relabeled:)`` (see
/// `_OrderedTree+Labels.swift`).
///
/// The struct is a single optional reference (8 bytes), so an item without children pays
/// nothing for its empty sequence. Copies share nodes; mutation copies the root-to-leaf path of
/// shared nodes and mutates unique ones in place. Leaves start small and grow (most items have
/// few children); a full leaf of ``leafCapacity`` splits.
///
/// ```swift
/// var tree = _OrderedTree<String>()
/// var relabeled: [(String, UInt64)] = []
/// tree.insert("a", w1: 1, w2: 1, at: 0, relabeled: &relabeled)
/// tree.count   // 1
/// ```
@usableFromInline
struct _OrderedTree<ID: Hashable & Sendable>: @unchecked Sendable {
  @usableFromInline
  typealias Node = _OrderedNode<ID>
  @usableFromInline
  typealias Entry = _OrderedEntry<ID>

  /// Elements per leaf at most (16-byte slots plus the identifiers). An insertion or removal
  /// shifts the slots after it and updates their running totals: bigger leaves make that the
  /// largest cost of an edit (in cache lines), smaller ones add a level.
  @inlinable
  static var leafCapacity: Int { 32 }
  /// Children per internal node at most. Smaller than a leaf: copying an internal node retains
  /// every child, and that is most of what a path copy costs.
  @inlinable
  static var internalCapacity: Int { 16 }

  /// A node below this many slots is merged with, or rebalanced against, a neighbour.
  @inlinable
  static func minimumFill(isLeaf: Bool) -> Int { (isLeaf ? leafCapacity : internalCapacity) / 4 }

  @usableFromInline
  var root: Node?

  @inlinable
  init() { root = nil }

  @inlinable
  var isEmpty: Bool { root == nil }
  @inlinable
  var count: Int { root?.elementCount ?? 0 }
  /// Sum of `w1` over all entries.
  @inlinable
  var w1: Int { root?.totals.w1 ?? 0 }
  /// Sum of `w2` over all entries.
  @inlinable
  var w2: Int { root?.totals.w2 ?? 0 }

  /// True when both trees share the same root node (so they are equal).
  @inlinable
  func isIdentical(to other: _OrderedTree) -> Bool { root === other.root }

  /// Makes `node` uniquely referenced (copying it when shared).
  @inlinable
  @inline(__always)
  static func makeUnique(_ node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = node.copy(capacity: node.slotCapacity) }
  }

  /// The upper end of a node's label range for an interpolated search: the caller's bound, or
  /// the node's last label when the caller does not know one (the rightmost path).
  @inlinable
  @inline(__always)
  static func resolvedHigh(_ node: Node, _ high: UInt64?) -> UInt64 {
    high ?? node.label(at: node.count - 1)
  }
}

// MARK: - Queries

extension _OrderedTree {
  /// Descends from the root without retaining nodes or reading their headers (the parent's
  /// slot holds each child's slot count): `step` gets each internal node with its slot count
  /// and returns the child to take; the leaf and its element count are returned.
  @inlinable
  @inline(__always)
  func descend(_ step: (Node, Int) -> Int) -> (leaf: Unmanaged<Node>, count: Int) {
    let root = self.root!
    // Unretained: `self` keeps every node alive (see `_OrderedNode.unretainedChild(_:)`).
    var current = Unmanaged.passUnretained(root)
    var count = root.count
    var height = root.height
    while height > 0 {
      current = current._withUnsafeGuaranteedRef { node in
        let child = step(node, count)
        count = Int(node.branchSlots[child].slots)
        return node.unretainedChild(child)
      }
      height &-= 1
    }
    return (current, count)
  }

  /// The upper end of the label range for an interpolated search of a node: the caller's
  /// bound, or the node's last label when the caller does not know one (the rightmost path).
  @inlinable
  @inline(__always)
  static func resolvedHigh(_ node: Node, _ high: UInt64?, count n: Int, isLeaf: Bool) -> UInt64 {
    high ?? (isLeaf ? node.leafSlots[n - 1].label : node.branchSlots[n - 1].label)
  }

  /// The index of the entry with exactly `label`, and the sums of `w1`/`w2` over the entries
  /// before it; nil when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func rank(ofLabel label: UInt64) -> (index: Int, w1: Int, w2: Int)? {
    guard let root else { return nil }
    var index = 0
    var w1 = 0
    var w2 = 0
    var low = root.minLabel
    var high: UInt64? = nil
    let (leaf, count) = descend { node, n in
      let child = node.branchChildIndex(
        forLabel: label, low: low, high: Self.resolvedHigh(node, high, count: n, isLeaf: false), count: n)
      if child > 0 {
        let before = node.branchSlots[child - 1]
        index &+= Int(before.count)
        w1 &+= Int(before.w1)
        w2 &+= Int(before.w2)
      }
      low = node.branchSlots[child].label
      if child + 1 < n { high = node.branchSlots[child + 1].label &- 1 }
      return child
    }
    return leaf._withUnsafeGuaranteedRef { node in
      let position = node.leafLowerBound(
        label, low: low, high: Self.resolvedHigh(node, high, count: count, isLeaf: true), count: count)
      guard position < count, node.leafSlots[position].label == label else { return nil }
      guard position > 0 else { return (index, w1, w2) }
      let before = node.leafSlots[position - 1]
      return (index &+ position, w1 &+ Int(before.w1), w2 &+ Int(before.w2))
    }
  }

  /// The number of entries whose label is smaller than `label`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func lowerBound(ofLabel label: UInt64) -> Int {
    guard let root else { return 0 }
    var index = 0
    var low = root.minLabel
    var high: UInt64? = nil
    let (leaf, count) = descend { node, n in
      let child = node.branchChildIndex(
        forLabel: label, low: low, high: Self.resolvedHigh(node, high, count: n, isLeaf: false), count: n)
      if child > 0 { index &+= Int(node.branchSlots[child - 1].count) }
      low = node.branchSlots[child].label
      if child + 1 < n { high = node.branchSlots[child + 1].label &- 1 }
      return child
    }
    return index
      + leaf._withUnsafeGuaranteedRef {
        $0.leafLowerBound(label, low: low, high: Self.resolvedHigh($0, high, count: count, isLeaf: true), count: count)
      }
  }

  /// The entry at `index` (`0..<count`).
  ///
  /// - Complexity: O(log n).
  @inlinable
  func entry(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "_OrderedTree index out of range")
    let (leaf, position) = leaf(containing: index)
    return leaf._withUnsafeGuaranteedRef { $0.entry(at: position) }
  }

  /// The labels of the entries at `index - 1` and `index` (nil outside `0..<count`), in one
  /// descent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func neighbourLabels(at index: Int) -> (before: UInt64?, after: UInt64?) {
    guard let root else { return (nil, nil) }
    let n = count
    if index <= 0 { return (nil, root.minLabelOfSubtree) }
    // Descend to the entry at `index - 1`; the next label is in the same leaf, or is the
    // smallest label of the next subtree at the deepest level where one exists.
    var remaining = index - 1
    var next: UInt64? = nil
    let (leaf, count) = descend { node, slots in
      let child = node.childIndex(forIndex: remaining, count: slots)
      if child > 0 { remaining -= Int(node.branchSlots[child - 1].count) }
      if child + 1 < slots { next = node.branchSlots[child + 1].label }
      return child
    }
    return leaf._withUnsafeGuaranteedRef { node in
      let before = node.leafSlots[remaining].label
      let after = remaining + 1 < count ? node.leafSlots[remaining + 1].label : next
      return (before, index < n ? after : nil)
    }
  }

  /// The leaf holding the entry at `index` (`0..<count`) and its position there, unretained
  /// (valid while this tree is).
  @inlinable
  func leaf(containing index: Int) -> (leaf: Unmanaged<Node>, position: Int) {
    var remaining = index
    let (leaf, _) = descend { node, slots in
      let child = node.childIndex(forIndex: remaining, count: slots)
      if child > 0 { remaining -= Int(node.branchSlots[child - 1].count) }
      return child
    }
    return (leaf, remaining)
  }

  @inlinable
  func entryLabel(_ index: Int) -> UInt64 {
    let (leaf, position) = leaf(containing: index)
    return leaf._withUnsafeGuaranteedRef { $0.leafSlots[position].label }
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
    var remaining = offset
    var index = 0
    let (leaf, count) = descend { node, slots in
      let child = node.slot(forOffset: remaining, visible: visible, count: slots, isLeaf: false)
      if child > 0 {
        let before = node.branchSlots[child - 1]
        remaining -= Int(visible ? before.w2 : before.w1)
        index += Int(before.count)
      }
      return child
    }
    return leaf._withUnsafeGuaranteedRef { node in
      let position = node.slot(forOffset: remaining, visible: visible, count: count, isLeaf: true)
      if position > 0 {
        let before = node.leafSlots[position - 1]
        remaining -= Int(visible ? before.w2 : before.w1)
      }
      return (index + position, node.entry(at: position), remaining)
    }
  }

  /// The label of the entry at `index`, or nil when `index` is outside `0..<count`.
  @inlinable
  func label(at index: Int) -> UInt64? {
    guard index >= 0, index < count else { return nil }
    return entryLabel(index)
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
      for i in 0..<node.count { try body(node.entry(at: i)) }
    } else {
      for i in 0..<node.count { try forEach(node.children[i], body) }
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
      result.append(contentsOf: UnsafeBufferPointer(start: node.ids, count: node.count))
    } else {
      for i in 0..<node.count { collectIDs(node.children[i], into: &result) }
    }
  }
}

// MARK: - Building and inserting

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
    // Balanced chunks: every leaf gets floor or ceil of count / leafCount entries, in a leaf
    // of exactly that size (a small sibling sequence stays small).
    var start = 0
    for i in 0..<leafCount {
      let end = sorted.count * (i + 1) / leafCount
      let leaf = Node.make(height: 0, capacity: end - start)
      for entry in sorted[start..<end] { leaf.leafAppend(label: entry.label, id: entry.id, w1: entry._w1, w2: entry._w2) }
      level.append(leaf)
      start = end
    }
    return Node.stackLevels(level, capacity: internalCapacity)
  }


  /// Inserts `entry` at the place its label dictates. The label must not be present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ entry: Entry) {
    guard root != nil else {
      let leaf = Node.make(height: 0, capacity: 2)
      leaf.leafAppend(label: entry.label, id: entry.id, w1: entry._w1, w2: entry._w2)
      root = leaf
      return
    }
    if let upper = Self.insert(entry, into: &root!, low: root!.minLabel, high: nil) { growRoot(upper) }
  }

  /// Puts the old root and the split-off `upper` half under a new root.
  @inlinable
  mutating func growRoot(_ upper: Node) {
    let node = Node.make(height: root!.height + 1, capacity: Self.internalCapacity)
    node.branchAppend(root!)
    node.branchAppend(upper)
    root = node
  }

  /// Returns the split-off upper part when the node overflowed.
  @inlinable
  static func insert(_ entry: Entry, into node: inout Node, low: UInt64, high: UInt64?) -> Node? {
    makeUnique(&node)
    if node.isLeaf {
      let position = node.lowerBound(entry.label, low: low, high: resolvedHigh(node, high))
      assert(position == node.count || node.label(at: position) != entry.label, "duplicate label")
      return leafInsert(entry.label, entry.id, entry._w1, entry._w2, at: position, into: &node)
    }
    let child = node.childIndex(forLabel: entry.label, low: low, high: resolvedHigh(node, high))
    let childLow = node.branchSlots[child].label
    let childHigh: UInt64? = child + 1 < node.count ? node.branchSlots[child + 1].label &- 1 : high
    let split = insert(entry, into: &node.children[child], low: childLow, high: childHigh)
    node.branchAdd(from: child, count: 1, w1: entry._w1, w2: entry._w2)
    node.refreshSlot(child)
    guard let split else { return nil }
    return insertSplit(split, after: child, into: node)
  }

  /// Inserts an element at `position` of a uniquely referenced leaf, growing or splitting it
  /// when full; returns the split-off upper half.
  @inlinable
  static func leafInsert(
    _ label: UInt64, _ id: ID, _ w1: UInt32, _ w2: UInt32, at position: Int, into node: inout Node
  ) -> Node? {
    guard node.count == node.slotCapacity else {
      node.leafInsert(at: position, label: label, id: id, w1: w1, w2: w2)
      return nil
    }
    if node.slotCapacity < leafCapacity {
      node = node.moved(capacity: Swift.min(node.slotCapacity * 2, leafCapacity))
      node.leafInsert(at: position, label: label, id: id, w1: w1, w2: w2)
      return nil
    }
    let upper = node.splitOffUpperHalf(capacity: leafCapacity)
    if position > node.count {
      upper.leafInsert(at: position - node.count, label: label, id: id, w1: w1, w2: w2)
    } else {
      node.leafInsert(at: position, label: label, id: id, w1: w1, w2: w2)
    }
    return upper
  }

  /// Inserts a new element right after the one at `after` in this subtree (at the front when
  /// `after` is -1), labelled between its neighbours: one descent by index, which also finds
  /// both neighbours' labels. `next` is the smallest label after this subtree, if known.
  ///
  /// - Returns: The new label (nil when the neighbours leave no room: nothing was inserted)
  ///   and the split-off upper part when the node overflowed.
  @inlinable
  static func insert(
    _ id: ID, _ w1: UInt32, _ w2: UInt32, after: Int, into node: inout Node, next: UInt64?
  ) -> (label: UInt64?, split: Node?) {
    makeUnique(&node)
    if node.isLeaf {
      let n = node.count
      let lower: UInt64? = after >= 0 ? node.label(at: after) : nil
      let upper: UInt64? = after + 1 < n ? node.label(at: after + 1) : next
      guard let label = Self.label(between: lower, and: upper) else { return (nil, nil) }
      return (label, leafInsert(label, id, w1, w2, at: after + 1, into: &node))
    }
    var child = 0
    var remaining = after
    if after >= 0 {
      child = node.childIndex(forIndex: after)
      if child > 0 { remaining -= Int(node.branchSlots[child - 1].count) }
    }
    let childNext = child + 1 < node.count ? node.branchSlots[child + 1].label : next
    let (label, split) = insert(id, w1, w2, after: remaining, into: &node.children[child], next: childNext)
    guard label != nil else { return (nil, nil) }
    node.branchAdd(from: child, count: 1, w1: w1, w2: w2)
    node.refreshSlot(child)
    guard let split else { return (label, nil) }
    return (label, insertSplit(split, after: child, into: node))
  }

  /// Places `split`, the upper part of child `child`, after it; splits `node` when full and
  /// returns its upper half.
  @inlinable
  static func insertSplit(_ split: Node, after child: Int, into node: Node) -> Node? {
    guard node.count == node.slotCapacity else {
      node.branchInsertSplit(at: child, upper: split)
      return nil
    }
    let upper = node.splitOffUpperHalf(capacity: internalCapacity)
    if child < node.count {
      node.branchInsertSplit(at: child, upper: split)
    } else {
      upper.branchInsertSplit(at: child - node.count, upper: split)
    }
    return upper
  }

  /// Inserts one entry at `index`, giving it a label between its neighbours (relabelling a
  /// window of siblings when they have no room, reported in `relabeled`).
  ///
  /// - Returns: The new entry's label.
  /// - Complexity: O(log n), plus amortised O(log n) relabels.
  @discardableResult
  @inlinable
  mutating func insert(_ id: ID, w1: Int, w2: Int, at index: Int, relabeled: inout [(ID, UInt64)]) -> UInt64 {
    precondition(index >= 0 && index <= count, "_OrderedTree insertion index out of range")
    let w1 = UInt32(truncatingIfNeeded: w1)
    let w2 = UInt32(truncatingIfNeeded: w2)
    guard root != nil else {
      insert(Entry(label: Self.centreLabel, id: id, w1: Int(w1), w2: Int(w2)))
      return Self.centreLabel
    }
    let (label, split) = Self.insert(id, w1, w2, after: index - 1, into: &root!, next: nil)
    if let split { growRoot(split) }
    if let label { return label }
    // No room between the neighbours: relabel a window around them first.
    let made = makeRoom(at: index, count: 1, relabeled: &relabeled)[0]
    insert(Entry(label: made, id: id, w1: Int(w1), w2: Int(w2)))
    return made
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
}

// MARK: - Removing and re-weighing

extension _OrderedTree {
  /// Removes and returns the entry with `label`; nil when absent (nothing observable changes).
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(label: UInt64) -> Entry? {
    guard root != nil else { return nil }
    guard let removed = Self.remove(label: label, from: &root!, low: root!.minLabel, high: nil) else { return nil }
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.count == 1 {
      root = root!.children[0]
    }
    return removed
  }

  @inlinable
  static func remove(label: UInt64, from node: inout Node, low: UInt64, high: UInt64?) -> Entry? {
    makeUnique(&node)
    if node.isLeaf {
      let position = node.lowerBound(label, low: low, high: resolvedHigh(node, high))
      guard position < node.count, node.label(at: position) == label else { return nil }
      return node.leafRemove(at: position)
    }
    let child = node.childIndex(forLabel: label, low: low, high: resolvedHigh(node, high))
    let childLow = node.branchSlots[child].label
    let childHigh: UInt64? = child + 1 < node.count ? node.branchSlots[child + 1].label &- 1 : high
    guard let removed = remove(label: label, from: &node.children[child], low: childLow, high: childHigh) else {
      return nil
    }
    node.branchAdd(from: child, count: 0 &- 1, w1: 0 &- removed._w1, w2: 0 &- removed._w2)
    let remaining = node.children[child].count
    if remaining == 0 {
      _ = node.branchRemove(at: child)
    } else {
      node.refreshSlot(child)
      if remaining < minimumFill(isLeaf: node.children[child].isLeaf), node.count > 1 {
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
    makeUnique(&parent.children[left])
    makeUnique(&parent.children[right])
    let isLeaf = parent.children[left].isLeaf
    let capacity = isLeaf ? leafCapacity : internalCapacity
    let total = parent.children[left].count + parent.children[right].count
    if total <= capacity {
      if parent.children[left].slotCapacity < total {
        parent.children[left] = parent.children[left].moved(capacity: capacity)
      }
      let a = parent.children[left]
      let b = parent.children[right]
      a.transfer(b.count, from: b, at: 0, to: a.count)
      // The running totals of `right` covered both; `left` takes them over.
      let slots = parent.branchSlots
      slots[left].count = slots[right].count
      slots[left].w1 = slots[right].w1
      slots[left].w2 = slots[right].w2
      _ = (parent.children + right).move()
      (parent.children + right).moveInitialize(from: parent.children + right + 1, count: parent.count - right - 1)
      (slots + right).moveInitialize(from: slots + right + 1, count: parent.count - right - 1)
      parent.count -= 1
    } else {
      let target = total / 2
      if parent.children[left].slotCapacity < target {
        parent.children[left] = parent.children[left].moved(capacity: capacity)
      }
      if parent.children[right].slotCapacity < total - target {
        parent.children[right] = parent.children[right].moved(capacity: capacity)
      }
      let a = parent.children[left]
      let b = parent.children[right]
      if a.count > target {
        b.transfer(a.count - target, from: a, at: target, to: 0)
      } else {
        a.transfer(target - a.count, from: b, at: 0, to: a.count)
      }
      let before = parent.totalsBefore(left)
      let totals = a.totals
      parent.branchSlots[left].count = UInt32(truncatingIfNeeded: before.count + totals.count)
      parent.branchSlots[left].w1 = UInt32(truncatingIfNeeded: before.w1 + totals.w1)
      parent.branchSlots[left].w2 = UInt32(truncatingIfNeeded: before.w2 + totals.w2)
      parent.refreshSlot(right)
    }
    parent.refreshSlot(left)
  }

  /// Changes the weights of the entry with `label` in place (the label must stay the same).
  /// Returns false (and changes nothing observable) when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func adjustWeights(label: UInt64, w1 dw1: Int, w2 dw2: Int) -> Bool {
    guard root != nil else { return false }
    return Self.adjust(
      label: label, UInt32(truncatingIfNeeded: dw1), UInt32(truncatingIfNeeded: dw2), in: &root!,
      low: root!.minLabel, high: nil)
  }

  @inlinable
  static func adjust(label: UInt64, _ dw1: UInt32, _ dw2: UInt32, in node: inout Node, low: UInt64, high: UInt64?)
    -> Bool
  {
    makeUnique(&node)
    if node.isLeaf {
      let position = node.lowerBound(label, low: low, high: resolvedHigh(node, high))
      guard position < node.count, node.label(at: position) == label else { return false }
      node.leafAdd(from: position, w1: dw1, w2: dw2)
      return true
    }
    let child = node.childIndex(forLabel: label, low: low, high: resolvedHigh(node, high))
    let childLow = node.branchSlots[child].label
    let childHigh: UInt64? = child + 1 < node.count ? node.branchSlots[child + 1].label &- 1 : high
    guard adjust(label: label, dw1, dw2, in: &node.children[child], low: childLow, high: childHigh) else { return false }
    node.branchAdd(from: child, count: 0, w1: dw1, w2: dw2)
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
    makeUnique(&node)
    let n = node.count
    if node.isLeaf {
      let position = _SortedSearch.lowerBound(node.labels, stride: node.labelStride, count: n, label, guess: n / 2)
      precondition(position < n && node.label(at: position) == label, "unknown label")
      node.ids[position] = id
    } else {
      let child = _SortedSearch.lastNotAbove(node.labels, stride: node.labelStride, count: n, label, guess: n / 2)
      replaceID(label: label, id, in: &node.children[child])
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
    makeUnique(&node)
    if node.isLeaf {
      let lower = max(range.lowerBound - base, 0)
      let upper = min(range.upperBound - base, node.count)
      for i in lower..<upper {
        let label = newLabel(base + i)
        node.leafSlots[i].label = label
        visit(node.ids[i], label)
      }
      return
    }
    var start = base
    for child in 0..<node.count {
      let end = base + Int(node.branchSlots[child].count)
      if end > range.lowerBound, start < range.upperBound {
        relabel(&node.children[child], range, base: start, newLabel, visit)
        node.branchSlots[child].label = node.children[child].minLabel
      }
      if end >= range.upperBound { break }
      start = end
    }
  }
}

// MARK: - Moving slots between siblings

extension _OrderedNode {
  /// Turns running totals into per-slot values.
  @inlinable
  func toDeltas() {
    var j = count - 1
    if isLeaf {
      let slots = leafSlots
      while j > 0 {
        slots[j].w1 &-= slots[j - 1].w1
        slots[j].w2 &-= slots[j - 1].w2
        j -= 1
      }
    } else {
      let slots = branchSlots
      while j > 0 {
        slots[j].count &-= slots[j - 1].count
        slots[j].w1 &-= slots[j - 1].w1
        slots[j].w2 &-= slots[j - 1].w2
        j -= 1
      }
    }
  }

  /// Turns per-slot values into running totals.
  @inlinable
  func toRunning() {
    let n = count
    guard n > 1 else { return }
    if isLeaf {
      let slots = leafSlots
      for j in 1..<n {
        slots[j].w1 &+= slots[j - 1].w1
        slots[j].w2 &+= slots[j - 1].w2
      }
    } else {
      let slots = branchSlots
      for j in 1..<n {
        slots[j].count &+= slots[j - 1].count
        slots[j].w1 &+= slots[j - 1].w1
        slots[j].w2 &+= slots[j - 1].w2
      }
    }
  }

  /// Moves `k` slots of sibling `source` starting at `start` into this node at `position`
  /// (this node must have room); both keep correct running totals.
  @inlinable
  func transfer(_ k: Int, from source: _OrderedNode, at start: Int, to position: Int) {
    guard k > 0 else { return }
    toDeltas()
    source.toDeltas()
    let n = count
    let m = source.count
    if isLeaf {
      (leafSlots + position + k).moveInitialize(from: leafSlots + position, count: n - position)
      (ids + position + k).moveInitialize(from: ids + position, count: n - position)
      (leafSlots + position).moveInitialize(from: source.leafSlots + start, count: k)
      (ids + position).moveInitialize(from: source.ids + start, count: k)
      (source.leafSlots + start).moveInitialize(from: source.leafSlots + start + k, count: m - start - k)
      (source.ids + start).moveInitialize(from: source.ids + start + k, count: m - start - k)
    } else {
      (branchSlots + position + k).moveInitialize(from: branchSlots + position, count: n - position)
      (children + position + k).moveInitialize(from: children + position, count: n - position)
      (branchSlots + position).moveInitialize(from: source.branchSlots + start, count: k)
      (children + position).moveInitialize(from: source.children + start, count: k)
      (source.branchSlots + start).moveInitialize(from: source.branchSlots + start + k, count: m - start - k)
      (source.children + start).moveInitialize(from: source.children + start + k, count: m - start - k)
    }
    count = n + k
    source.count = m - k
    toRunning()
    source.toRunning()
  }
}
