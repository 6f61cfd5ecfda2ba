@usableFromInline
struct _HashNodeHeader {
  /// Entries (leaf) or children (internal).
  @usableFromInline
  var count: Int32
  /// Slots allocated.
  @usableFromInline
  var capacity: Int32
  @usableFromInline
  var isLeaf: Bool
  /// Entries in the subtree.
  @usableFromInline
  var total: Int

  @inlinable
  init(count: Int32, capacity: Int32, isLeaf: Bool, total: Int) {
    self.count = count
    self.capacity = capacity
    self.isLeaf = isLeaf
    self.total = total
  }
}

/// A node of a ``_HashTree`` in one allocation: a header, then the hashes (leaf: of its
/// entries, sorted; internal: the smallest hash under each child), then the entries (leaf) or
/// child references (internal), all inline.
///
/// Hashes sit apart from the entries so that a search reads a compact run of `UInt64`s; with
/// the interpolated search (hashes are evenly spread) that is usually one cache line, then one
/// more for the entry found.
///
/// Like ``_OrderedNode``, nodes are shared between snapshots and mutated in place only while
/// uniquely referenced (path copying otherwise), which is what makes ``_HashTree``'s
/// `@unchecked Sendable` sound (`ManagedBuffer` itself is not `Sendable`).
@usableFromInline
final class _HashNode<Key: Hashable & Sendable, Value: Sendable>: ManagedBuffer<_HashNodeHeader, UInt64> {
  @inlinable
  deinit {
    let count = Int(header.count)
    if header.isLeaf {
      items.deinitialize(count: count)
    } else {
      children.deinitialize(count: count)
    }
  }
}

// MARK: - Layout

extension _HashNode {
  @usableFromInline
  typealias Item = _HashItem<Key, Value>

  @inlinable
  @inline(__always)
  static var itemsNeedRealignment: Bool { MemoryLayout<Item>.alignment > 8 }

  /// A new, empty node.
  @inlinable
  static func make(isLeaf: Bool, capacity: Int) -> _HashNode {
    let bytes = capacity * 8
      + (isLeaf
        ? (itemsNeedRealignment ? MemoryLayout<Item>.alignment : 0) + capacity * MemoryLayout<Item>.stride
        : capacity * MemoryLayout<_HashNode>.stride)
    let buffer = Self.create(minimumCapacity: (bytes + 7) >> 3) { _ in
      _HashNodeHeader(count: 0, capacity: Int32(capacity), isLeaf: isLeaf, total: 0)
    }
    let node = unsafeDowncast(buffer, to: _HashNode.self)
    if isLeaf {
      UnsafeMutableRawPointer(node.items).bindMemory(to: Item.self, capacity: capacity)
    } else {
      UnsafeMutableRawPointer(node.children).bindMemory(to: _HashNode.self, capacity: capacity)
    }
    return node
  }

  /// Leaf: the entries' hashes; internal: each child's smallest hash.
  @inlinable
  @inline(__always)
  var hashes: UnsafeMutablePointer<UInt64> { withUnsafeMutablePointerToElements { $0 } }

  @inlinable
  @inline(__always)
  var items: UnsafeMutablePointer<Item> {
    let raw = UnsafeMutableRawPointer(hashes + slotCapacity)
    return (Self.itemsNeedRealignment ? raw.alignedUp(for: Item.self) : raw).assumingMemoryBound(to: Item.self)
  }

  @inlinable
  @inline(__always)
  var children: UnsafeMutablePointer<_HashNode> {
    UnsafeMutableRawPointer(hashes + slotCapacity).assumingMemoryBound(to: _HashNode.self)
  }

  @inlinable
  @inline(__always)
  var count: Int {
    get { Int(header.count) }
    set { header.count = Int32(truncatingIfNeeded: newValue) }
  }

  @inlinable
  @inline(__always)
  var slotCapacity: Int { Int(header.capacity) }

