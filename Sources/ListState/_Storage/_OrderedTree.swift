// The nodes of an `_OrderedTree`, the tree, and the searches, edits and descents on them.
//
// As in `_HashTree.swift`, everything that reaches into a node's memory lives in this file:
// its layout accessors are `@_transparent`, and mandatory inlining only sees bodies in the
// same file when a client builds this package without whole-module optimization (an app's
// debug build). The read-only descents reach nodes by address (no retains, no closures) and
// name no generic type but the identifiers'.

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
  @inline(__always)
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
  @inline(__always)
  init(label: UInt64, count: UInt32, w1: UInt32, w2: UInt32, slots: UInt32 = 0) {
    self.label = label
    self.count = count
    self.w1 = w1
    self.w2 = w2
    self.slots = slots
  }
}

/// An ``_OrderedNode`` by address: its header, slots and children, read and written without
/// retaining the node and without naming its generic type (which, in unspecialized code, means
/// a metadata lookup per function). Valid while something else keeps the node alive.
///
/// The offsets are `ManagedBuffer`'s: the header follows the object header (a metadata
/// pointer and a reference count, two words), and the elements follow the header, aligned for
/// `UInt64`. A node's elements are its slots, then its identifiers (leaf) or children.
@usableFromInline
struct _OrderedNodeAddress {
  @usableFromInline
  let raw: UnsafeMutableRawPointer

