@usableFromInline
struct _HashNodeHeader: _TreeNodeHeader {
  /// Entries (leaf) or children (internal).
  @usableFromInline
  var count: Int32
  /// Slots allocated.
  @usableFromInline
  var capacity: Int32
  /// 0 for a leaf; one more than the children's otherwise.
  @usableFromInline
  var height: Int32
  /// Entries in the subtree.
  @usableFromInline
  var total: Int

  @inlinable
  init(count: Int32, capacity: Int32, height: Int32, total: Int) {
    self.count = count
    self.capacity = capacity
    self.height = height
    self.total = total
  }
}

/// One child of an internal ``_HashNode``: the child, its smallest hash, and its slot count.
/// Keeping the count here means a search of the child can start (at its interpolated slot)
/// without first reading the child's header: at a million keys every level is a cache miss, and
/// this removes one dependent miss per level. The child comes first: read-only descents load
/// it as an unretained reference from offset 0 (see ``_HashNode/unretainedChild(_:)``).
@usableFromInline
struct _HashBranchSlot<Key: Hashable & Sendable, Value: Sendable> {
  @usableFromInline
  var child: _HashNode<Key, Value>
  @usableFromInline
  var minHash: UInt64
  @usableFromInline
  var count: Int

  @inlinable
  init(_ child: _HashNode<Key, Value>) {
    self.child = child
    self.minHash = child.minHash
    self.count = child.count
  }
}

/// One entry of a ``_HashNode`` leaf in hash order: the key's hash and where the entry is in
/// the leaf's (unordered, dense) entry storage.
@usableFromInline
struct _HashLeafSlot {
  @usableFromInline
  var hash: UInt64
  @usableFromInline
  var item: UInt32
  @usableFromInline
  var _unused: UInt32

  @inlinable
  init(hash: UInt64, item: Int) {
    self.hash = hash
    self.item = UInt32(truncatingIfNeeded: item)
    self._unused = 0
  }
}

/// A node of a ``_HashTree`` in one allocation: a header, then (leaf) slots of hashes in hash
/// order and the entries, or (internal) the child slots, all inline.
///
/// A leaf keeps its entries unordered and dense, each slot naming its entry: inserting or
/// removing shifts 16-byte slots, never the entries (records of tens of bytes, whose moving
/// was a third of the cache misses of an edit). A search reads a compact run of slots; with
/// the interpolated search (hashes are evenly spread) that is usually one cache line, then one
/// more for the entry found.
///
/// Like ``_OrderedNode``, nodes are shared between snapshots and mutated in place only while
/// uniquely referenced (path copying otherwise), which is what makes ``_HashTree``'s
/// `@unchecked Sendable` sound (`ManagedBuffer` itself is not `Sendable`).
@usableFromInline
final class _HashNode<Key: Hashable & Sendable, Value: Sendable>: ManagedBuffer<_HashNodeHeader, UInt64>, _TreeNode {
  @inlinable
  deinit {
    let count = Int(headerPointer.pointee.count)
    if headerPointer.pointee.height == 0 {
      items.deinitialize(count: count)  // dense: slots 0..<count
    } else {
      branchSlots.deinitialize(count: count)
    }
  }
}

// MARK: - Layout

extension _HashNode {
  @usableFromInline
  typealias Item = _HashItem<Key, Value>
  @usableFromInline
  typealias Slot = _HashBranchSlot<Key, Value>

  @inlinable
  @inline(__always)
  static var itemsNeedRealignment: Bool { MemoryLayout<Item>.alignment > 8 }

  /// A new, empty node.
  @inlinable
  static func make(height: Int, capacity: Int) -> _HashNode {
    let bytes =
      height == 0
      ? capacity * MemoryLayout<_HashLeafSlot>.stride + (itemsNeedRealignment ? MemoryLayout<Item>.alignment : 0)
        + capacity * MemoryLayout<Item>.stride
      : capacity * MemoryLayout<Slot>.stride
    let buffer = Self.create(minimumCapacity: (bytes + 7) >> 3) { _ in
      _HashNodeHeader(count: 0, capacity: Int32(capacity), height: Int32(height), total: 0)
    }
    let node = unsafeDowncast(buffer, to: _HashNode.self)
    if height == 0 {
      UnsafeMutableRawPointer(node.base).bindMemory(to: _HashLeafSlot.self, capacity: capacity)
      UnsafeMutableRawPointer(node.items).bindMemory(to: Item.self, capacity: capacity)
    } else {
      UnsafeMutableRawPointer(node.base).bindMemory(to: Slot.self, capacity: capacity)
    }
    return node
  }