  @inlinable
  @inline(__always)
  var isLeaf: Bool { header.isLeaf }

  /// Entries in the subtree.
  @inlinable
  @inline(__always)
  var total: Int {
    get { header.total }
    set { header.total = newValue }
  }

  @inlinable
  var minHash: UInt64 { hashes[0] }

  /// A copy holding the same slots (retaining entries or children) with room for `capacity`.
  @inlinable
  func copy(capacity newCapacity: Int) -> _HashNode {
    let n = count
    let node = Self.make(isLeaf: isLeaf, capacity: Swift.max(newCapacity, n))
    node.hashes.initialize(from: hashes, count: n)
    if isLeaf {
      node.items.initialize(from: items, count: n)
    } else {
      node.children.initialize(from: children, count: n)
    }
    node.count = n
    node.total = total
    return node
  }

  /// Moves this node's slots into a new node with room for `capacity` (this one is left empty).
  @inlinable
  func moved(capacity newCapacity: Int) -> _HashNode {
    let n = count
    let node = Self.make(isLeaf: isLeaf, capacity: Swift.max(newCapacity, n))
    node.hashes.moveInitialize(from: hashes, count: n)
    if isLeaf {
      node.items.moveInitialize(from: items, count: n)
    } else {
      node.children.moveInitialize(from: children, count: n)
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
  /// The first slot whose hash is `>= hash`, starting from the slot interpolation expects
  /// within `low...high` (the hash range this node covers).
  @inlinable
  @inline(__always)
  func lowerBound(_ hash: UInt64, low: UInt64, high: UInt64) -> Int {
    let n = count
    return _SortedSearch.lowerBound(
      hashes, stride: 1, count: n, hash, guess: _SortedSearch.guess(hash, low: low, high: high, count: n))
  }

  /// The child that holds (or would hold) entries with `hash`: the last one whose smallest hash
  /// is `<= hash`, or 0.
  @inlinable
  @inline(__always)
  func childIndex(forHash hash: UInt64, low: UInt64, high: UInt64) -> Int {
    let n = count
    return _SortedSearch.lastNotAbove(
      hashes, stride: 1, count: n, hash, guess: _SortedSearch.guess(hash, low: low, high: high, count: n))
  }

  /// The upper end of the hash range of child `i`, given the upper end of this node's.
  @inlinable
  @inline(__always)
  func childHigh(_ i: Int, high: UInt64) -> UInt64 {
    i + 1 < count ? hashes[i + 1] &- 1 : high
  }

  /// The position of `key` (with `hash`) in this leaf, if present.
  @inlinable
  func entryIndex(of key: Key, hash: UInt64, low: UInt64, high: UInt64) -> Int? {
    let n = count
    var position = lowerBound(hash, low: low, high: high)
    while position < n, hashes[position] == hash {
      if items[position].key == key { return position }
      position &+= 1
    }
    return nil
  }
}

// MARK: - Editing

extension _HashNode {
  /// Inserts an entry at slot `i` of a leaf with a free slot.
  @inlinable
  func leafInsert(at i: Int, hash: UInt64, item: __owned Item) {
    let n = count
    (hashes + i + 1).moveInitialize(from: hashes + i, count: n - i)
    (items + i + 1).moveInitialize(from: items + i, count: n - i)
    (hashes + i).initialize(to: hash)
    (items + i).initialize(to: item)
    count = n + 1
    total &+= 1
  }

  /// Inserts the entry at `item` at slot `i` of a leaf with a free slot, moving it out of
  /// `item`.
  @inlinable
  func leafInsert(at i: Int, hash: UInt64, moving item: UnsafeMutablePointer<Item>) {
    let n = count
    (hashes + i + 1).moveInitialize(from: hashes + i, count: n - i)
    (items + i + 1).moveInitialize(from: items + i, count: n - i)
    (hashes + i).initialize(to: hash)
    (items + i).moveInitialize(from: item, count: 1)
    count = n + 1
    total &+= 1
  }

  /// Removes leaf entry `i`.
  @inlinable
  func leafRemove(at i: Int) -> Item {
    let n = count
    let item = (items + i).move()
    (items + i).moveInitialize(from: items + i + 1, count: n - i - 1)
    (hashes + i).moveInitialize(from: hashes + i + 1, count: n - i - 1)
    count = n - 1
    total &-= 1
    return item
  }

  /// Appends a child (bulk building and splitting).
  @inlinable
  func branchAppend(_ child: _HashNode) {
    let n = count
    (hashes + n).initialize(to: child.minHash)
    (children + n).initialize(to: child)
    count = n + 1
    total &+= child.total
  }

  /// Inserts `child` at slot `i` of an internal node with a free slot (its entries are already
  /// counted in `total`).
  @inlinable
  func branchInsert(_ child: _HashNode, at i: Int) {
    let n = count
    (hashes + i + 1).moveInitialize(from: hashes + i, count: n - i)
    (children + i + 1).moveInitialize(from: children + i, count: n - i)
    (hashes + i).initialize(to: child.minHash)
    (children + i).initialize(to: child)
    count = n + 1
  }

  /// Removes child `i` (its entries stay counted in `total`; the caller adjusts).
  @inlinable
  func branchRemove(at i: Int) -> _HashNode {
    let n = count
    let child = (children + i).move()
    (children + i).moveInitialize(from: children + i + 1, count: n - i - 1)
    (hashes + i).moveInitialize(from: hashes + i + 1, count: n - i - 1)
    count = n - 1
    return child
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
      if up > 0, up < n, hashes[up - 1] != hashes[up] { return up }
      let down = middle - offset
      if down > 0, down < n, hashes[down - 1] != hashes[down] { return down }
      offset += 1
    }
    return nil
  }

  /// Moves slots `split...` into a new node of `capacity` slots and returns it.
  @inlinable
  func splitOff(at split: Int, capacity newCapacity: Int) -> _HashNode {
    let n = count
    let upper = Self.make(isLeaf: isLeaf, capacity: newCapacity)
    upper.hashes.moveInitialize(from: hashes + split, count: n - split)
    if isLeaf {
      upper.items.moveInitialize(from: items + split, count: n - split)
      upper.total = n - split
    } else {
      upper.children.moveInitialize(from: children + split, count: n - split)
      var moved = 0
      for i in 0..<(n - split) { moved &+= upper.children[i].total }
      upper.total = moved
    }
    upper.count = n - split
    count = split
    total &-= upper.total
    return upper
  }

  /// Moves `k` slots of sibling `source` starting at `start` into this node at `position`
  /// (this node must have room), updating both totals.
  @inlinable
  func transfer(_ k: Int, from source: _HashNode, at start: Int, to position: Int) {
    guard k > 0 else { return }
    let n = count
    let m = source.count
    var moved = k
    if !isLeaf {
      moved = 0
      for i in start..<(start + k) { moved &+= source.children[i].total }
    }
    (hashes + position + k).moveInitialize(from: hashes + position, count: n - position)
    (hashes + position).moveInitialize(from: source.hashes + start, count: k)
    (source.hashes + start).moveInitialize(from: source.hashes + start + k, count: m - start - k)
    if isLeaf {
      (items + position + k).moveInitialize(from: items + position, count: n - position)
      (items + position).moveInitialize(from: source.items + start, count: k)
      (source.items + start).moveInitialize(from: source.items + start + k, count: m - start - k)
    } else {
      (children + position + k).moveInitialize(from: children + position, count: n - position)
      (children + position).moveInitialize(from: source.children + start, count: k)
      (source.children + start).moveInitialize(from: source.children + start + k, count: m - start - k)
    }
    count = n + k
    source.count = m - k
    total &+= moved
    source.total &-= moved
  }
}
