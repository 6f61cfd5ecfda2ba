/// Totals over a run of elements of an ``_OrderedTree``: the element count and both weight sums.
@usableFromInline
struct _OrderedWeights: Sendable, Equatable {
  @usableFromInline
  var count: Int
  @usableFromInline
  var w1: Int
  @usableFromInline
  var w2: Int

  @inlinable
  init(count: Int, w1: Int, w2: Int) {
    self.count = count
    self.w1 = w1
    self.w2 = w2
  }

  @inlinable
  static var zero: _OrderedWeights { _OrderedWeights(count: 0, w1: 0, w2: 0) }
}

/// One element of a leaf: its label and the running weight totals up to and including it.
///
/// Label and totals share a slot (16 bytes, four to a cache line) so that a rank query, which
/// finds the label and then reads the totals before it, reads one line of a leaf.
@usableFromInline
struct _LeafSlot: Sendable {
  @usableFromInline
  var label: UInt64
  @usableFromInline
  var w1: UInt32
  @usableFromInline
  var w2: UInt32

  @inlinable
  init(label: UInt64, w1: UInt32, w2: UInt32) {
    self.label = label
    self.w1 = w1
    self.w2 = w2
  }
}

/// One child of an internal node: the smallest label below it, the running totals (count and
/// weights) of the children up to and including it, and the child's own slot count.
///
/// With the slot count here, a read-only descent can search a child (from its interpolated
/// slot) without reading the child's header first: one dependent cache miss less per level on
/// a list too large for the cache. (It fills what was the slot's padding.)
@usableFromInline
struct _BranchSlot: Sendable {
  @usableFromInline
  var label: UInt64
  @usableFromInline
  var count: UInt32
  @usableFromInline
  var w1: UInt32
  @usableFromInline
  var w2: UInt32
  @usableFromInline
  var slots: UInt32

  @inlinable
  init(label: UInt64, count: UInt32, w1: UInt32, w2: UInt32, slots: UInt32 = 0) {
    self.label = label
    self.count = count
    self.w1 = w1
    self.w2 = w2
    self.slots = slots
  }
}

/// A node of an ``_OrderedTree`` in one allocation: a header, then the slots (labels with running
/// totals), then the identifiers (leaf) or child references (internal), all inline.
///
/// One allocation per node means a search pays for the node's header line and the slot lines
/// it probes, not for a class instance plus separately allocated arrays (each with its own
/// header) as before. Running totals are `UInt32` (a list holds far fewer than 4 billion
/// items); deltas are added with wrapping arithmetic.
///
/// Nodes are shared between snapshots. A node is mutated in place only while it is uniquely
/// referenced; otherwise the mutating path copies it first (path copying), so a shared node is
/// never changed — which is why ``_OrderedTree``'s `@unchecked Sendable` is sound
/// (`ManagedBuffer` itself is not `Sendable`).
@usableFromInline
final class _OrderedNode<ID: Hashable & Sendable>: ManagedBuffer<_TreeNodeShape, UInt64>, _TreeNode {
  @inlinable
  deinit {
    let count = Int(shape.pointee.count)
    if shape.pointee.height == 0 {
      ids.deinitialize(count: count)
    } else {
      children.deinitialize(count: count)
    }
  }
}

/// The layout accessors of ``_OrderedNode``, in a protocol extension so that they can be
/// `@_transparent` (see ``_TreeNode``).
@usableFromInline
protocol _OrderedNodeLayout: AnyObject {
  associatedtype ID: Hashable & Sendable
}

extension _OrderedNode: _OrderedNodeLayout {}