  @inlinable
  @inline(__always)
  var base: UnsafeMutablePointer<UInt64> { withUnsafeMutablePointerToElements { $0 } }

  /// Leaf: the slots, in hash order.
  @inlinable
  @inline(__always)
  var leafSlots: UnsafeMutablePointer<_HashLeafSlot> {
    UnsafeMutableRawPointer(base).assumingMemoryBound(to: _HashLeafSlot.self)
  }

  /// Leaf: the entries (dense, in no particular order; see the slots).
  @inlinable
  @inline(__always)
  var items: UnsafeMutablePointer<Item> {
    let raw = UnsafeMutableRawPointer(leafSlots + slotCapacity)
    return (Self.itemsNeedRealignment ? raw.alignedUp(for: Item.self) : raw).assumingMemoryBound(to: Item.self)
  }

  /// Leaf: the entry at `position` of the hash order.
  @inlinable
  @inline(__always)
  func item(at position: Int) -> UnsafeMutablePointer<Item> { items + Int(leafSlots[position].item) }

  /// Leaf: the hash at `position` of the hash order.
  @inlinable
  @inline(__always)
  func leafHash(_ position: Int) -> UInt64 { leafSlots[position].hash }

  /// Internal: the child slots.
  @inlinable
  @inline(__always)
  var branchSlots: UnsafeMutablePointer<Slot> { UnsafeMutableRawPointer(base).assumingMemoryBound(to: Slot.self) }

  /// Child `i` without retaining it, for read-only descents: the parent (kept alive by the
  /// caller) holds it. Retaining would write the child's reference count, touching its header
  /// line, a cache miss the search itself does not need.
  @inlinable
  @inline(__always)
  func unretainedChild(_ i: Int) -> Unmanaged<_HashNode> {
    UnsafeRawPointer(branchSlots + i).load(as: Unmanaged<_HashNode>.self)
  }

  /// The header, through its address: `header` is a stored class property, and each access
  /// to one pays a dynamic exclusivity check (two runtime calls), which cost more than the
  /// search itself.
  @inlinable
  @inline(__always)
  var headerPointer: UnsafeMutablePointer<_HashNodeHeader> { withUnsafeMutablePointerToHeader { $0 } }

  /// Entries in the subtree.
  @inlinable
  @inline(__always)
  var total: Int {
    get { headerPointer.pointee.total }
    set { headerPointer.pointee.total = newValue }
  }

  @inlinable
  var minHash: UInt64 { isLeaf ? leafSlots[0].hash : branchSlots[0].minHash }

  /// The smallest hash of slot `i` (either kind).
  @inlinable
  func slotHash(_ i: Int) -> UInt64 { isLeaf ? leafSlots[i].hash : branchSlots[i].minHash }

  /// A copy holding the same slots (retaining entries or children) with room for `capacity`.
  @inlinable
  func copy(capacity newCapacity: Int) -> _HashNode {
    let n = count
    let node = Self.make(height: height, capacity: Swift.max(newCapacity, n))
    if isLeaf {
      node.leafSlots.initialize(from: leafSlots, count: n)
      _copyElements(from: items, to: node.items, count: n)
    } else {
      _copyElements(from: branchSlots, to: node.branchSlots, count: n)
    }
    node.count = n
    node.total = total
    return node
  }

  /// Moves this node's slots into a new node with room for `capacity` (this one is left empty).
  @inlinable
  func moved(capacity newCapacity: Int) -> _HashNode {
    let n = count
    let node = Self.make(height: height, capacity: Swift.max(newCapacity, n))
    if isLeaf {
      node.leafSlots.moveInitialize(from: leafSlots, count: n)
      node.items.moveInitialize(from: items, count: n)
    } else {
      node.branchSlots.moveInitialize(from: branchSlots, count: n)
    }
    node.count = n
    node.total = total
    count = 0
    total = 0
    return node
  }
}

// MARK: - Searching