  @_transparent
  @usableFromInline
  init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }

  @_transparent
  @usableFromInline
  init<ID>(_ node: _OrderedNode<ID>) { raw = Unmanaged.passUnretained(node).toOpaque() }

  @_transparent
  @usableFromInline
  static var headerOffset: Int { MemoryLayout<Int>.size &* 2 }

  @_transparent
  @usableFromInline
  static var elementsOffset: Int {
    let alignment = MemoryLayout<UInt64>.alignment
    return (headerOffset &+ MemoryLayout<_TreeNodeShape>.size &+ alignment &- 1) & (0 &- alignment)
  }

  @_transparent
  @usableFromInline
  var shape: UnsafeMutablePointer<_TreeNodeShape> {
    (raw + Self.headerOffset).assumingMemoryBound(to: _TreeNodeShape.self)
  }

  /// Elements (leaf) or children (internal).
  @_transparent
  @usableFromInline
  var count: Int {
    get { Int(shape.pointee.count) }
    nonmutating set { shape.pointee.count = Int32(newValue) }
  }

  /// Slots allocated.
  @_transparent
  @usableFromInline
  var capacity: Int { Int(shape.pointee.capacity) }

  @_transparent
  @usableFromInline
  var height: Int { Int(shape.pointee.height) }

  @_transparent
  @usableFromInline
  var isLeaf: Bool { shape.pointee.height == 0 }

  @_transparent
  @usableFromInline
  var base: UnsafeMutableRawPointer { raw + Self.elementsOffset }

  @_transparent
  @usableFromInline
  var leafSlots: UnsafeMutablePointer<_LeafSlot> { base.assumingMemoryBound(to: _LeafSlot.self) }

  @_transparent
  @usableFromInline
  var branchSlots: UnsafeMutablePointer<_BranchSlot> { base.assumingMemoryBound(to: _BranchSlot.self) }

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

  /// Leaf: the identifiers (before any realignment for over-aligned identifiers).
  @_transparent
  @usableFromInline
  var idsBase: UnsafeMutableRawPointer { base + capacity &* MemoryLayout<_LeafSlot>.stride }

  /// Internal: the child references.
  @_transparent
  @usableFromInline
  var childrenBase: UnsafeMutableRawPointer { base + capacity &* MemoryLayout<_BranchSlot>.stride }

  /// Internal: child `i`, unretained. (A raw load: the memory is bound to the generic node
  /// type, which this non-generic code does not name.)
  @_transparent
  @usableFromInline
  func child(_ i: Int) -> _OrderedNodeAddress {
    _OrderedNodeAddress(UnsafeRawPointer(childrenBase + i &* MemoryLayout<UnsafeRawPointer>.stride).load(fromByteOffset: 0, as: UnsafeMutableRawPointer.self))
  }

  /// The totals of the whole subtree.
  @_transparent
  @usableFromInline
  var totals: _OrderedWeights {
    let n = count
    guard n > 0 else { return .zero }
    if isLeaf {
      let last = leafSlots[n &- 1]
      return _OrderedWeights(count: n, w1: Int(last.w1), w2: Int(last.w2))
    }
    let last = branchSlots[n &- 1]
    return _OrderedWeights(count: Int(last.count), w1: Int(last.w1), w2: Int(last.w2))
  }

  /// Internal node of `n` children: the child whose label range covers `label` (the last whose
  /// smallest label is `<= label`, or 0), from an interpolated guess within `low...high`.
  @_transparent
  @usableFromInline
  func branchChildIndex(forLabel label: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    Self.lastNotAbove(labels, stride: MemoryLayout<_BranchSlot>.stride >> 3, count: n, label, low: low, high: high)
  }

  /// Leaf of `n` elements: the first element whose label is `>= label`, from an interpolated
  /// guess within `low...high`.
  @_transparent
  @usableFromInline
  func leafLowerBound(_ label: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    Self.lowerBound(labels, stride: MemoryLayout<_LeafSlot>.stride >> 3, count: n, label, low: low, high: high)
  }

  /// The upper end of a node's label range for an interpolated search: the caller's bound, or
  /// the node's last label when the caller does not know one (the rightmost path).
  @_transparent
  @usableFromInline
  func resolvedHigh(_ high: UInt64?, count n: Int) -> UInt64 {
    high ?? (isLeaf ? leafSlots[n &- 1].label : branchSlots[n &- 1].label)
  }

  /// The first of `n` children whose running count exceeds `index`.
  @_transparent
  @usableFromInline
  func childIndex(forIndex index: Int, count n: Int) -> Int {
    let slots = branchSlots
    let target = UInt32(index)
    var low = 0
    var high = n &- 1
    while low < high {
      let middle = (low &+ high) &>> 1
      if slots[middle].count > target { high = middle } else { low = middle &+ 1 }
    }
    return low
  }

  /// The first child (internal) or element (leaf) of `n` whose running weight exceeds `offset`
  /// (clamped to the last one).
  @_transparent
  @usableFromInline
  func slot(forOffset offset: Int, visible: Bool, count n: Int) -> Int {
    let target = UInt32(offset)
    var low = 0
    var high = n &- 1
    if isLeaf {
      let slots = leafSlots
      while low < high {
        let middle = (low &+ high) &>> 1
        if (visible ? slots[middle].w2 : slots[middle].w1) > target { high = middle } else { low = middle &+ 1 }
      }
    } else {
      let slots = branchSlots
      while low < high {
        let middle = (low &+ high) &>> 1
        if (visible ? slots[middle].w2 : slots[middle].w1) > target { high = middle } else { low = middle &+ 1 }
      }
    }
    return low
  }

  /// The first of `count` keys (`keys[i * stride]`, sorted) that is `>= key`, from the slot
  /// interpolation expects within `low...high`: ``_SortedSearch/lowerBound(_:stride:count:_:low:high:)``
  /// written out here, where the descents that call it once per level can inline it (a call
  /// into another file is a call in a debug build).
  @_transparent
  @usableFromInline
  static func lowerBound(
    _ keys: UnsafePointer<UInt64>, stride: Int, count: Int, _ key: UInt64, low: UInt64, high: UInt64
  ) -> Int {
    guard count > 0 else { return 0 }
    var i: Int
    if key <= low {
      i = 0
    } else if key >= high {
      i = count &- 1
    } else {
      // (As `_SortedSearch.guess`: the span at half scale, converted through `Int`.)
      let fraction =
        Double(Int(bitPattern: UInt((key &- low) >> 1))) / (Double(Int(bitPattern: UInt((high &- low) >> 1))) + 0.5)
      i = Int(fraction * Double(count))
      if i >= count { i = count &- 1 }
    }
    if keys[i &* stride] < key {
      i &+= 1
      let limit = i &+ 8 < count ? i &+ 8 : count
      while i < limit {
        if keys[i &* stride] >= key { return i }
        i &+= 1
      }
      return i == count ? count : _SortedSearch.bisect(keys, stride: stride, low: i, high: count, key)
    }
    let limit = i > 8 ? i &- 8 : 0
    while i > limit {
      if keys[(i &- 1) &* stride] < key { return i }
      i &-= 1
    }
    return i == 0 ? 0 : _SortedSearch.bisect(keys, stride: stride, low: 0, high: i, key)
  }

  /// The last of `count` keys that is `<= key`, or 0 when none (the child that covers `key`),
  /// from the slot interpolation expects (see ``lowerBound(_:stride:count:_:low:high:)``).
  @_transparent
  @usableFromInline
  static func lastNotAbove(
    _ keys: UnsafePointer<UInt64>, stride: Int, count: Int, _ key: UInt64, low: UInt64, high: UInt64
  ) -> Int {
    guard key < UInt64.max else { return count > 1 ? count &- 1 : 0 }
    let above = lowerBound(keys, stride: stride, count: count, key &+ 1, low: low, high: high)
    return above > 1 ? above &- 1 : 0
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
    let node = _OrderedNodeAddress(self)
    if node.isLeaf {
      ids.deinitialize(count: node.count)
    } else {
      children.deinitialize(count: node.count)
    }
  }
}