extension _OrderedNodeLayout {
  /// The node's address (what `ManagedBuffer`'s accessors add their offsets to).
  @_transparent
  @usableFromInline
  var _address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The header (`ManagedBuffer`'s layout: after the object header, a metadata pointer and a
  /// reference count word).
  @_transparent
  @usableFromInline
  var shape: UnsafeMutablePointer<_TreeNodeShape> {
    (_address + MemoryLayout<Int>.size &* 2).assumingMemoryBound(to: _TreeNodeShape.self)
  }

  /// The elements: the header's end, aligned for `UInt64`.
  @_transparent
  @usableFromInline
  var base: UnsafeMutableRawPointer {
    let alignment = MemoryLayout<UInt64>.alignment
    return _address + ((MemoryLayout<Int>.size &* 2 &+ MemoryLayout<_TreeNodeShape>.size &+ alignment &- 1) & (0 &- alignment))
  }

  @_transparent
  @usableFromInline
  var count: Int {
    get { Int(shape.pointee.count) }
    set { shape.pointee.count = Int32(newValue) }
  }

  @_transparent
  @usableFromInline
  var slotCapacity: Int { Int(shape.pointee.capacity) }

  @_transparent
  @usableFromInline
  var height: Int { Int(shape.pointee.height) }

  @_transparent
  @usableFromInline
  var isLeaf: Bool { shape.pointee.height == 0 }

  @_transparent
  @usableFromInline
  static var idsNeedRealignment: Bool { MemoryLayout<ID>.alignment > 8 }

  /// Byte offset of the identifiers in a leaf of `capacity` slots (before run-time alignment).
  @_transparent
  @usableFromInline
  static func idsOffset(capacity: Int) -> Int { capacity &* MemoryLayout<_LeafSlot>.stride }

  @_transparent
  @usableFromInline
  static func childrenOffset(capacity: Int) -> Int { capacity &* MemoryLayout<_BranchSlot>.stride }

  @_transparent
  @usableFromInline
  var leafSlots: UnsafeMutablePointer<_LeafSlot> { base.assumingMemoryBound(to: _LeafSlot.self) }

  @_transparent
  @usableFromInline
  var branchSlots: UnsafeMutablePointer<_BranchSlot> { base.assumingMemoryBound(to: _BranchSlot.self) }

  @_transparent
  @usableFromInline
  var ids: UnsafeMutablePointer<ID> {
    let raw = base + Self.idsOffset(capacity: slotCapacity)
    return (Self.idsNeedRealignment ? raw.alignedUp(for: ID.self) : raw).assumingMemoryBound(to: ID.self)
  }

  @_transparent
  @usableFromInline
  var children: UnsafeMutablePointer<_OrderedNode<ID>> {
    (base + Self.childrenOffset(capacity: slotCapacity)).assumingMemoryBound(to: _OrderedNode<ID>.self)
  }

  /// Child `i` without retaining it, for read-only descents: the parent (kept alive by the
  /// caller) holds it, and retaining would only add two atomic operations per level.
  @_transparent
  @usableFromInline
  func unretainedChild(_ i: Int) -> Unmanaged<_OrderedNode<ID>> {
    UnsafeRawPointer(children + i).load(as: Unmanaged<_OrderedNode<ID>>.self)
  }

  /// Pointer to the first slot's label; consecutive labels are `labelStride` words apart.
  @_transparent
  @usableFromInline
  var labels: UnsafePointer<UInt64> { UnsafePointer(base.assumingMemoryBound(to: UInt64.self)) }

  @_transparent
  @usableFromInline
  var labelStride: Int {
    isLeaf ? MemoryLayout<_LeafSlot>.stride >> 3 : MemoryLayout<_BranchSlot>.stride >> 3
  }

  @_transparent
  @usableFromInline
  func label(at i: Int) -> UInt64 { labels[i &* labelStride] }

  @_transparent
  @usableFromInline
  var minLabel: UInt64 { labels[0] }

  /// The smallest label of the subtree (an internal node's first slot holds it too).
  @_transparent
  @usableFromInline
  var minLabelOfSubtree: UInt64 { labels[0] }
}

// MARK: - Layout

extension _OrderedNode {
  /// A new, empty node.
  @inlinable
  static func make(height: Int, capacity: Int) -> _OrderedNode {
    let isLeaf = height == 0
    let bytes: Int
    if isLeaf {
      bytes = idsOffset(capacity: capacity) + (idsNeedRealignment ? MemoryLayout<ID>.alignment : 0)
        + capacity * MemoryLayout<ID>.stride
    } else {
      bytes = childrenOffset(capacity: capacity) + capacity * MemoryLayout<_OrderedNode>.stride
    }
    let buffer = Self.create(minimumCapacity: (bytes + 7) >> 3) { _ in
      _TreeNodeShape(count: 0, capacity: Int32(capacity), height: Int32(height))
    }
    let node = unsafeDowncast(buffer, to: _OrderedNode.self)
    if isLeaf {
      node.base.bindMemory(to: _LeafSlot.self, capacity: capacity)
      UnsafeMutableRawPointer(node.ids).bindMemory(to: ID.self, capacity: capacity)
    } else {
      node.base.bindMemory(to: _BranchSlot.self, capacity: capacity)
      UnsafeMutableRawPointer(node.children).bindMemory(to: _OrderedNode.self, capacity: capacity)
    }
    return node
  }