extension _HashNode {
  /// The first leaf slot whose hash is `>= hash`, starting from the slot interpolation expects
  /// within `low...high` (the hash range this node covers) among `count` slots.
  @inlinable
  @inline(__always)
  func lowerBound(_ hash: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    _SortedSearch.lowerBound(
      UnsafePointer(base), stride: MemoryLayout<_HashLeafSlot>.stride >> 3, count: n, hash,
      guess: _SortedSearch.guess(hash, low: low, high: high, count: n))
  }

  /// The child that holds (or would hold) entries with `hash`: the last one whose smallest hash
  /// is `<= hash`, or 0.
  @inlinable
  @inline(__always)
  func childIndex(forHash hash: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    _SortedSearch.lastNotAbove(
      UnsafePointer(base + 1), stride: MemoryLayout<Slot>.stride >> 3, count: n, hash,
      guess: _SortedSearch.guess(hash, low: low, high: high, count: n))
  }

  /// The upper end of the hash range of child `i`, given the upper end of this node's.
  @inlinable
  @inline(__always)
  func childHigh(_ i: Int, high: UInt64, count n: Int) -> UInt64 {
    i + 1 < n ? branchSlots[i + 1].minHash &- 1 : high
  }

  /// The position (in hash order) of `key` (with `hash`) in this leaf, if present.
  @inlinable
  @inline(__always)
  func entryIndex(of key: Key, hash: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int? {
    var position = lowerBound(hash, low: low, high: high, count: n)
    while position < n, leafSlots[position].hash == hash {
      if item(at: position).pointee.key == key { return position }
      position &+= 1
    }
    return nil
  }
}

// MARK: - Editing

extension _HashNode {
  /// Inserts the entry at `item` at position `i` of the hash order of a leaf with a free slot,
  /// moving it out of `item`.
  @inlinable
  func leafInsert(at i: Int, hash: UInt64, moving item: UnsafeMutablePointer<Item>) {
    let n = count
    (leafSlots + i + 1).moveInitialize(from: leafSlots + i, count: n - i)
    (leafSlots + i).initialize(to: _HashLeafSlot(hash: hash, item: n))
    (items + n).moveInitialize(from: item, count: 1)
    count = n + 1
    total &+= 1
  }

  /// Removes the leaf entry at position `i` of the hash order. The last entry of the storage
  /// moves into the hole, so the storage stays dense.
  @inlinable
  func leafRemove(at i: Int) -> Item {
    let n = count
    let hole = Int(leafSlots[i].item)
    let removed = (items + hole).move()
    (leafSlots + i).moveInitialize(from: leafSlots + i + 1, count: n - i - 1)
    let last = n - 1
    if hole != last {
      (items + hole).moveInitialize(from: items + last, count: 1)
      var j = 0
      while leafSlots[j].item != UInt32(truncatingIfNeeded: last) { j &+= 1 }
      leafSlots[j].item = UInt32(truncatingIfNeeded: hole)
    }
    count = last
    total &-= 1
    return removed
  }

  /// Appends an entry after all others in hash order (building).
  @inlinable
  func leafAppend(hash: UInt64, _ initialize: (UnsafeMutablePointer<Item>) -> Void) {
    let n = count
    (leafSlots + n).initialize(to: _HashLeafSlot(hash: hash, item: n))
    initialize(items + n)
    count = n + 1
    total = n + 1
  }

  /// This leaf's entries moved into two new leaves (stored in hash order), split at position
  /// `split`, each with room for at least `capacity` entries and one more than it holds; this
  /// leaf is left empty.
  @inlinable
  func leafSplit(at split: Int, capacity newCapacity: Int) -> (lower: _HashNode, upper: _HashNode) {
    // A leaf grown past the usual capacity for a run of equal hashes may split into a part
    // larger than that: each part gets room for what it holds plus the entry being inserted.
    let lower = Self.make(height: 0, capacity: Swift.max(newCapacity, split + 1))
    let upper = Self.make(height: 0, capacity: Swift.max(newCapacity, count - split + 1))
    for position in 0..<count {
      (position < split ? lower : upper).leafAppend(hash: leafSlots[position].hash) {
        $0.moveInitialize(from: item(at: position), count: 1)
      }
    }
    count = 0
    total = 0
    return (lower, upper)
  }