/// The typed layout accessors of ``_OrderedNode``, in a protocol extension so that they can be
/// `@_transparent` (which a class member cannot be).
@usableFromInline
protocol _OrderedNodeLayout: AnyObject {
  associatedtype ID: Hashable & Sendable
}

extension _OrderedNode: _OrderedNodeLayout {}

extension _OrderedNodeLayout {
  @_transparent
  @usableFromInline
  var address: _OrderedNodeAddress { _OrderedNodeAddress(Unmanaged.passUnretained(self).toOpaque()) }

  @_transparent
  @usableFromInline
  var count: Int {
    get { address.count }
    set { address.count = newValue }
  }

  @_transparent
  @usableFromInline
  var slotCapacity: Int { address.capacity }

  @_transparent
  @usableFromInline
  var height: Int { address.height }

  @_transparent
  @usableFromInline
  var isLeaf: Bool { address.isLeaf }

  @_transparent
  @usableFromInline
  var base: UnsafeMutableRawPointer { address.base }

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
  var leafSlots: UnsafeMutablePointer<_LeafSlot> { address.leafSlots }

  @_transparent
  @usableFromInline
  var branchSlots: UnsafeMutablePointer<_BranchSlot> { address.branchSlots }

  @_transparent
  @usableFromInline
  var ids: UnsafeMutablePointer<ID> { _OrderedTree<ID>.ids(of: address) }

  @_transparent
  @usableFromInline
  var children: UnsafeMutablePointer<_OrderedNode<ID>> {
    address.childrenBase.assumingMemoryBound(to: _OrderedNode<ID>.self)
  }

  /// Pointer to the first slot's label; consecutive labels are `labelStride` words apart.
  @_transparent
  @usableFromInline
  var labels: UnsafePointer<UInt64> { address.labels }

  @_transparent
  @usableFromInline
  var labelStride: Int { address.labelStride }

  @_transparent
  @usableFromInline
  func label(at i: Int) -> UInt64 { address.label(at: i) }

  @_transparent
  @usableFromInline
  var minLabel: UInt64 { address.labels[0] }

  /// The smallest label of the subtree (an internal node's first slot holds it too).
  @_transparent
  @usableFromInline
  var minLabelOfSubtree: UInt64 { address.labels[0] }

  /// The totals of the whole subtree.
  @_transparent
  @usableFromInline
  var totals: _OrderedWeights { address.totals }
}

// MARK: - Making, copying and growing

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
      bytes = childrenOffset(capacity: capacity) + capacity * MemoryLayout<UnsafeRawPointer>.stride
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
    let node = address
    return _OrderedNodeAddress.lowerBound(node.labels, stride: node.labelStride, count: node.count, label, low: low, high: high)
  }

  /// The child whose label range covers `label`: the last one whose smallest label is
  /// `<= label`, or 0.
  @inlinable
  func childIndex(forLabel label: UInt64, low: UInt64, high: UInt64) -> Int {
    let node = address
    return _OrderedNodeAddress.lastNotAbove(node.labels, stride: node.labelStride, count: node.count, label, low: low, high: high)
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
    let child = address.child(i)
    branchSlots[i].label = child.labels[0]
    branchSlots[i].slots = UInt32(child.count)
  }

  /// The first child whose running count exceeds `index` (internal).
  @inlinable
  func childIndex(forIndex index: Int) -> Int { address.childIndex(forIndex: index, count: count) }

  /// The first child (internal) or element (leaf) whose running weight exceeds `offset`
  /// (clamped to the last one).
  @inlinable
  func slot(forOffset offset: Int, visible: Bool) -> Int {
    address.slot(forOffset: offset, visible: visible, count: count)
  }
}