  /// The totals of the whole subtree.
  @inlinable
  var totals: _OrderedWeights {
    let n = count
    guard n > 0 else { return .zero }
    if isLeaf {
      let last = leafSlots[n - 1]
      return _OrderedWeights(count: n, w1: Int(last.w1), w2: Int(last.w2))
    }
    let last = branchSlots[n - 1]
    return _OrderedWeights(count: Int(last.count), w1: Int(last.w1), w2: Int(last.w2))
  }

  /// The number of elements in the subtree.
  @inlinable
  var elementCount: Int {
    let n = count
    guard n > 0 else { return 0 }
    return isLeaf ? n : Int(branchSlots[n - 1].count)
  }

  /// The totals before child (internal) or element (leaf) `i`.
  @inlinable
  func totalsBefore(_ i: Int) -> _OrderedWeights {
    guard i > 0 else { return .zero }
    if isLeaf {
      let slot = leafSlots[i - 1]
      return _OrderedWeights(count: i, w1: Int(slot.w1), w2: Int(slot.w2))
    }
    let slot = branchSlots[i - 1]
    return _OrderedWeights(count: Int(slot.count), w1: Int(slot.w1), w2: Int(slot.w2))
  }

  /// The weights of leaf element `i`.
  @inlinable
  func leafWeights(at i: Int) -> (w1: Int, w2: Int) {
    let upper = leafSlots[i]
    guard i > 0 else { return (Int(upper.w1), Int(upper.w2)) }
    let lower = leafSlots[i - 1]
    return (Int(upper.w1 &- lower.w1), Int(upper.w2 &- lower.w2))
  }

  /// Leaf element `i` as an entry.
  @inlinable
  func entry(at i: Int) -> _OrderedEntry<ID> {
    let (w1, w2) = leafWeights(at: i)
    return _OrderedEntry(label: leafSlots[i].label, id: ids[i], w1: w1, w2: w2)
  }
}

// MARK: - Copying and growing

extension _OrderedNode {
  /// A copy holding the same elements (retaining identifiers or children) with room for
  /// `capacity` slots.
  @inlinable
  func copy(capacity newCapacity: Int) -> _OrderedNode {
    let n = count
    let node = Self.make(height: height, capacity: Swift.max(newCapacity, n))
    if isLeaf {
      node.leafSlots.initialize(from: leafSlots, count: n)
      _copyElements(from: ids, to: node.ids, count: n)
    } else {
      node.branchSlots.initialize(from: branchSlots, count: n)
      _copyElements(from: children, to: node.children, count: n)
    }
    node.count = n
    return node
  }