  /// The entries of leaves `parts` (in order), moved into new leaves split at the given
  /// boundaries of their combined hash order. The old leaves are left empty.
  @inlinable
  static func relaidLeaves(_ parts: [_HashNode], splits: [Int], capacity: Int) -> [_HashNode] {
    var result: [_HashNode] = []
    var current = make(height: 0, capacity: capacity)
    var position = 0
    var nextSplit = 0
    for part in parts {
      for i in 0..<part.count {
        if nextSplit < splits.count, position == splits[nextSplit] {
          result.append(current)
          current = make(height: 0, capacity: capacity)
          nextSplit += 1
        }
        current.leafAppend(hash: part.leafSlots[i].hash) { $0.moveInitialize(from: part.item(at: i), count: 1) }
        position += 1
      }
      part.count = 0
      part.total = 0
    }
    result.append(current)
    return result
  }

  /// Appends a child (bulk building and splitting).
  @inlinable
  func branchAppend(_ child: _HashNode) {
    let n = count
    (branchSlots + n).initialize(to: Slot(child))
    count = n + 1
    total &+= child.total
  }

  /// Inserts `child` at slot `i` of an internal node with a free slot (its entries are already
  /// counted in `total`).
  @inlinable
  func branchInsert(_ child: _HashNode, at i: Int) {
    let n = count
    (branchSlots + i + 1).moveInitialize(from: branchSlots + i, count: n - i)
    (branchSlots + i).initialize(to: Slot(child))
    count = n + 1
  }

  /// Removes child `i` (its entries stay counted in `total`; the caller adjusts).
  @inlinable
  func branchRemove(at i: Int) -> _HashNode {
    let n = count
    let child = (branchSlots + i).move().child
    (branchSlots + i).moveInitialize(from: branchSlots + i + 1, count: n - i - 1)
    count = n - 1
    return child
  }

  /// Brings slot `i`'s smallest hash and count up to date with its child.
  @inlinable
  @inline(__always)
  func refreshSlot(_ i: Int) {
    let child = branchSlots[i].child
    branchSlots[i].minHash = child.minHash
    branchSlots[i].count = child.count
  }

  /// A split point near the middle of a leaf that does not separate equal hashes; nil when every
  /// hash is equal.
  @inlinable
  func leafSplitPoint() -> Int? {
    let n = count
    let middle = n / 2
    var offset = 0
    while offset < n {
      let up = middle + offset
      if up > 0, up < n, leafSlots[up - 1].hash != leafSlots[up].hash { return up }
      let down = middle - offset
      if down > 0, down < n, leafSlots[down - 1].hash != leafSlots[down].hash { return down }
      offset += 1
    }
    return nil
  }

  /// Moves child slots `split...` of an internal node into a new node of `capacity` slots and
  /// returns it.
  @inlinable
  func splitOff(at split: Int, capacity newCapacity: Int) -> _HashNode {
    precondition(!isLeaf, "_HashNode.splitOff: leaves are split by leafMovingOut")
    let n = count
    let upper = Self.make(height: height, capacity: newCapacity)
    upper.branchSlots.moveInitialize(from: branchSlots + split, count: n - split)
    var moved = 0
    for i in 0..<(n - split) { moved &+= upper.branchSlots[i].child.total }
    upper.total = moved
    upper.count = n - split
    count = split
    total &-= upper.total
    return upper
  }

  /// Moves `k` child slots of internal sibling `source` starting at `start` into this node at
  /// `position` (this node must have room), updating both totals.
  @inlinable
  func transfer(_ k: Int, from source: _HashNode, at start: Int, to position: Int) {
    precondition(!isLeaf, "_HashNode.transfer: leaves are relaid by relaidLeaves")
    guard k > 0 else { return }
    let n = count
    let m = source.count
    var moved = 0
    for i in start..<(start + k) { moved &+= source.branchSlots[i].child.total }
    (branchSlots + position + k).moveInitialize(from: branchSlots + position, count: n - position)
    (branchSlots + position).moveInitialize(from: source.branchSlots + start, count: k)
    (source.branchSlots + start).moveInitialize(from: source.branchSlots + start + k, count: m - start - k)
    count = n + k
    source.count = m - k
    total &+= moved
    source.total &-= moved
  }
}