/// A persistent B+tree holding one sequence of siblings (a section's root items, an item's
/// children, or the list's sections), ordered by a `UInt64` order label and augmented with
/// counts and two weight sums per node.
///
/// It answers, in O(log n): the index and prefix weights of an element given its label
/// (``rank(ofLabel:)``), the element at an index, the element covering a weight offset, and it
/// inserts, removes and re-weighs elements. Labels are handed out by
/// ``insert(_:w1:w2:at:relabeled:)`` and ``insert(contentsOf:at:relabeled:)`` (see "Order labels" below).
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

  /// Makes `node` uniquely referenced (copying it when shared). The nodes are native Swift
  /// objects, for which this is `isKnownUniquelyReferenced` without its generic call.
  @_transparent
  @usableFromInline
  static func makeUnique(_ node: inout Node) {
    if !_isUnique_native(&node) { node = node.copy(capacity: node.slotCapacity) }
  }

  /// The upper end of a node's label range for an interpolated search: the caller's bound, or
  /// the node's last label when the caller does not know one (the rightmost path).
  @_transparent
  @usableFromInline
  static func resolvedHigh(_ node: Node, _ high: UInt64?) -> UInt64 {
    high ?? node.label(at: node.count - 1)
  }

  /// The identifiers of the leaf at `leaf`: after its slots, aligned for the identifiers.
  @_transparent
  @usableFromInline
  static func ids(of leaf: _OrderedNodeAddress) -> UnsafeMutablePointer<ID> {
    let raw = leaf.idsBase
    let alignment = MemoryLayout<ID>.alignment
    return (alignment > 8 ? raw.alignedUp(toMultipleOf: alignment) : raw).assumingMemoryBound(to: ID.self)
  }
}

// MARK: - Queries