  /// Moves this node's elements into a new node with room for `capacity` slots (this node is
  /// left empty).
  @inlinable
  func moved(capacity newCapacity: Int) -> _OrderedNode {
    let n = count
    let node = Self.make(height: height, capacity: Swift.max(newCapacity, n))
    if isLeaf {
      node.leafSlots.moveInitialize(from: leafSlots, count: n)
      node.ids.moveInitialize(from: ids, count: n)
    } else {
      node.branchSlots.moveInitialize(from: branchSlots, count: n)
      node.children.moveInitialize(from: children, count: n)
    }
    node.count = n
    count = 0
    return node
  }
}

// MARK: - Leaf edits

extension _OrderedNode {
  /// Inserts an element at slot `i` of a leaf with a free slot.
  @inlinable
  func leafInsert(at i: Int, label: UInt64, id: ID, w1: UInt32, w2: UInt32) {
    let n = count
    let slots = leafSlots
    (slots + i + 1).moveInitialize(from: slots + i, count: n - i)
    (ids + i + 1).moveInitialize(from: ids + i, count: n - i)
    let before = i > 0 ? slots[i - 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    (slots + i).initialize(to: _LeafSlot(label: label, w1: before.w1 &+ w1, w2: before.w2 &+ w2))
    (ids + i).initialize(to: id)
    var j = i + 1
    while j <= n {
      slots[j].w1 &+= w1
      slots[j].w2 &+= w2
      j &+= 1
    }
    count = n + 1
  }

  /// Removes leaf element `i` and returns it.
  @inlinable
  func leafRemove(at i: Int) -> _OrderedEntry<ID> {
    let n = count
    let slots = leafSlots
    let (w1, w2) = leafWeights(at: i)
    let label = slots[i].label
    let id = (ids + i).move()
    (ids + i).moveInitialize(from: ids + i + 1, count: n - i - 1)
    (slots + i).moveInitialize(from: slots + i + 1, count: n - i - 1)
    let d1 = UInt32(truncatingIfNeeded: w1)
    let d2 = UInt32(truncatingIfNeeded: w2)
    var j = i
    while j < n - 1 {
      slots[j].w1 &-= d1
      slots[j].w2 &-= d2
      j &+= 1
    }
    count = n - 1
    return _OrderedEntry(label: label, id: id, w1: w1, w2: w2)
  }

  /// Adds weights to the running totals of a leaf from element `i` on.
  @inlinable
  func leafAdd(from i: Int, w1: UInt32, w2: UInt32) {
    let n = count
    let slots = leafSlots
    var j = i
    while j < n {
      slots[j].w1 &+= w1
      slots[j].w2 &+= w2
      j &+= 1
    }
  }

  /// Appends an element to a leaf with a free slot (bulk building).
  @inlinable
  func leafAppend(label: UInt64, id: ID, w1: UInt32, w2: UInt32) {
    let n = count
    let before = n > 0 ? leafSlots[n - 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    (leafSlots + n).initialize(to: _LeafSlot(label: label, w1: before.w1 &+ w1, w2: before.w2 &+ w2))
    (ids + n).initialize(to: id)
    count = n + 1
  }
}

// MARK: - Internal edits

extension _OrderedNode {
  /// Appends a child (bulk building).
  @inlinable
  func branchAppend(_ child: _OrderedNode) {
    let n = count
    let totals = child.totals
    let before = n > 0 ? branchSlots[n - 1] : _BranchSlot(label: 0, count: 0, w1: 0, w2: 0)
    (branchSlots + n).initialize(
      to: _BranchSlot(
        label: child.minLabel, count: before.count &+ UInt32(truncatingIfNeeded: totals.count),
        w1: before.w1 &+ UInt32(truncatingIfNeeded: totals.w1), w2: before.w2 &+ UInt32(truncatingIfNeeded: totals.w2),
        slots: UInt32(truncatingIfNeeded: child.count)))
    (children + n).initialize(to: child)
    count = n + 1
  }

  /// Adds a delta to the running totals from child `i` on.
  @inlinable
  func branchAdd(from i: Int, count dc: UInt32, w1: UInt32, w2: UInt32) {
    let n = count
    let slots = branchSlots
    var j = i
    while j < n {
      slots[j].count &+= dc
      slots[j].w1 &+= w1
      slots[j].w2 &+= w2
      j &+= 1
    }
  }

  /// Child `i` was split and `upper` holds its upper part: inserts `upper` after it. The
  /// running totals of slot `i` covered both parts and still do for the new slot.
  @inlinable
  func branchInsertSplit(at i: Int, upper: _OrderedNode) {
    let n = count
    let slots = branchSlots
    (slots + i + 2).moveInitialize(from: slots + i + 1, count: n - i - 1)
    (children + i + 2).moveInitialize(from: children + i + 1, count: n - i - 1)
    let both = slots[i]
    let totals = upper.totals
    (slots + i + 1).initialize(
      to: _BranchSlot(
        label: upper.minLabel, count: both.count, w1: both.w1, w2: both.w2,
        slots: UInt32(truncatingIfNeeded: upper.count)))
    slots[i].count &-= UInt32(truncatingIfNeeded: totals.count)
    slots[i].w1 &-= UInt32(truncatingIfNeeded: totals.w1)
    slots[i].w2 &-= UInt32(truncatingIfNeeded: totals.w2)
    slots[i].slots = UInt32(truncatingIfNeeded: children[i].count)
    (children + i + 1).initialize(to: upper)
    count = n + 1
  }

  /// Removes child `i` (its totals leave the running totals of the later slots).
  @inlinable
  func branchRemove(at i: Int) -> _OrderedNode {
    let n = count
    let slots = branchSlots
    let before = i > 0 ? slots[i - 1] : _BranchSlot(label: 0, count: 0, w1: 0, w2: 0)
    let own = slots[i]
    let child = (children + i).move()
    (children + i).moveInitialize(from: children + i + 1, count: n - i - 1)
    (slots + i).moveInitialize(from: slots + i + 1, count: n - i - 1)
    count = n - 1
    branchAdd(
      from: i, count: 0 &- (own.count &- before.count), w1: 0 &- (own.w1 &- before.w1), w2: 0 &- (own.w2 &- before.w2))
    return child
  }

  /// Recomputes the running totals and labels of an internal node from its children.
  @inlinable
  func recomputeBranch() {
    let n = count
    var running = _BranchSlot(label: 0, count: 0, w1: 0, w2: 0)
    for i in 0..<n {
      let child = children[i]
      let totals = child.totals
      running.count &+= UInt32(truncatingIfNeeded: totals.count)
      running.w1 &+= UInt32(truncatingIfNeeded: totals.w1)
      running.w2 &+= UInt32(truncatingIfNeeded: totals.w2)
      running.label = child.minLabel
      running.slots = UInt32(truncatingIfNeeded: child.count)
      branchSlots[i] = running
    }
  }

  /// Splits off the upper half of a full node into a new node of `capacity` slots.
  @inlinable
  func splitOffUpperHalf(capacity newCapacity: Int) -> _OrderedNode {
    let n = count
    let middle = n / 2
    let upper = Self.make(height: height, capacity: newCapacity)
    if isLeaf {
      let base = leafSlots[middle - 1]
      upper.leafSlots.moveInitialize(from: leafSlots + middle, count: n - middle)
      upper.ids.moveInitialize(from: ids + middle, count: n - middle)
      for j in 0..<(n - middle) {
        upper.leafSlots[j].w1 &-= base.w1
        upper.leafSlots[j].w2 &-= base.w2
      }
    } else {
      let base = branchSlots[middle - 1]
      upper.branchSlots.moveInitialize(from: branchSlots + middle, count: n - middle)
      upper.children.moveInitialize(from: children + middle, count: n - middle)
      for j in 0..<(n - middle) {
        upper.branchSlots[j].count &-= base.count
        upper.branchSlots[j].w1 &-= base.w1
        upper.branchSlots[j].w2 &-= base.w2
      }
    }
    upper.count = n - middle
    count = middle
    return upper
  }
}

// MARK: - Searching

extension _OrderedNode {
  /// The first element (leaf) or child (internal) whose label is `>= label`, starting from an
  /// interpolated guess within `low...high` (the label range this node covers, as far as the
  /// caller knows it).
  @inlinable
  func lowerBound(_ label: UInt64, low: UInt64, high: UInt64) -> Int {
    let n = count
    return _SortedSearch.lowerBound(
      labels, stride: labelStride, count: n, label, guess: _SortedSearch.guess(label, low: low, high: high, count: n))
  }

  /// The child whose label range covers `label`: the last one whose smallest label is
  /// `<= label`, or 0.
  @inlinable
  func childIndex(forLabel label: UInt64, low: UInt64, high: UInt64) -> Int {
    let n = count
    return _SortedSearch.lastNotAbove(
      labels, stride: labelStride, count: n, label, guess: _SortedSearch.guess(label, low: low, high: high, count: n))
  }

  /// The upper end of the label range of child `i`, given the upper end of this node's.
  @inlinable
  @inline(__always)
  func childHigh(_ i: Int, high: UInt64) -> UInt64 {
    i + 1 < count ? branchSlots[i + 1].label &- 1 : high
  }

  /// Brings slot `i`'s smallest label and slot count up to date with its child.
  @inlinable
  @inline(__always)
  func refreshSlot(_ i: Int) {
    let child = children[i]
    branchSlots[i].label = child.minLabel
    branchSlots[i].slots = UInt32(truncatingIfNeeded: child.count)
  }

  /// Internal node of `n` children: the child whose label range covers `label` (the last whose
  /// smallest label is `<= label`, or 0), from an interpolated guess within `low...high`.
  @inlinable
  @inline(__always)
  func branchChildIndex(forLabel label: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    _SortedSearch.lastNotAbove(
      labels, stride: MemoryLayout<_BranchSlot>.stride >> 3, count: n, label,
      guess: _SortedSearch.guess(label, low: low, high: high, count: n))
  }

  /// Leaf of `n` elements: the first element whose label is `>= label`, from an interpolated
  /// guess within `low...high`.
  @inlinable
  @inline(__always)
  func leafLowerBound(_ label: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    _SortedSearch.lowerBound(
      labels, stride: MemoryLayout<_LeafSlot>.stride >> 3, count: n, label,
      guess: _SortedSearch.guess(label, low: low, high: high, count: n))
  }

  /// The first child whose running count exceeds `index` (internal).
  @inlinable
  func childIndex(forIndex index: Int) -> Int { childIndex(forIndex: index, count: count) }

  /// The first of `n` children whose running count exceeds `index`.
  @inlinable
  @inline(__always)
  func childIndex(forIndex index: Int, count n: Int) -> Int {
    let slots = branchSlots
    let target = UInt32(truncatingIfNeeded: index)
    var low = 0
    var high = n - 1
    while low < high {
      let middle = (low + high) >> 1
      if slots[middle].count > target { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The first child (internal) or element (leaf) whose running weight exceeds `offset`
  /// (clamped to the last one).
  @inlinable
  func slot(forOffset offset: Int, visible: Bool) -> Int {
    slot(forOffset: offset, visible: visible, count: count, isLeaf: isLeaf)
  }

  /// Like ``slot(forOffset:visible:)`` for a node of `n` slots of the given kind.
  @inlinable
  @inline(__always)
  func slot(forOffset offset: Int, visible: Bool, count n: Int, isLeaf: Bool) -> Int {
    let target = UInt32(truncatingIfNeeded: offset)
    var low = 0
    var high = n - 1
    if isLeaf {
      let slots = leafSlots
      while low < high {
        let middle = (low + high) >> 1
        if (visible ? slots[middle].w2 : slots[middle].w1) > target { high = middle } else { low = middle + 1 }
      }
    } else {
      let slots = branchSlots
      while low < high {
        let middle = (low + high) >> 1
        if (visible ? slots[middle].w2 : slots[middle].w1) > target { high = middle } else { low = middle + 1 }
      }
    }
    return low
  }
}