// The read-only descents below walk nodes by address: the parent's slot holds each child's
// slot count, so a search of a child starts without reading the child's header, and no node is
// retained (the tree keeps every node alive while it is read).
extension _OrderedTree {
  /// The index of the entry with exactly `label`, and the sums of `w1`/`w2` over the entries
  /// before it; nil when no entry has that label.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func rank(ofLabel label: UInt64) -> (index: Int, w1: Int, w2: Int)? {
    guard let root else { return nil }
    var node = root.address
    var n = node.count
    var height = node.height
    var index = 0
    var w1 = 0
    var w2 = 0
    var low = node.labels[0]
    var high: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.branchChildIndex(forLabel: label, low: low, high: node.resolvedHigh(high, count: n), count: n)
      if child > 0 {
        let before = slots[child &- 1]
        index &+= Int(before.count)
        w1 &+= Int(before.w1)
        w2 &+= Int(before.w2)
      }
      low = slots[child].label
      if child &+ 1 < n { high = slots[child &+ 1].label &- 1 }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    let slots = node.leafSlots
    let position = node.leafLowerBound(label, low: low, high: node.resolvedHigh(high, count: n), count: n)
    guard position < n, slots[position].label == label else { return nil }
    guard position > 0 else { return (index, w1, w2) }
    let before = slots[position &- 1]
    return (index &+ position, w1 &+ Int(before.w1), w2 &+ Int(before.w2))
  }

  /// The number of entries whose label is smaller than `label`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func lowerBound(ofLabel label: UInt64) -> Int {
    guard let root else { return 0 }
    var node = root.address
    var n = node.count
    var height = node.height
    var index = 0
    var low = node.labels[0]
    var high: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.branchChildIndex(forLabel: label, low: low, high: node.resolvedHigh(high, count: n), count: n)
      if child > 0 { index &+= Int(slots[child &- 1].count) }
      low = slots[child].label
      if child &+ 1 < n { high = slots[child &+ 1].label &- 1 }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    return index &+ node.leafLowerBound(label, low: low, high: node.resolvedHigh(high, count: n), count: n)
  }

  /// The leaf holding the entry at `index` (`0..<count`) and its position there (valid while
  /// this tree is).
  @inlinable
  func leaf(containing index: Int) -> (leaf: _OrderedNodeAddress, position: Int) {
    var node = root!.address
    var n = node.count
    var height = node.height
    var remaining = index
    while height > 0 {
      let slots = node.branchSlots
      let child = node.childIndex(forIndex: remaining, count: n)
      if child > 0 { remaining &-= Int(slots[child &- 1].count) }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    return (node, remaining)
  }

  /// The entry at `index` (`0..<count`).
  ///
  /// - Complexity: O(log n).
  @inlinable
  func entry(at index: Int) -> Entry {
    precondition(index >= 0 && index < count, "_OrderedTree index out of range")
    let (leaf, position) = leaf(containing: index)
    let slots = leaf.leafSlots
    let upper = slots[position]
    let lower = position > 0 ? slots[position &- 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    return Entry(
      label: upper.label, id: Self.ids(of: leaf)[position], w1: Int(upper.w1 &- lower.w1), w2: Int(upper.w2 &- lower.w2))
  }

  /// The labels of the entries at `index - 1` and `index` (nil outside `0..<count`), in one
  /// descent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func neighbourLabels(at index: Int) -> (before: UInt64?, after: UInt64?) {
    guard let root else { return (nil, nil) }
    let total = count
    if index <= 0 { return (nil, root.minLabelOfSubtree) }
    // Descend to the entry at `index - 1`; the next label is in the same leaf, or is the
    // smallest label of the next subtree at the deepest level where one exists.
    var node = root.address
    var n = node.count
    var height = node.height
    var remaining = index &- 1
    var next: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.childIndex(forIndex: remaining, count: n)
      if child > 0 { remaining &-= Int(slots[child &- 1].count) }
      if child &+ 1 < n { next = slots[child &+ 1].label }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    let slots = node.leafSlots
    let before = slots[remaining].label
    let after = remaining &+ 1 < n ? slots[remaining &+ 1].label : next
    return (before, index < total ? after : nil)
  }

  @inlinable
  func entryLabel(_ index: Int) -> UInt64 {
    let (leaf, position) = leaf(containing: index)
    return leaf.leafSlots[position].label
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
    var node = root!.address
    var n = node.count
    var height = node.height
    var remaining = offset
    var index = 0
    while height > 0 {
      let slots = node.branchSlots
      let child = node.slot(forOffset: remaining, visible: visible, count: n)
      if child > 0 {
        let before = slots[child &- 1]
        remaining &-= Int(visible ? before.w2 : before.w1)
        index &+= Int(before.count)
      }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    let slots = node.leafSlots
    let position = node.slot(forOffset: remaining, visible: visible, count: n)
    let lower = position > 0 ? slots[position &- 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    remaining &-= Int(visible ? lower.w2 : lower.w1)
    let upper = slots[position]
    let entry = Entry(
      label: upper.label, id: Self.ids(of: node)[position], w1: Int(upper.w1 &- lower.w1), w2: Int(upper.w2 &- lower.w2))
    return (index &+ position, entry, remaining)
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

  /// A tree of `ids` in order, each of weight 1, labelled `first + step * i` (strictly
  /// increasing), built bottom-up: the bulk load of new leaf items (a list's items appended
  /// in one go), written straight into the leaves.
  ///
  /// - Complexity: O(n).
  @inlinable
  init(ids: UnsafeBufferPointer<ID>, firstLabel first: UInt64, step: UInt64) {
    let n = ids.count
    guard n > 0 else {
      root = nil
      return
    }
    let leafCount = (n + Self.leafCapacity - 1) / Self.leafCapacity
    var level: [Node] = []
    level.reserveCapacity(leafCount)
    // Balanced chunks, as `build(_:)` makes them.
    var start = 0
    var i = 0
    var label = first
    while i < leafCount {
      let end = n * (i + 1) / leafCount
      let leaf = Node.make(height: 0, capacity: end - start)
      let address = leaf.address
      let slots = address.leafSlots
      let leafIDs = Self.ids(of: address)
      var position = 0
      while start < end {
        (slots + position).initialize(to: _LeafSlot(label: label, w1: UInt32(position &+ 1), w2: UInt32(position &+ 1)))
        (leafIDs + position).initialize(to: ids[start])
        label &+= step
        position &+= 1
        start &+= 1
      }
      address.count = position
      level.append(leaf)
      i += 1
    }
    root = Node.stackLevels(level, capacity: Self.internalCapacity)
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
    if let label = insertInPlace(id, w1, w2, at: index) { return label }
    let (label, split) = Self.insert(id, w1, w2, after: index - 1, into: &root!, next: nil)
    if let split { growRoot(split) }
    if let label { return label }
    // No room between the neighbours: relabel a window around them first.
    let made = makeRoom(at: index, count: 1, relabeled: &relabeled).first
    insert(Entry(label: made, id: id, w1: Int(w1), w2: Int(w2)))
    return made
  }

  /// The common insertion, when the leaf has a free slot and the neighbours leave a label
  /// between them: a read-only descent to the entry before `index` finds both neighbours and
  /// checks, then a second one makes the path unique and counts the new entry on the way
  /// down, so nothing is left to do on the way back up. Nil, with nothing changed, otherwise.
  ///
  /// (Two loops rather than one recursion: in unspecialized code each level of a recursion is
  /// a call that sets up its frame and looks up metadata again.)
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func insertInPlace(_ id: ID, _ w1: UInt32, _ w2: UInt32, at index: Int) -> UInt64? {
    var node = root!.address
    var n = node.count
    var height = node.height
    // The position of the entry before the new one, in the subtree at hand (-1: none there).
    var remaining = index &- 1
    var next: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      var child = 0
      if remaining >= 0 {
        child = node.childIndex(forIndex: remaining, count: n)
        if child > 0 { remaining &-= Int(slots[child &- 1].count) }
      }
      if child &+ 1 < n { next = slots[child &+ 1].label }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    guard n < node.capacity else { return nil }
    let lower: UInt64? = remaining >= 0 ? node.leafSlots[remaining].label : nil
    let upper: UInt64? = remaining &+ 1 < n ? node.leafSlots[remaining &+ 1].label : next
    guard let label = Self.label(between: lower, and: upper) else { return nil }

    Self.makeUnique(&root!)
    node = root!.address
    n = node.count
    height = node.height
    remaining = index &- 1
    while height > 0 {
      let slots = node.branchSlots
      var child = 0
      if remaining >= 0 {
        child = node.childIndex(forIndex: remaining, count: n)
        if child > 0 { remaining &-= Int(slots[child &- 1].count) }
      }
      var j = child
      while j < n {
        slots[j].count &+= 1
        slots[j].w1 &+= w1
        slots[j].w2 &+= w2
        j &+= 1
      }
      // Before everything in the child: the new entry is its subtree's smallest label.
      if remaining < 0 { slots[child].label = label }
      Self.makeUnique(&(node.childrenBase.assumingMemoryBound(to: Node.self) + child).pointee)
      n = Int(slots[child].slots)
      if height == 1 { slots[child].slots = UInt32(n &+ 1) }
      node = node.child(child)
      height &-= 1
    }
    let slots = node.leafSlots
    let ids = Self.ids(of: node)
    let position = remaining &+ 1
    (slots + position + 1).moveInitialize(from: slots + position, count: n - position)
    (ids + position + 1).moveInitialize(from: ids + position, count: n - position)
    let before = position > 0 ? slots[position &- 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    (slots + position).initialize(to: _LeafSlot(label: label, w1: before.w1 &+ w1, w2: before.w2 &+ w2))
    (ids + position).initialize(to: id)
    var j = position &+ 1
    while j <= n {
      slots[j].w1 &+= w1
      slots[j].w2 &+= w2
      j &+= 1
    }
    node.count = n &+ 1
    return label
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
    if let removed = removeInPlace(label: label) { return removed }
    // The removed identifier and weights come back through parameters: an optional result
    // per level of the recursion was a metadata lookup per level in unspecialized code.
    var id: ID? = nil
    var weights = _OrderedWeights.zero
    guard Self.remove(label: label, from: &root!, low: root!.minLabel, high: nil, id: &id, weights: &weights) else {
      return nil
    }
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.count == 1 {
      root = root!.children[0]
    }
    return Entry(label: label, id: id.unsafelyUnwrapped, w1: weights.w1, w2: weights.w2)
  }

  /// The common removal, when the entry's leaf keeps enough entries (or is the root): a
  /// read-only descent finds the entry and checks, then a second one makes the path unique and
  /// takes the entry out of the running totals on the way down. Nil, with nothing changed,
  /// otherwise (or when no entry has the label).
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func removeInPlace(label: UInt64) -> Entry? {
    var node = root!.address
    var n = node.count
    var height = node.height
    var low = node.labels[0]
    var high: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.branchChildIndex(forLabel: label, low: low, high: node.resolvedHigh(high, count: n), count: n)
      low = slots[child].label
      if child &+ 1 < n { high = slots[child &+ 1].label &- 1 }
      n = Int(slots[child].slots)
      node = node.child(child)
      height &-= 1
    }
    let position = node.leafLowerBound(label, low: low, high: node.resolvedHigh(high, count: n), count: n)
    guard position < n, node.leafSlots[position].label == label else { return nil }
    guard node.raw == root!.address.raw || n &- 1 >= Self.minimumFill(isLeaf: true) else { return nil }
    let upper = node.leafSlots[position]
    let lower = position > 0 ? node.leafSlots[position &- 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
    let d1 = upper.w1 &- lower.w1
    let d2 = upper.w2 &- lower.w2
    // The leaf's smallest label after the removal (it keeps entries, or is the root).
    let successor = position == 0 && n > 1 ? node.leafSlots[1].label : 0

    Self.makeUnique(&root!)
    node = root!.address
    n = node.count
    height = node.height
    low = node.labels[0]
    high = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.branchChildIndex(forLabel: label, low: low, high: node.resolvedHigh(high, count: n), count: n)
      low = slots[child].label
      if child &+ 1 < n { high = slots[child &+ 1].label &- 1 }
      var j = child
      while j < n {
        slots[j].count &-= 1
        slots[j].w1 &-= d1
        slots[j].w2 &-= d2
        j &+= 1
      }
      if slots[child].label == label { slots[child].label = successor }
      Self.makeUnique(&(node.childrenBase.assumingMemoryBound(to: Node.self) + child).pointee)
      n = Int(slots[child].slots)
      if height == 1 { slots[child].slots = UInt32(n &- 1) }
      node = node.child(child)
      height &-= 1
    }
    let slots = node.leafSlots
    let ids = Self.ids(of: node)
    let id = (ids + position).move()
    (ids + position).moveInitialize(from: ids + position + 1, count: n - position - 1)
    (slots + position).moveInitialize(from: slots + position + 1, count: n - position - 1)
    var j = position
    while j < n &- 1 {
      slots[j].w1 &-= d1
      slots[j].w2 &-= d2
      j &+= 1
    }
    node.count = n &- 1
    if n == 1 { root = nil }  // the root leaf's last entry
    return Entry(label: label, id: id, w1: Int(d1), w2: Int(d2))
  }

  /// Removes the entry with `label` under `node`, reporting its identifier and weights; false
  /// (nothing removed) when absent.
  @inlinable
  static func remove(
    label: UInt64, from node: inout Node, low: UInt64, high: UInt64?, id: inout ID?, weights: inout _OrderedWeights
  ) -> Bool {
    makeUnique(&node)
    let address = node.address
    let n = address.count
    if address.isLeaf {
      let slots = address.leafSlots
      let position = address.leafLowerBound(label, low: low, high: address.resolvedHigh(high, count: n), count: n)
      guard position < n, slots[position].label == label else { return false }
      let upper = slots[position]
      let lower = position > 0 ? slots[position &- 1] : _LeafSlot(label: 0, w1: 0, w2: 0)
      let d1 = upper.w1 &- lower.w1
      let d2 = upper.w2 &- lower.w2
      let ids = Self.ids(of: address)
      id = (ids + position).move()
      (ids + position).moveInitialize(from: ids + position + 1, count: n - position - 1)
      (slots + position).moveInitialize(from: slots + position + 1, count: n - position - 1)
      var j = position
      while j < n &- 1 {
        slots[j].w1 &-= d1
        slots[j].w2 &-= d2
        j &+= 1
      }
      address.count = n &- 1
      weights = _OrderedWeights(count: 1, w1: Int(d1), w2: Int(d2))
      return true
    }
    let slots = address.branchSlots
    let child = address.branchChildIndex(forLabel: label, low: low, high: address.resolvedHigh(high, count: n), count: n)
    let childLow = slots[child].label
    let childHigh: UInt64? = child &+ 1 < n ? slots[child &+ 1].label &- 1 : high
    let childReference = address.childrenBase.assumingMemoryBound(to: Node.self) + child
    guard remove(label: label, from: &childReference.pointee, low: childLow, high: childHigh, id: &id, weights: &weights)
    else { return false }
    node.branchAdd(
      from: child, count: 0 &- 1, w1: 0 &- UInt32(truncatingIfNeeded: weights.w1), w2: 0 &- UInt32(truncatingIfNeeded: weights.w2))
    let childAddress = address.child(child)
    let remaining = childAddress.count
    if remaining == 0 {
      _ = node.branchRemove(at: child)
    } else {
      node.refreshSlot(child)
      if remaining < minimumFill(isLeaf: childAddress.isLeaf), n > 1 {
        rebalance(node, around: child)
      }
    }
    return true
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
  /// Returns false (and changes nothing observable, though the path may have been copied)
  /// when no entry has that label.
  ///
  /// One descent that makes each node on the path unique and adds the deltas to the running
  /// totals from the path's slot on (nothing changes shape, so nothing is left to do on the
  /// way back up).
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func adjustWeights(label: UInt64, w1 dw1: Int, w2 dw2: Int) -> Bool {
    guard root != nil else { return false }
    let d1 = UInt32(truncatingIfNeeded: dw1)
    let d2 = UInt32(truncatingIfNeeded: dw2)
    Self.makeUnique(&root!)
    var node = root!.address
    var n = node.count
    var height = node.height
    var low = node.labels[0]
    var high: UInt64? = nil
    while height > 0 {
      let slots = node.branchSlots
      let child = node.branchChildIndex(forLabel: label, low: low, high: node.resolvedHigh(high, count: n), count: n)
      low = slots[child].label
      if child &+ 1 < n { high = slots[child &+ 1].label &- 1 }
      // The label must be below this child (the caller knows it exists); the totals before it
      // change only once it is found, but every entry on the path is the one holding it.
      var j = child
      while j < n {
        slots[j].w1 &+= d1
        slots[j].w2 &+= d2
        j &+= 1
      }
      let childSlots = Int(slots[child].slots)
      Self.makeUnique(&(node.childrenBase.assumingMemoryBound(to: Node.self) + child).pointee)
      node = node.child(child)
      n = childSlots
      height &-= 1
    }
    let slots = node.leafSlots
    let position = node.leafLowerBound(label, low: low, high: node.resolvedHigh(high, count: n), count: n)
    guard position < n, slots[position].label == label else {
      // Unknown label: take the deltas back out of the path (rare: callers pass known labels).
      _ = Self.adjust(label: label, 0 &- d1, 0 &- d2, undoingIn: &root!, low: root!.minLabel, high: nil)
      return false
    }
    var j = position
    while j < n {
      slots[j].w1 &+= d1
      slots[j].w2 &+= d2
      j &+= 1
    }
    return true
  }

  /// Adds the deltas to the branch slots on the path to where `label` would be (the internal
  /// levels only): what ``adjustWeights(label:w1:w2:)`` undoes when the label is missing.
  @inlinable
  static func adjust(label: UInt64, _ dw1: UInt32, _ dw2: UInt32, undoingIn node: inout Node, low: UInt64, high: UInt64?)
    -> Bool
  {
    if node.isLeaf { return true }
    let child = node.childIndex(forLabel: label, low: low, high: resolvedHigh(node, high))
    let childLow = node.branchSlots[child].label
    let childHigh: UInt64? = child + 1 < node.count ? node.branchSlots[child + 1].label &- 1 : high
    node.branchAdd(from: child, count: 0, w1: dw1, w2: dw2)
    return adjust(label: label, dw1, dw2, undoingIn: &node.children[child], low: childLow, high: childHigh)
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
