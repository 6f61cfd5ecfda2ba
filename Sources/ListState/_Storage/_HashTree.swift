// The nodes of a `_HashTree` and the searches, edits and descents that work on them.
//
// Everything that reaches into a node's memory lives in this file. Its layout accessors are
// `@_transparent`, and mandatory inlining only sees bodies in the same file when a client
// builds this package without whole-module optimization (every debug build of an app): kept
// here, the accessors cost a few instructions there instead of a call each — and a call into
// generic code looks up the metadata of every generic type it names, which in a debug build
// costs more than the search it serves. The descents below are written with the same aim:
// one function per operation where possible, nodes reached by address (no retains, no generic
// closure-taking accessors), and the entries' type named once per function.

@usableFromInline
struct _HashNodeHeader {
  @usableFromInline
  var shape: _TreeNodeShape
  /// Entries in the subtree.
  @usableFromInline
  var total: Int

  @inlinable
  init(count: Int32, capacity: Int32, height: Int32, total: Int) {
    self.shape = _TreeNodeShape(count: count, capacity: capacity, height: height)
    self.total = total
  }
}

/// One child of an internal ``_HashNode``: the child, its smallest hash, and its slot count.
/// Keeping the count here means a search of the child can start (at its interpolated slot)
/// without first reading the child's header: at a million keys every level is a cache miss, and
/// this removes one dependent miss per level. The child comes first: read-only descents load
/// it as an unretained reference from offset 0 (see ``_HashNodeAddress/child(_:)``).
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
  @inline(__always)
  init(hash: UInt64, item: Int) {
    self.hash = hash
    self.item = UInt32(item)
    self._unused = 0
  }
}

/// A ``_HashNode`` by address: its header and slots, read and written without retaining the
/// node and without naming its generic type (which, in unspecialized code, means a metadata
/// lookup per function). Valid while something else keeps the node alive.
///
/// The offsets are `ManagedBuffer`'s: the header follows the object header (a metadata
/// pointer and a reference count, two words), and the elements follow the header, aligned for
/// `UInt64`.
@usableFromInline
struct _HashNodeAddress {
  @usableFromInline
  let raw: UnsafeMutableRawPointer

  @_transparent
  @usableFromInline
  init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }

  @_transparent
  @usableFromInline
  init<Key, Value>(_ node: _HashNode<Key, Value>) { raw = Unmanaged.passUnretained(node).toOpaque() }

  @_transparent
  @usableFromInline
  static var headerOffset: Int { MemoryLayout<Int>.size &* 2 }

  @_transparent
  @usableFromInline
  static var elementsOffset: Int {
    let alignment = MemoryLayout<UInt64>.alignment
    return (headerOffset &+ MemoryLayout<_HashNodeHeader>.size &+ alignment &- 1) & (0 &- alignment)
  }

  @_transparent
  @usableFromInline
  var header: UnsafeMutablePointer<_HashNodeHeader> {
    (raw + Self.headerOffset).assumingMemoryBound(to: _HashNodeHeader.self)
  }

  /// Entries (leaf) or children (internal).
  @_transparent
  @usableFromInline
  var count: Int {
    get { Int(header.pointee.shape.count) }
    nonmutating set { header.pointee.shape.count = Int32(newValue) }
  }

  /// Slots allocated.
  @_transparent
  @usableFromInline
  var capacity: Int { Int(header.pointee.shape.capacity) }

  @_transparent
  @usableFromInline
  var height: Int { Int(header.pointee.shape.height) }

  @_transparent
  @usableFromInline
  var isLeaf: Bool { header.pointee.shape.height == 0 }

  /// Entries in the subtree.
  @_transparent
  @usableFromInline
  var total: Int {
    get { header.pointee.total }
    nonmutating set { header.pointee.total = newValue }
  }

  /// The slots: leaf slots, or branch slots (`_HashBranchSlot`, of a layout that does not
  /// depend on its generic parameters).
  @_transparent
  @usableFromInline
  var base: UnsafeMutableRawPointer { raw + Self.elementsOffset }

  /// Leaf: the slots, in hash order.
  @_transparent
  @usableFromInline
  var leafSlots: UnsafeMutablePointer<_HashLeafSlot> { base.assumingMemoryBound(to: _HashLeafSlot.self) }

  /// The slots as words, for the searches: a leaf slot's hash, or a branch slot's smallest
  /// hash (after the child reference), every `stride` words.
  @_transparent
  @usableFromInline
  var words: UnsafePointer<UInt64> { UnsafePointer(base.assumingMemoryBound(to: UInt64.self)) }

  /// Leaf: the entry storage (before any realignment for over-aligned entries).
  @_transparent
  @usableFromInline
  var itemsBase: UnsafeMutableRawPointer { base + capacity &* MemoryLayout<_HashLeafSlot>.stride }

  /// Internal: the child of slot `i`, unretained. (A raw load: the slot's memory is bound to
  /// the generic slot type, which this non-generic code does not name.)
  @_transparent
  @usableFromInline
  func child(_ i: Int) -> _HashNodeAddress {
    _HashNodeAddress(UnsafeRawPointer(base + i &* Self.branchSlotStride).load(fromByteOffset: 0, as: UnsafeMutableRawPointer.self))
  }

  /// Internal: the smallest hash of child `i`.
  @_transparent
  @usableFromInline
  func minHash(ofChild i: Int) -> UInt64 { words[i &* (Self.branchSlotStride >> 3) &+ 1] }

  /// Internal: the slot count of child `i`.
  @_transparent
  @usableFromInline
  func count(ofChild i: Int) -> Int { Int(bitPattern: UInt(words[i &* (Self.branchSlotStride >> 3) &+ 2])) }

  /// The bytes of a branch slot: a reference, a hash and a count, whatever the generic
  /// parameters.
  @_transparent
  @usableFromInline
  static var branchSlotStride: Int { MemoryLayout<_HashBranchSlot<Int, Int>>.stride }

  /// The first leaf slot whose hash is `>= hash`, starting from the slot interpolation expects
  /// within `low...high` (the hash range this node covers) among `count` slots.
  @_transparent
  @usableFromInline
  func leafLowerBound(_ hash: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    Self.lowerBound(
      words, stride: MemoryLayout<_HashLeafSlot>.stride >> 3, count: n, hash,
      low: low, high: high)
  }

  /// Internal: the child that holds (or would hold) entries with `hash`: the last one whose
  /// smallest hash is `<= hash`, or 0.
  @_transparent
  @usableFromInline
  func childIndex(forHash hash: UInt64, low: UInt64, high: UInt64, count n: Int) -> Int {
    Self.lastNotAbove(
      words + 1, stride: Self.branchSlotStride >> 3, count: n, hash,
      low: low, high: high)
  }

  /// Internal: the upper end of the hash range of child `i`, given the upper end of this node's.
  @_transparent
  @usableFromInline
  func childHigh(_ i: Int, high: UInt64, count n: Int) -> UInt64 {
    i &+ 1 < n ? minHash(ofChild: i &+ 1) &- 1 : high
  }

  /// One level of a read-only descent: the child whose hash range holds `hash`, with `low`,
  /// `high` and `count` narrowed to that child's range and slot count.
  @_transparent
  @usableFromInline
  func descend(toward hash: UInt64, low: inout UInt64, high: inout UInt64, count: inout Int) -> _HashNodeAddress {
    let n = count
    let i = childIndex(forHash: hash, low: low, high: high, count: n)
    low = minHash(ofChild: i)
    high = childHigh(i, high: high, count: n)
    count = self.count(ofChild: i)
    return child(i)
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

/// A node of a ``_HashTree`` in one allocation: a header, then (leaf) slots of hashes in hash
/// order and the entries, or (internal) the child slots, all inline.
///
/// A leaf keeps its entries unordered and dense, each slot naming its entry: inserting or
/// removing shifts 16-byte slots, never the entries (records of tens of bytes, whose moving
/// would touch many more cache lines per edit). A search reads a compact run of slots; with
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
    let node = _HashNodeAddress(self)
    if node.isLeaf {
      items.deinitialize(count: node.count)  // dense: slots 0..<count
    } else {
      branchSlots.deinitialize(count: node.count)
    }
  }
}

/// The typed layout accessors of ``_HashNode``, in a protocol extension so that they can be
/// `@_transparent` (which a class member cannot be).
@usableFromInline
protocol _HashNodeLayout: AnyObject {
  associatedtype Key: Hashable & Sendable
  associatedtype Value: Sendable
}

extension _HashNode: _HashNodeLayout {}

extension _HashNodeLayout {
  @_transparent
  @usableFromInline
  var address: _HashNodeAddress { _HashNodeAddress(Unmanaged.passUnretained(self).toOpaque()) }

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

  /// Entries in the subtree.
  @_transparent
  @usableFromInline
  var total: Int {
    get { address.total }
    set { address.total = newValue }
  }

  /// Leaf: the slots, in hash order.
  @_transparent
  @usableFromInline
  var leafSlots: UnsafeMutablePointer<_HashLeafSlot> { address.leafSlots }

  /// Leaf: the entries (dense, in no particular order; see the slots).
  @_transparent
  @usableFromInline
  var items: UnsafeMutablePointer<_HashItem<Key, Value>> {
    _HashItem<Key, Value>.storage(of: address).assumingMemoryBound(to: _HashItem<Key, Value>.self)
  }

  /// Leaf: the entry at `position` of the hash order.
  @_transparent
  @usableFromInline
  func item(at position: Int) -> UnsafeMutablePointer<_HashItem<Key, Value>> {
    _HashItem<Key, Value>.entry(Int(leafSlots[position].item), of: _HashItem<Key, Value>.storage(of: address))
  }

  /// Leaf: the hash at `position` of the hash order.
  @_transparent
  @usableFromInline
  func leafHash(_ position: Int) -> UInt64 { leafSlots[position].hash }

  /// Internal: the child slots.
  @_transparent
  @usableFromInline
  var branchSlots: UnsafeMutablePointer<_HashBranchSlot<Key, Value>> {
    address.base.assumingMemoryBound(to: _HashBranchSlot<Key, Value>.self)
  }

  @_transparent
  @usableFromInline
  var minHash: UInt64 { address.words[isLeaf ? 0 : 1] }

  /// The smallest hash of slot `i` (either kind).
  @_transparent
  @usableFromInline
  func slotHash(_ i: Int) -> UInt64 { isLeaf ? leafSlots[i].hash : address.minHash(ofChild: i) }
}

// MARK: - Making and copying

extension _HashNode {
  @usableFromInline
  typealias Item = _HashItem<Key, Value>
  @usableFromInline
  typealias Slot = _HashBranchSlot<Key, Value>

  /// A new, empty node.
  @inlinable
  static func make(height: Int, capacity: Int) -> _HashNode {
    let bytes =
      height == 0
      ? capacity * MemoryLayout<_HashLeafSlot>.stride
        + (MemoryLayout<Item>.alignment > 8 ? MemoryLayout<Item>.alignment : 0) + capacity * MemoryLayout<Item>.stride
      : capacity * MemoryLayout<Slot>.stride
    let buffer = Self.create(minimumCapacity: (bytes + 7) >> 3) { _ in
      _HashNodeHeader(count: 0, capacity: Int32(capacity), height: Int32(height), total: 0)
    }
    let node = unsafeDowncast(buffer, to: _HashNode.self)
    if height == 0 {
      node.address.base.bindMemory(to: _HashLeafSlot.self, capacity: capacity)
      UnsafeMutableRawPointer(node.items).bindMemory(to: Item.self, capacity: capacity)
    } else {
      node.address.base.bindMemory(to: Slot.self, capacity: capacity)
    }
    return node
  }

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

// MARK: - Editing

extension _HashNode {
  /// Appends a slot with `hash` after all others in hash order and returns the (uninitialized)
  /// entry it names, for the caller to initialize (building).
  @inlinable
  func leafAppend(hash: UInt64) -> UnsafeMutablePointer<Item> {
    let leaf = address
    let n = leaf.count
    (leaf.leafSlots + n).initialize(to: _HashLeafSlot(hash: hash, item: n))
    leaf.count = n + 1
    leaf.total = n + 1
    return Item.entry(n, of: Item.storage(of: leaf))
  }

  /// Moves the entries of `source` at positions `range` of its hash order to the end of this
  /// leaf (which has room), in that order.
  @inlinable
  func leafAppend(movingFrom source: _HashNode, _ range: Range<Int>) {
    let leaf = address
    let from = source.address
    let slots = leaf.leafSlots
    let sourceSlots = from.leafSlots
    let items = Item.storage(of: leaf)
    let sourceItems = Item.storage(of: from)
    // Whole entries move, one call each; the entry type's stride is read here, before the
    // loop, so that unspecialized code looks its metadata up once rather than per entry.
    let stride = MemoryLayout<Item>.stride
    var n = leaf.count
    var position = range.lowerBound
    while position < range.upperBound {
      (slots + n).initialize(to: _HashLeafSlot(hash: sourceSlots[position].hash, item: n))
      (items + n &* stride).assumingMemoryBound(to: Item.self).moveInitialize(
        from: (sourceItems + Int(sourceSlots[position].item) &* stride).assumingMemoryBound(to: Item.self), count: 1)
      n &+= 1
      position &+= 1
    }
    leaf.count = n
    leaf.total = n
  }

  /// This leaf's entries moved into two new leaves (stored in hash order), split at position
  /// `split`, each with room for at least `capacity` entries and one more than it holds; this
  /// leaf is left empty.
  @inlinable
  func leafSplit(at split: Int, capacity newCapacity: Int) -> (lower: _HashNode, upper: _HashNode) {
    // A leaf grown past the usual capacity for a run of equal hashes may split into a part
    // larger than that: each part gets room for what it holds plus the entry being inserted.
    let n = count
    let lower = Self.make(height: 0, capacity: Swift.max(newCapacity, split + 1))
    let upper = Self.make(height: 0, capacity: Swift.max(newCapacity, n - split + 1))
    lower.leafAppend(movingFrom: self, 0..<split)
    upper.leafAppend(movingFrom: self, split..<n)
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
      var start = 0
      let n = part.count
      while start < n {
        if nextSplit < splits.count, position == splits[nextSplit] {
          result.append(current)
          current = make(height: 0, capacity: capacity)
          nextSplit += 1
        }
        // The run of this part up to the next split (or its end).
        let end = nextSplit < splits.count ? Swift.min(n, start + splits[nextSplit] - position) : n
        current.leafAppend(movingFrom: part, start..<end)
        position += end - start
        start = end
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
    let node = address
    let child = node.child(i)
    let slot = branchSlots + i
    slot.pointee.minHash = child.words[child.isLeaf ? 0 : 1]
    slot.pointee.count = child.count
  }

  /// A split point near the middle of a leaf that does not separate equal hashes; nil when every
  /// hash is equal.
  @inlinable
  func leafSplitPoint() -> Int? {
    let n = count
    let slots = leafSlots
    let middle = n / 2
    var offset = 0
    while offset < n {
      let up = middle + offset
      if up > 0, up < n, slots[up - 1].hash != slots[up].hash { return up }
      let down = middle - offset
      if down > 0, down < n, slots[down - 1].hash != slots[down].hash { return down }
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
    for i in 0..<(n - split) { moved &+= upper.address.child(i).total }
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
    for i in start..<(start + k) { moved &+= source.address.child(i).total }
    (branchSlots + position + k).moveInitialize(from: branchSlots + position, count: n - position)
    (branchSlots + position).moveInitialize(from: source.branchSlots + start, count: k)
    (source.branchSlots + start).moveInitialize(from: source.branchSlots + start + k, count: m - start - k)
    count = n + k
    source.count = m - k
    total &+= moved
    source.total &-= moved
  }
}

// MARK: - Entries by address

extension _HashItem {
  /// The alignment of an entry.
  @_transparent
  @usableFromInline
  static var alignment: Int {
    let a = MemoryLayout<Key>.alignment
    let b = MemoryLayout<Value>.alignment
    return a > b ? a : b
  }

  /// The offset of `value` in an entry: the key's size, aligned for the value (a struct's
  /// stored properties are laid out in order).
  ///
  /// Computed from the key's and the value's layouts rather than read from the entry type's
  /// metadata: in unspecialized code the latter is a run-time lookup per function, the former
  /// a couple of loads from metadata the caller passed in.
  @_transparent
  @usableFromInline
  static var valueOffset: Int {
    let alignment = MemoryLayout<Value>.alignment
    return (MemoryLayout<Key>.size &+ alignment &- 1) & (0 &- alignment)
  }

  /// The distance between entries (the layout's stride, computed as ``valueOffset`` is).
  @_transparent
  @usableFromInline
  static var entryStride: Int {
    let alignment = Self.alignment
    let size = (valueOffset &+ MemoryLayout<Value>.size &+ alignment &- 1) & (0 &- alignment)
    return size > 0 ? size : 1
  }

  /// The entry storage of the leaf at `leaf`: after its slots, aligned for the entries.
  @_transparent
  @usableFromInline
  static func storage(of leaf: _HashNodeAddress) -> UnsafeMutableRawPointer {
    let raw = leaf.itemsBase
    let alignment = Self.alignment
    return alignment > 8 ? raw.alignedUp(toMultipleOf: alignment) : raw
  }

  /// The entry `index` of the storage at `items`.
  @_transparent
  @usableFromInline
  static func entry(_ index: Int, of items: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Self> {
    (items + index &* entryStride).assumingMemoryBound(to: Self.self)
  }

  /// The key of the entry at `entry`.
  @_transparent
  @usableFromInline
  static func key(_ entry: UnsafeMutablePointer<Self>) -> UnsafeMutablePointer<Key> {
    UnsafeMutableRawPointer(entry).assumingMemoryBound(to: Key.self)
  }

  /// The value of the entry at `entry`.
  @_transparent
  @usableFromInline
  static func value(_ entry: UnsafeMutablePointer<Self>) -> UnsafeMutablePointer<Value> {
    (UnsafeMutableRawPointer(entry) + valueOffset).assumingMemoryBound(to: Value.self)
  }

  /// Moves the entry at `source` to the uninitialized `target`, field by field: the entry type
  /// itself goes unnamed (its metadata is a lookup per use in a loop of unspecialized code).
  @_transparent
  @usableFromInline
  static func move(_ source: UnsafeMutablePointer<Self>, to target: UnsafeMutablePointer<Self>) {
    // (`moveInitialize(from:count:)` moves `count` strides, and an empty type's stride is 1:
    // a set's `()` values are not moved at all, or they would overwrite the next entry.)
    if MemoryLayout<Key>.size > 0 { key(target).moveInitialize(from: key(source), count: 1) }
    if MemoryLayout<Value>.size > 0 { value(target).moveInitialize(from: value(source), count: 1) }
  }

  /// Initializes the (uninitialized) entry at `entry` field by field: no entry value is built
  /// and moved.
  @_transparent
  @usableFromInline
  static func initialize(_ entry: UnsafeMutablePointer<Self>, key: Key, value: consuming Value) {
    Self.key(entry).initialize(to: key)
    Self.value(entry).initialize(to: value)
  }
}

// MARK: - The map

/// A persistent hash map: a B+tree of entries ordered by the keys' hashes.
///
/// It stands in for `TreeDictionary` for the item records (and the section records and
/// markers) because it can be **built in bulk**: hashing the keys, sorting by hash and filling
/// leaves bottom-up costs about as much as building a `Dictionary`, whereas inserting into a
/// hash trie one key at a time costs several times more. Lookups descend O(log n) nodes; since
/// hashes are evenly spread, each node is searched from the slot interpolation expects, which
/// is usually the right cache line. Updates copy the path of shared nodes and mutate unique ones
/// in place, so copies are O(1) and a mutation of a copy is O(log n).
///
/// Keys with equal hashes sit next to each other in one leaf (splits never separate them).
///
/// ```swift
/// var map = _HashTree<String, Int>()
/// map.updateValue(1, forKey: "a")
/// map["a"]   // 1
/// ```
@usableFromInline
struct _HashTree<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  @usableFromInline
  typealias Node = _HashNode<Key, Value>
  @usableFromInline
  typealias Entry = _HashEntry<Key, Value>
  @usableFromInline
  typealias Item = _HashItem<Key, Value>
  @usableFromInline
  typealias Slot = _HashBranchSlot<Key, Value>

  /// Entries per leaf (unless a run of equal hashes needs more).
  @inlinable
  static var leafCapacity: Int { 32 }
  /// Children per internal node. Wider than the ordered tree's: lookups of records are the most
  /// frequent descents (interpolation makes a wide node as cheap to search as a narrow one),
  /// while a path copy of this tree (one per edit of a copied snapshot) retains every child of
  /// each copied node.
  @inlinable
  static var internalCapacity: Int { 32 }
  /// The capacity of a map's first leaf (small maps stay small).
  @inlinable
  static var initialLeafCapacity: Int { 4 }
  /// Up to this many keys (in a single leaf), a lookup without a precomputed hash compares
  /// keys instead of hashing: a list's few sections are found without hashing a `String`.
  @inlinable
  static var linearSearchLimit: Int { 16 }

  @usableFromInline
  var root: Node?

  @inlinable
  init() { root = nil }

  /// The number of keys.
  @inlinable
  var count: Int { root?.total ?? 0 }

  @inlinable
  var isEmpty: Bool { root == nil }

  /// The hash the map orders by (the standard library's per-process seeded hash).
  @inlinable
  @inline(__always)
  static func hash(_ key: Key) -> UInt64 { _HashOrder.hash(key) }

  /// Makes `node` uniquely referenced (copying it when shared). The nodes are native Swift
  /// objects, for which this is `isKnownUniquelyReferenced` without its generic call.
  @_transparent
  @usableFromInline
  static func makeUnique(_ node: inout Node) {
    if !_isUnique_native(&node) { node = node.copy(capacity: node.slotCapacity) }
  }

  /// Brings the smallest hash and count of the branch slot at `slot` up to date with its
  /// child (the node at `child`).
  @_transparent
  @usableFromInline
  static func refresh(_ slot: UnsafeMutablePointer<Slot>, from child: _HashNodeAddress) {
    slot.pointee.minHash = child.words[child.isLeaf ? 0 : 1]
    slot.pointee.count = child.count
  }

  /// The value of `key` in the leaf at `leaf`, searched from `position` (the first slot whose
  /// hash is not below `hash`) through the run of equal hashes; nil when absent.
  @_transparent
  @usableFromInline
  static func value(
    of key: Key, _ hash: UInt64, in leaf: _HashNodeAddress, from position: Int, count n: Int
  ) -> UnsafeMutablePointer<Value>? {
    let slots = leaf.leafSlots
    let items = Item.storage(of: leaf)
    var position = position
    while position < n, slots[position].hash == hash {
      let entry = Item.entry(Int(slots[position].item), of: items)
      if Item.key(entry).pointee == key { return Item.value(entry) }
      position &+= 1
    }
    return nil
  }
}

// MARK: - Lookups

extension _HashTree {
  /// The value for `key`, or nil.
  ///
  /// - Complexity: O(log n).
  @inlinable
  subscript(key: Key) -> Value? {
    find(key, hash: Self.hash(key))?.pointee
  }

  /// The address of `key`'s value, nil when absent; valid until the map is next mutated.
  ///
  /// The descent reads, per level, the slot interpolation expects (smallest hash, child and the
  /// child's slot count together) and never a child's header; nodes are reached by address,
  /// without retaining them.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func find(_ key: Key, hash: UInt64) -> UnsafeMutablePointer<Value>? {
    guard let root else { return nil }
    var node = root.address
    var count = node.count
    var height = node.height
    var low: UInt64 = 0
    var high: UInt64 = .max
    while height > 0 {
      node = node.descend(toward: hash, low: &low, high: &high, count: &count)
      height &-= 1
    }
    return Self.value(
      of: key, hash, in: node, from: node.leafLowerBound(hash, low: low, high: high, count: count), count: count)
  }

  /// Like ``find(_:hash:)`` with the key's hash, or nil to let the map hash it if it needs to
  /// (see ``smallMapSlot(of:isSmall:)``).
  @inlinable
  func find(_ key: Key, hash: UInt64?) -> UnsafeMutablePointer<Value>? {
    if let hash { return find(key, hash: hash) }
    var isSmall = false
    if let slot = smallMapSlot(of: key, isSmall: &isSmall) { return Item.value(root!.item(at: slot)) }
    return find(key, hash: Self.hash(key))
  }

  /// Calls `body` with the value for `key` in place (no copy); nil when `key` is absent.
  ///
  /// - Complexity: O(log n), plus `body`.
  @inlinable
  func peek<R>(_ key: Key, _ body: (borrowing Value) throws -> R) rethrows -> R? {
    try peek(key, hash: nil, body)
  }

  /// The slot of `key` when the map is one small leaf and holds a key with the very same
  /// bytes (found without hashing); nil otherwise (`isSmall` tells whether the map was small
  /// enough to try).
  ///
  /// Equal bytes imply equal keys (`==` is reflexive), and an identifier passed around is
  /// usually the same bytes as the stored one (a small `String` is stored inline), so this
  /// finds a section without hashing or calling `String.==` (which, for two different small
  /// strings, costs as much as hashing). When no key has the same bytes the caller searches
  /// by hash as usual.
  @inlinable
  @inline(__always)
  func smallMapSlot(of key: Key, isSmall: inout Bool) -> Int? {
    guard let root, root.isLeaf, root.count <= Self.linearSearchLimit else { return nil }
    isSmall = true
    let leaf = root.address
    let n = leaf.count
    let slots = leaf.leafSlots
    let items = Item.storage(of: leaf)
    return withUnsafeBytes(of: key) { wanted in
      // (The stored keys are compared where they are: one closure per lookup, not per key.)
      var position = 0
      while position < n {
        let stored = UnsafeRawBufferPointer(
          start: Item.key(Item.entry(Int(slots[position].item), of: items)), count: MemoryLayout<Key>.size)
        if _RawBytes.equal(stored, wanted) { return position }
        position &+= 1
      }
      return nil
    }
  }

  /// Like ``peek(_:_:)`` with the key's hash (``hash(_:)``) already computed, or nil to let the
  /// map hash it if it needs to.
  @inlinable
  func peek<R>(_ key: Key, hash: UInt64?, _ body: (borrowing Value) throws -> R) rethrows -> R? {
    guard let value = find(key, hash: hash) else { return nil }
    return try body(value.pointee)
  }

  /// Whether `key` is present.
  @inlinable
  func contains(_ key: Key) -> Bool { find(key, hash: nil) != nil }

  /// Whether `key` (with `hash`, or nil) is present.
  @inlinable
  func contains(_ key: Key, hash: UInt64?) -> Bool { find(key, hash: hash) != nil }

  /// Calls `body` with every key and value (in hash order).
  ///
  /// - Complexity: O(n).
  @inlinable
  func forEach(_ body: (Key, Value) throws -> Void) rethrows {
    guard let root else { return }
    try Self.forEach(root, body)
  }

  @inlinable
  static func forEach(_ node: Node, _ body: (Key, Value) throws -> Void) rethrows {
    if node.isLeaf {
      for i in 0..<node.count { try body(node.item(at: i).pointee.key, node.item(at: i).pointee.value) }
    } else {
      for i in 0..<node.count { try forEach(node.branchSlots[i].child, body) }
    }
  }

  /// Calls `body` with every key (in hash order).
  @inlinable
  func forEachKey(_ body: (Key) throws -> Void) rethrows {
    guard let root else { return }
    try Self.forEachKey(root, body)
  }

  @inlinable
  static func forEachKey(_ node: Node, _ body: (Key) throws -> Void) rethrows {
    if node.isLeaf {
      for i in 0..<node.count { try body(node.item(at: i).pointee.key) }
    } else {
      for i in 0..<node.count { try forEachKey(node.branchSlots[i].child, body) }
    }
  }

  /// Every entry in hash order.
  @inlinable
  var entries: [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(count)
    guard let root else { return result }
    Self.collect(root, into: &result)
    return result
  }

  @inlinable
  static func collect(_ node: Node, into result: inout [Entry]) {
    if node.isLeaf {
      for i in 0..<node.count {
        let item = node.item(at: i)
        result.append(Entry(hash: node.leafHash(i), key: item.pointee.key, value: item.pointee.value))
      }
    } else {
      for i in 0..<node.count { collect(node.branchSlots[i].child, into: &result) }
    }
  }
}

// MARK: - Single-key updates

extension _HashTree {
  /// Inserts or replaces the value for `key`; returns the old value.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func updateValue(_ value: @autoclosure () -> Value, forKey key: Key) -> Value? {
    updateValue(value(), forKey: key, hash: Self.hash(key))
  }

  /// Like ``updateValue(_:forKey:)`` with the key's hash already computed.
  @inlinable
  @discardableResult
  mutating func updateValue(_ value: @autoclosure () -> Value, forKey key: Key, hash: UInt64) -> Value? {
    // The value is an autoclosure so that it is built right where it is stored, once the
    // descent has found the place: passed by value, each level of the recursion copied it (a
    // record copy is several retains, and in unspecialized code a value-witness call).
    let (stored, inserted) = _insert(value, forKey: key, hash: hash)
    if inserted { return nil }
    // Present: the descent changed nothing but the path's uniqueness, and left the address.
    let old = stored.move()
    stored.initialize(to: value())
    return old
  }

  /// Inserts `value` for `key` unless the key is present, in one descent; returns the new
  /// value's address (valid while keys are neither inserted nor removed and the map is not
  /// copied, as for ``uniqueEntry(_:hash:)``), or nil when the key was present (nothing
  /// observable changes, though the path may have been copied; `value` is not evaluated).
  ///
  /// ```swift
  /// map.insertIfAbsent(1, forKey: "a", hash: _HashTree<String, Int>.hash("a"))   // non-nil
  /// map.insertIfAbsent(2, forKey: "a", hash: _HashTree<String, Int>.hash("a"))   // nil; "a" is 1
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func insertIfAbsent(_ value: @autoclosure () -> Value, forKey key: Key, hash: UInt64)
    -> UnsafeMutablePointer<Value>?
  {
    let (stored, inserted) = _insert(value, forKey: key, hash: hash)
    return inserted ? stored : nil
  }

  /// The insertion behind ``updateValue(_:forKey:hash:)`` and
  /// ``insertIfAbsent(_:forKey:hash:)``: inserts an entry for `key` with `value()` unless the
  /// key is present, and returns the address of the key's value, new or not, and whether it
  /// is new. The path to the key is made unique either way.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func _insert(_ value: () -> Value, forKey key: Key, hash: UInt64)
    -> (value: UnsafeMutablePointer<Value>, inserted: Bool)
  {
    guard root != nil else {
      let leaf = Node.make(height: 0, capacity: Self.initialLeafCapacity)
      let entry = leaf.leafAppend(hash: hash)
      Item.initialize(entry, key: key, value: value())
      root = leaf
      return (Item.value(entry), true)
    }
    var stored: UnsafeMutablePointer<Value>? = nil
    var inserted = false
    let (count, height) = (root!.count, root!.height)
    if let upper = Self.insert(
      key, value, hash: hash, into: &root!, count: count, height: height, low: 0, high: .max, stored: &stored,
      inserted: &inserted)
    {
      growRoot(upper)
    }
    return (stored.unsafelyUnwrapped, inserted)
  }

  /// Inserts an entry for `key`, which must be absent, and returns the address of its value,
  /// uninitialized: the caller initializes it before anything else reads or changes the map.
  /// (What a bulk insertion of validated, distinct keys uses: the value is built right where
  /// it is stored, by code that names its type once, not in a closure per key.)
  ///
  /// Top-down, in one descent: a full node is split (a small leaf grown) before the descent
  /// enters it, so nothing is left to do on the way back up, and every node on the path counts
  /// the new entry on the way down.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func insertAbsent(_ key: Key, hash: UInt64) -> UnsafeMutablePointer<Value> {
    Self.insertAbsent(key, hash: hash, in: &root)
  }

  /// ``insertAbsent(_:hash:)`` on the map with root `root`: a static function takes the
  /// key and value types as they are, where a mutating method needs the map type's metadata
  /// (a lookup per call, from a caller's loop in unspecialized code).
  @inlinable
  static func insertAbsent(_ key: Key, hash: UInt64, in root: inout Node?) -> UnsafeMutablePointer<Value> {
    insert(key, hash: hash, in: &root, checking: false).unsafelyUnwrapped
  }

  /// Like ``insertAbsent(_:hash:in:)`` for a key that may be present: then returns nil, and
  /// nothing observable changes (the counts the descent added on the way down are taken back;
  /// nodes it split or copied stay so). A batch of new keys checks for existing ones this way,
  /// in the descents that insert them.
  ///
  /// - Complexity: O(log n).
  @inlinable
  static func insertIfAbsent(_ key: Key, hash: UInt64, in root: inout Node?) -> UnsafeMutablePointer<Value>? {
    insert(key, hash: hash, in: &root, checking: true)
  }

  /// The top-down insertion behind ``insertAbsent(_:hash:in:)`` and
  /// ``insertIfAbsent(_:hash:in:)`` (`checking`: look for an equal key in the leaf).
  @inlinable
  static func insert(_ key: Key, hash: UInt64, in root: inout Node?, checking: Bool) -> UnsafeMutablePointer<Value>? {
    guard root != nil else {
      let leaf = Node.make(height: 0, capacity: Self.initialLeafCapacity)
      let entry = leaf.leafAppend(hash: hash)
      Item.key(entry).initialize(to: key)
      root = leaf
      return Item.value(entry)
    }
    Self.makeUnique(&root!)
    if root!.count == root!.slotCapacity {
      if let upper = Self.makeRoom(in: &root!) {
        let node = Node.make(height: root!.height + 1, capacity: Self.internalCapacity)
        node.branchAppend(root!)
        node.branchAppend(upper)
        root = node
      }
    }
    var node = root!.address
    var low: UInt64 = 0
    var high: UInt64 = .max
    // The slot (in the node above) that counts this node's slots.
    var parentSlot: UnsafeMutablePointer<Slot>? = nil
    while !node.isLeaf {
      node.total &+= 1
      var n = node.count
      var child = node.childIndex(forHash: hash, low: low, high: high, count: n)
      var slot = node.base.assumingMemoryBound(to: Slot.self) + child
      Self.makeUnique(&slot.pointee.child)
      if slot.pointee.count == node.child(child).capacity {
        // Room in the child before entering it (this node has room for a split-off part:
        // it was given some before the descent entered it).
        if let upper = Self.makeRoom(in: &slot.pointee.child) {
          Unmanaged<Node>.fromOpaque(node.raw)._withUnsafeGuaranteedRef { $0.branchInsert(upper, at: child + 1) }
          n &+= 1
          parentSlot?.pointee.count = n
          Self.refresh(slot, from: node.child(child))
          if hash >= (slot + 1).pointee.minHash {
            child &+= 1
            slot += 1
          }
        }
      }
      if hash < slot.pointee.minHash { slot.pointee.minHash = hash }
      low = slot.pointee.minHash
      high = node.childHigh(child, high: high, count: n)
      let next = node.child(child)
      // A leaf gains a slot (its parent's slot counts them); an internal child's slots change
      // only when it splits one of its children, which refreshes this slot then.
      if next.isLeaf { slot.pointee.count &+= 1 }
      parentSlot = slot
      node = next
    }
    let n = node.count
    let slots = node.leafSlots
    let items = Item.storage(of: node)
    var position = node.leafLowerBound(hash, low: low, high: high, count: n)
    // After any run of equal hashes.
    while position < n, slots[position].hash == hash {
      if checking, Item.key(Item.entry(Int(slots[position].item), of: items)).pointee == key {
        uncount(hash, in: root.unsafelyUnwrapped)
        return nil
      }
      position &+= 1
    }
    (slots + position + 1).moveInitialize(from: slots + position, count: n - position)
    (slots + position).initialize(to: _HashLeafSlot(hash: hash, item: n))
    let entry = Item.entry(n, of: items)
    Item.key(entry).initialize(to: key)
    node.count = n &+ 1
    node.total = n &+ 1
    return Item.value(entry)
  }

  /// Takes back the counts a top-down insertion of `hash` added on its way down (the entry
  /// was not inserted after all): the totals of the internal nodes on the path, and the slot
  /// count of the leaf's parent. The path is the insertion's (nodes unique, splits done).
  @inlinable
  static func uncount(_ hash: UInt64, in root: Node) {
    var node = root.address
    var low: UInt64 = 0
    var high: UInt64 = .max
    while !node.isLeaf {
      node.total &-= 1
      let n = node.count
      let child = node.childIndex(forHash: hash, low: low, high: high, count: n)
      let slot = node.base.assumingMemoryBound(to: Slot.self) + child
      low = slot.pointee.minHash
      high = node.childHigh(child, high: high, count: n)
      let next = node.child(child)
      if next.isLeaf { slot.pointee.count &-= 1 }
      node = next
    }
  }

  /// Gives the full node `node` (uniquely referenced) room for one more slot: a leaf below
  /// ``leafCapacity``, or one holding a single run of equal hashes, grows; any other node is
  /// split, and the split-off upper part (for the caller to place after it) is returned.
  @inlinable
  static func makeRoom(in node: inout Node) -> Node? {
    let n = node.count
    if node.isLeaf {
      if n < leafCapacity {
        node = node.moved(capacity: Swift.min(n * 2, leafCapacity))
        return nil
      }
      guard let split = node.leafSplitPoint() else {
        node = node.moved(capacity: n * 2)
        return nil
      }
      let (lower, upper) = node.leafSplit(at: split, capacity: leafCapacity)
      node = lower
      return upper
    }
    return node.splitOff(at: n / 2, capacity: internalCapacity)
  }

  /// Puts the old root and the split-off `upper` half under a new root.
  @inlinable
  mutating func growRoot(_ upper: Node) {
    let node = Node.make(height: root!.height + 1, capacity: Self.internalCapacity)
    node.branchAppend(root!)
    node.branchAppend(upper)
    root = node
  }

  /// Inserts an entry for `key` with `value()` unless an equal key is present; reports the
  /// address of the key's value (new or not) in `stored` and whether it is new in `inserted`.
  /// Returns the split-off upper part when the node overflowed.
  @inlinable
  static func insert(
    _ key: Key, _ value: () -> Value, hash: UInt64, into node: inout Node, count n: Int, height: Int,
    low: UInt64, high: UInt64, stored: inout UnsafeMutablePointer<Value>?, inserted: inout Bool
  ) -> Node? {
    makeUnique(&node)
    let address = node.address
    if height == 0 {
      let slots = address.leafSlots
      var position = address.leafLowerBound(hash, low: low, high: high, count: n)
      let items = Item.storage(of: address)
      while position < n, slots[position].hash == hash {
        let existing = Item.entry(Int(slots[position].item), of: items)
        if Item.key(existing).pointee == key {
          stored = Item.value(existing)
          return nil
        }
        position &+= 1
      }
      var target = node
      var upper: Node? = nil
      if n == address.capacity {
        if n < leafCapacity {
          node = node.moved(capacity: Swift.min(n * 2, leafCapacity))
          target = node
        } else if let split = node.leafSplitPoint() {
          let (lower, part) = node.leafSplit(at: split, capacity: leafCapacity)
          node = lower
          upper = part
          target = lower
          if position > split {
            position -= split
            target = part
          }
        } else {
          // One run of equal hashes fills the leaf (only adversarial collisions do that).
          node = node.moved(capacity: n * 2)
          target = node
        }
      }
      // The storage is dense: the new entry goes to its end.
      let leaf = target.address
      let count = leaf.count
      let targetSlots = leaf.leafSlots
      (targetSlots + position + 1).moveInitialize(from: targetSlots + position, count: count - position)
      (targetSlots + position).initialize(to: _HashLeafSlot(hash: hash, item: count))
      let entry = Item.entry(count, of: Item.storage(of: leaf))
      Item.initialize(entry, key: key, value: value())
      leaf.count = count &+ 1
      leaf.total = count &+ 1
      stored = Item.value(entry)
      inserted = true
      return upper
    }
    let child = address.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = address.childHigh(child, high: high, count: n)
    let split = insert(
      key, value, hash: hash, into: &slot.pointee.child, count: slot.pointee.count, height: height - 1,
      low: childLow, high: childHigh, stored: &stored, inserted: &inserted)
    refresh(slot, from: address.child(child))
    if inserted { address.total &+= 1 }
    guard let split else { return nil }
    // The split-off part's entries are already counted; they move with it.
    address.total &-= split.total
    guard address.count == address.capacity else {
      node.branchInsert(split, at: child + 1)
      address.total &+= split.total
      return nil
    }
    let upper = node.splitOff(at: address.count / 2, capacity: internalCapacity)
    if child + 1 <= address.count {
      node.branchInsert(split, at: child + 1)
      address.total &+= split.total
    } else {
      upper.branchInsert(split, at: child + 1 - address.count)
      upper.total &+= split.total
    }
    return upper
  }

  /// Calls `body` with the value of `key` in place. `key` must be present.
  ///
  /// - Complexity: O(log n), plus `body`.
  @inlinable
  mutating func modify<R>(_ key: Key, _ body: (inout Value) throws -> R) rethrows -> R {
    try modify(key, hash: nil, body)
  }

  /// Calls `body` with the value of `key` in place; nil (and nothing observable changes) when
  /// `key` is absent.
  ///
  /// - Complexity: O(log n), plus `body`.
  @inlinable
  mutating func modifyIfPresent<R>(_ key: Key, _ body: (inout Value) throws -> R) rethrows -> R? {
    try modifyIfPresent(key, hash: nil, body)
  }

  /// Like ``modifyIfPresent(_:_:)`` with the key's hash already computed, or nil to let the map
  /// hash it if it needs to.
  @inlinable
  mutating func modifyIfPresent<R>(_ key: Key, hash: UInt64?, _ body: (inout Value) throws -> R) rethrows -> R? {
    guard let value = uniqueEntry(key, hash: hash) else { return nil }
    return try body(&value.pointee)
  }

  /// Like ``modify(_:_:)`` with the key's hash already computed (or nil).
  @inlinable
  mutating func modify<R>(_ key: Key, hash: UInt64?, _ body: (inout Value) throws -> R) rethrows -> R {
    guard let value = uniqueEntry(key, hash: hash) else {
      preconditionFailure("_HashTree.modify: unknown key \(key)")
    }
    return try body(&value.pointee)
  }

  /// Removes `key`; returns its value, or nil (and no change) when absent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    removeValue(forKey: key, hash: Self.hash(key))
  }

  /// Like ``removeValue(forKey:)`` with the key's hash already computed.
  ///
  /// An absent key is found by a read-only lookup first, so that probing a set shared with
  /// other snapshots copies nothing (``takeValue(forKey:hash:)`` skips that lookup).
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key, hash: UInt64) -> Value? {
    guard root != nil, find(key, hash: hash) != nil else { return nil }
    return takeValue(forKey: key, hash: hash)
  }

  /// Merges the underfull child at `index` with a neighbour, or splits their slots anew (never
  /// between equal hashes).
  @inlinable
  static func rebalance(_ parent: Node, around index: Int) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    let slots = parent.branchSlots
    makeUnique(&slots[left].child)
    makeUnique(&slots[right].child)
    let a = slots[left].child
    let b = slots[right].child
    let isLeaf = a.isLeaf
    let capacity = isLeaf ? leafCapacity : internalCapacity
    let leftCount = a.count
    let total = leftCount + b.count
    let mergedCapacity = Swift.max(capacity, a.slotCapacity, b.slotCapacity)
    if total <= mergedCapacity {
      if isLeaf {
        slots[left].child = Node.relaidLeaves([a, b], splits: [], capacity: mergedCapacity)[0]
      } else {
        if a.slotCapacity < total { slots[left].child = a.moved(capacity: capacity) }
        slots[left].child.transfer(b.count, from: b, at: 0, to: leftCount)
      }
      _ = parent.branchRemove(at: right)
      parent.refreshSlot(left)
      return
    }
    // Where to split the combined slots: the middle, moved off any run of equal hashes.
    func combinedHash(_ i: Int) -> UInt64 { i < leftCount ? a.slotHash(i) : b.slotHash(i - leftCount) }
    var split: Int? = nil
    let middle = total / 2
    var offset = 0
    while split == nil, offset < total {
      for candidate in [middle + offset, middle - offset] where candidate > 0 && candidate < total {
        if !isLeaf || combinedHash(candidate - 1) != combinedHash(candidate) {
          split = candidate
          break
        }
      }
      offset += 1
    }
    guard let split, split <= mergedCapacity, total - split <= mergedCapacity else { return }
    if isLeaf {
      let parts = Node.relaidLeaves([a, b], splits: [split], capacity: mergedCapacity)
      slots[left].child = parts[0]
      slots[right].child = parts[1]
    } else if leftCount > split {
      b.transfer(leftCount - split, from: a, at: split, to: 0)
    } else {
      a.transfer(split - leftCount, from: b, at: 0, to: leftCount)
    }
    parent.refreshSlot(left)
    parent.refreshSlot(right)
  }
}

// MARK: - Bulk

/// Sorting the (hash, position) pairs of a bulk insertion by hash, in code that names no
/// generic type (the pairs are the same whatever the keys).
@usableFromInline
enum _HashOrder {
  /// The hash a ``_HashTree`` orders `key` by (the standard library's per-process seeded hash).
  /// Generic over the key alone: a caller with a map's key in hand need not name the map's
  /// value type (a metadata lookup, in unspecialized code) to hash it.
  @inlinable
  @inline(__always)
  static func hash<Key: Hashable>(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }

  /// Sorts `pairs` by hash, keeping the order of equal hashes.
  ///
  /// - Complexity: O(k) for hashes spread as `Hasher` spreads them: from 256 pairs, one pass
  ///   distributes them by their top bits into about one bucket per pair, then each bucket is
  ///   sorted (by insertion; a radix sort for a large one); below 256, a merge sort.
  @inlinable
  static func sort(_ pairs: inout [(hash: UInt64, index: Int)]) {
    let n = pairs.count
    guard n > 1 else { return }
    var scratch = pairs
    pairs.withUnsafeMutableBufferPointer { pairs in
      scratch.withUnsafeMutableBufferPointer { scratch in
        if n < 256 {
          mergeSort(pairs.baseAddress!, scratch: scratch.baseAddress!, count: n)
        } else {
          bucketSort(pairs.baseAddress!, scratch: scratch.baseAddress!, count: n)
        }
      }
    }
  }

  /// Distributes `count` pairs at `pairs` by the top bits of their hashes into `scratch`
  /// (about one bucket per pair), sorts each bucket, and copies the result back. A bucket of
  /// more than 32 pairs (hashes that share their top bits: a poor `hashValue`) is radix sorted,
  /// so no input costs more than the radix sort alone would.
  @inlinable
  static func bucketSort(
    _ pairs: UnsafeMutablePointer<(hash: UInt64, index: Int)>, scratch: UnsafeMutablePointer<(hash: UInt64, index: Int)>,
    count n: Int
  ) {
    var bits = 8
    while bits < 20, 1 &<< bits < n { bits &+= 1 }
    let buckets = 1 &<< bits
    let shift = UInt64(64 &- bits)
    let starts = UnsafeMutablePointer<Int>.allocate(capacity: buckets &+ 1)
    defer { starts.deallocate() }
    starts.update(repeating: 0, count: buckets &+ 1)
    var i = 0
    while i < n {
      starts[Int(pairs[i].hash &>> shift) &+ 1] &+= 1
      i &+= 1
    }
    var bucket = 0
    while bucket < buckets {
      starts[bucket &+ 1] &+= starts[bucket]
      bucket &+= 1
    }
    // Scatter (stable), advancing each bucket's start; afterwards bucket b is
    // `starts[b - 1]..<starts[b]` (with 0 for the first).
    i = 0
    while i < n {
      let b = Int(pairs[i].hash &>> shift)
      scratch[starts[b]] = pairs[i]
      starts[b] &+= 1
      i &+= 1
    }
    var start = 0
    bucket = 0
    while bucket < buckets {
      let end = starts[bucket]
      if end &- start > 32 {
        radixSort(scratch + start, scratch: pairs + start, count: end &- start)
      } else if end &- start > 1 {
        // Insertion sort (stable).
        var j = start &+ 1
        while j < end {
          let pair = scratch[j]
          var k = j
          while k > start, scratch[k &- 1].hash > pair.hash {
            scratch[k] = scratch[k &- 1]
            k &-= 1
          }
          scratch[k] = pair
          j &+= 1
        }
      }
      start = end
      bucket &+= 1
    }
    pairs.update(from: scratch, count: n)
  }

  /// A bottom-up merge sort of `count` pairs at `pairs` (`scratch` has room for as many).
  @inlinable
  static func mergeSort(
    _ pairs: UnsafeMutablePointer<(hash: UInt64, index: Int)>, scratch: UnsafeMutablePointer<(hash: UInt64, index: Int)>,
    count n: Int
  ) {
    var source = pairs
    var target = scratch
    var width = 1
    while width < n {
      var start = 0
      while start < n {
        let middle = start + width < n ? start + width : n
        let end = start + 2 * width < n ? start + 2 * width : n
        var i = start
        var j = middle
        var k = start
        while i < middle, j < end {
          if source[j].hash < source[i].hash {
            target[k] = source[j]
            j += 1
          } else {
            target[k] = source[i]
            i += 1
          }
          k += 1
        }
        while i < middle {
          target[k] = source[i]
          i += 1
          k += 1
        }
        while j < end {
          target[k] = source[j]
          j += 1
          k += 1
        }
        start = end
      }
      swap(&source, &target)
      width *= 2
    }
    if source != pairs { pairs.update(from: source, count: n) }
  }

  /// A least-significant-digit radix sort of `count` pairs at `pairs` (`scratch` has room for
  /// as many): 6 passes of 11 bits, an even number, so the result ends where it started.
  @inlinable
  static func radixSort(
    _ pairs: UnsafeMutablePointer<(hash: UInt64, index: Int)>, scratch: UnsafeMutablePointer<(hash: UInt64, index: Int)>,
    count n: Int
  ) {
    let bits: UInt64 = 11
    let buckets = 1 << bits
    let mask = UInt64(buckets - 1)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: buckets)
    defer { counts.deallocate() }
    var source = pairs
    var target = scratch
    var shift: UInt64 = 0
    while shift < 64 {
      counts.update(repeating: 0, count: buckets)
      var i = 0
      while i < n {
        counts[Int((source[i].hash &>> shift) & mask)] += 1
        i += 1
      }
      var total = 0
      var bucket = 0
      while bucket < buckets {
        let count = counts[bucket]
        counts[bucket] = total
        total += count
        bucket += 1
      }
      i = 0
      while i < n {
        let b = Int((source[i].hash &>> shift) & mask)
        target[counts[b]] = source[i]
        counts[b] += 1
        i += 1
      }
      swap(&source, &target)
      shift += bits
    }
  }

  /// Whether two of `pairs` (in any order) have the same hash (the only way two keys can be
  /// equal), found with a table of the hashes (open addressing).
  ///
  /// - Complexity: O(k).
  @inlinable
  static func hasEqualHashes(_ pairs: [(hash: UInt64, index: Int)]) -> Bool {
    let n = pairs.count
    guard n > 1 else { return false }
    var capacity = 8
    while capacity < n &* 2 { capacity &<<= 1 }
    let mask = UInt64(capacity &- 1)
    let table = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    let used = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
    used.initialize(repeating: false, count: capacity)
    defer {
      table.deallocate()
      used.deallocate()
    }
    return pairs.withUnsafeBufferPointer { pairs in
      var i = 0
      while i < n {
        let hash = pairs[i].hash
        // The bits above the ones a leaf search interpolates on: spread well for any table.
        var slot = Int((hash &>> 32 ^ hash) & mask)
        while used[slot] {
          if table[slot] == hash { return true }
          slot = (slot &+ 1) & (capacity &- 1)
        }
        used[slot] = true
        table[slot] = hash
        i &+= 1
      }
      return false
    }
  }

  /// Whether two neighbours of the sorted `pairs` have the same hash (the only way two keys can
  /// be equal).
  @inlinable
  static func hasEqualNeighbours(_ pairs: [(hash: UInt64, index: Int)]) -> Bool {
    pairs.withUnsafeBufferPointer { pairs in
      var i = 1
      while i < pairs.count {
        if pairs[i].hash == pairs[i - 1].hash { return true }
        i += 1
      }
      return false
    }
  }
}

extension _HashTree {
  /// The hashes of `keys` with their positions, sorted by hash: the input of
  /// ``duplicateKeys(_:sortedHashes:)`` and ``insertNew(keys:sortedHashes:value:)``.
  ///
  /// - Complexity: O(k) (see ``_HashOrder/sort(_:)``).
  @inlinable
  static func sortedHashes(of keys: some Collection<Key>) -> [(hash: UInt64, index: Int)] {
    var result: [(hash: UInt64, index: Int)] = []
    result.reserveCapacity(keys.count)
    var index = 0
    for key in keys {
      result.append((hash(key), index))
      index += 1
    }
    _HashOrder.sort(&result)
    return result
  }

  /// Like ``sortedHashes(of:)`` for an array of keys (read through its buffer).
  @inlinable
  static func sortedHashes(of keys: [Key]) -> [(hash: UInt64, index: Int)] {
    hashes(of: keys, sorted: true)
  }

  /// The hashes of `keys` with their positions: sorted by hash, or in the keys' order (a
  /// batch inserted one key at a time needs no order, and sorting a small batch costs more
  /// than hashing it in unspecialized code).
  @inlinable
  static func hashes(of keys: [Key], sorted: Bool) -> [(hash: UInt64, index: Int)] {
    var result: [(hash: UInt64, index: Int)] = []
    result.reserveCapacity(keys.count)
    keys.withUnsafeBufferPointer { keys in
      var index = 0
      while index < keys.count {
        result.append((hash(keys[index]), index))
        index += 1
      }
    }
    if sorted { _HashOrder.sort(&result) }
    return result
  }

  /// The keys that occur more than once (found among equal hashes of the sorted list).
  ///
  /// - Complexity: O(k) for distinct hashes.
  @inlinable
  static func duplicateKeys(_ keys: [Key], sortedHashes: [(hash: UInt64, index: Int)]) -> Set<Key> {
    var duplicates = Set<Key>()
    // Distinct hashes (the usual case) mean distinct keys: one pass over the hashes alone.
    guard _HashOrder.hasEqualNeighbours(sortedHashes) else { return duplicates }
    var start = 0
    while start < sortedHashes.count {
      var end = start + 1
      while end < sortedHashes.count, sortedHashes[end].hash == sortedHashes[start].hash { end += 1 }
      if end - start > 1 {
        for i in start..<end {
          for j in (i + 1)..<end where keys[sortedHashes[i].index] == keys[sortedHashes[j].index] {
            duplicates.insert(keys[sortedHashes[i].index])
          }
        }
      }
      start = end
    }
    return duplicates
  }

  /// Whether any of `keys` is present, looked up with their hashes (`hashes`, from
  /// ``hashes(of:sorted:)``, in any order): one call for the batch.
  ///
  /// - Complexity: O(k log n).
  @inlinable
  func containsAny(_ keys: [Key], hashes: [(hash: UInt64, index: Int)]) -> Bool {
    guard root != nil else { return false }
    return keys.withUnsafeBufferPointer { keys in
      hashes.withUnsafeBufferPointer { sorted in
        var i = 0
        while i < sorted.count {
          if find(keys[sorted[i].index], hash: sorted[i].hash) != nil { return true }
          i += 1
        }
        return false
      }
    }
  }

  /// Inserts keys that are distinct and absent, with their values (`value(i)` for `keys[i]`).
  /// Into an empty map, or one not much larger than the insertion, the map is (re)built
  /// bottom-up from sorted entries; otherwise keys are inserted one by one.
  ///
  /// - Complexity: O(n + k) when rebuilding, O(k log n) otherwise.
  @inlinable
  mutating func insertNew(keys: [Key], sortedHashes: [(hash: UInt64, index: Int)], value: (Int) -> Value) {
    guard !keys.isEmpty else { return }
    if root != nil, count >= keys.count * 4 {
      sortedHashes.withUnsafeBufferPointer { sorted in
        keys.withUnsafeBufferPointer { keys in
          var i = 0
          while i < sorted.count {
            let (hash, index) = sorted[i]
            insertAbsent(keys[index], hash: hash).initialize(to: value(index))
            i += 1
          }
        }
      }
      return
    }
    var builder = _HashTreeBuilder<Key, Value>()
    sortedHashes.withUnsafeBufferPointer { sorted in
      keys.withUnsafeBufferPointer { keys in
        var i = 0
        if root == nil {
          while i < sorted.count {
            let (hash, index) = sorted[i]
            Item.initialize(builder.append(hash: hash), key: keys[index], value: value(index))
            i += 1
          }
          return
        }
        // Merge the existing entries (in hash order, copied: the old nodes may be shared) with the
        // new ones.
        var cursor = _HashTreeBuilder<Key, Value>.Cursor(root!)
        while i < sorted.count {
          let (hash, index) = sorted[i]
          while let next = cursor.hash, next <= hash { builder.appendCopy(&cursor) }
          Item.initialize(builder.append(hash: hash), key: keys[index], value: value(index))
          i += 1
        }
        while cursor.hash != nil { builder.appendCopy(&cursor) }
      }
    }
    root = builder.finish()
  }

  /// Traps unless counts, hash order, minimum hashes, slot counts, heights and uniform leaf
  /// depth hold.
  @inlinable
  func _checkInvariants() {
    guard let root else { return }
    precondition(root.count > 0, "_HashTree: empty root")
    precondition(root.isLeaf || root.count > 1, "_HashTree: internal root with one child")
    var previous: UInt64? = nil
    var keys = Set<Key>()
    Self.check(root, previous: &previous, keys: &keys)
    precondition(keys.count == root.total, "_HashTree: duplicate keys")
  }

  @inlinable
  static func check(_ node: Node, previous: inout UInt64?, keys: inout Set<Key>) {
    precondition(node.count > 0 && node.count <= node.slotCapacity, "_HashTree: node size")
    if node.isLeaf {
      var seen = Set<UInt32>()
      for i in 0..<node.count {
        let entryHash = node.leafHash(i)
        precondition(Int(node.leafSlots[i].item) < node.count, "_HashTree: entry outside the dense storage")
        precondition(seen.insert(node.leafSlots[i].item).inserted, "_HashTree: two slots name one entry")
        let key = node.item(at: i).pointee.key
        precondition(entryHash == hash(key), "_HashTree: stale hash")
        if let previous { precondition(previous <= entryHash, "_HashTree: hash order") }
        previous = entryHash
        keys.insert(key)
      }
      precondition(node.total == node.count, "_HashTree: leaf count")
      return
    }
    precondition(node.slotCapacity <= internalCapacity, "_HashTree: internal capacity")
    var count = 0
    for i in 0..<node.count {
      let slot = node.branchSlots[i]
      precondition(slot.child.minHash == slot.minHash, "_HashTree: minHash")
      precondition(slot.child.count == slot.count, "_HashTree: slot count")
      precondition(slot.child.height == node.height - 1, "_HashTree: uneven depth")
      // Equal hashes never straddle two children.
      if let previous { precondition(previous < slot.minHash, "_HashTree: run split between children") }
      count += slot.child.total
      check(slot.child, previous: &previous, keys: &keys)
    }
    precondition(node.total == count, "_HashTree: internal count")
  }
}

/// Builds a ``_HashTree`` bottom-up from entries arriving in hash order: fills leaves (never
/// splitting a run of equal hashes), then stacks internal levels. The caller initializes each
/// entry where it will stay, so a record is never copied on its way in.
@usableFromInline
struct _HashTreeBuilder<Key: Hashable & Sendable, Value: Sendable> {
  @usableFromInline
  typealias Node = _HashNode<Key, Value>
  @usableFromInline
  typealias Item = _HashItem<Key, Value>

  @usableFromInline
  var level: [Node] = []
  @usableFromInline
  var leaf: Node? = nil

  @inlinable
  init() {}

  /// Appends a slot with `hash` (not below the previous one) and returns its entry, which the
  /// caller must initialize before the next append.
  @inlinable
  mutating func append(hash: UInt64) -> UnsafeMutablePointer<Item> {
    if leaf == nil { leaf = Node.make(height: 0, capacity: _HashTree<Key, Value>.leafCapacity) }
    var current = leaf.unsafelyUnwrapped.address
    let n = current.count
    if n == current.capacity {
      if current.leafSlots[n - 1].hash != hash {
        level.append(leaf.unsafelyUnwrapped)
        leaf = Node.make(height: 0, capacity: _HashTree<Key, Value>.leafCapacity)
      } else {
        leaf = leaf.unsafelyUnwrapped.moved(capacity: n * 2)
      }
      current = leaf.unsafelyUnwrapped.address
    }
    let m = current.count
    (current.leafSlots + m).initialize(to: _HashLeafSlot(hash: hash, item: m))
    current.count = m &+ 1
    current.total = m &+ 1
    return Item.entry(m, of: Item.storage(of: current))
  }

  /// Appends a slot with `hash` and key `key` and returns the (uninitialized) value of its
  /// entry, which the caller must initialize before the next append.
  @inlinable
  mutating func append(hash: UInt64, key: Key) -> UnsafeMutablePointer<Value> {
    let entry = append(hash: hash)
    Item.key(entry).initialize(to: key)
    return Item.value(entry)
  }

  /// The entries of an existing map in hash order, for moving them into a rebuilt one.
  @usableFromInline
  struct Cursor {
    @usableFromInline
    var leaves: [Node]
    @usableFromInline
    var leafIndex = 0
    @usableFromInline
    var position = 0

    @inlinable
    init(_ root: Node) {
      leaves = _HashTree<Key, Value>.leaves(of: root)
    }

    /// The hash of the next entry; nil at the end.
    @inlinable
    var hash: UInt64? {
      leafIndex < leaves.count ? leaves[leafIndex].address.leafSlots[position].hash : nil
    }
  }

  /// Appends the cursor's next entry (copied: the old map may be shared) and advances it.
  @inlinable
  mutating func appendCopy(_ cursor: inout Cursor) {
    let source = cursor.leaves[cursor.leafIndex].address
    let slot = source.leafSlots[cursor.position]
    let entry = append(hash: slot.hash)
    entry.initialize(to: Item.entry(Int(slot.item), of: Item.storage(of: source)).pointee)
    cursor.position += 1
    if cursor.position == source.count {
      cursor.leafIndex += 1
      cursor.position = 0
    }
  }

  /// The root of the built tree (nil when nothing was appended).
  @inlinable
  mutating func finish() -> Node? {
    if let leaf, leaf.count > 0 { level.append(leaf) }
    leaf = nil
    guard !level.isEmpty else { return nil }
    // Hand the leaves over: the builder keeps no reference that would make them look shared.
    let leaves = level
    level = []
    return Node.stackLevels(leaves, capacity: _HashTree<Key, Value>.internalCapacity)
  }
}

// MARK: - Lookups that save descents

// Each descent of a large map waits on a cache miss per level (at a million keys: the level
// above the leaves, the leaf's slots, then the entry). An operation that looked the same key up
// two or three times, or two unrelated keys one after the other, paid for those chains in
// sequence. These entry points pay once, or (for two keys) overlap the two chains.
extension _HashTree {
  /// The values of two keys, found by one descent that steps both searches down a level at a
  /// time; nil for a key that is absent. The addresses are valid until the map is next mutated.
  ///
  /// The two searches do not depend on each other, so a processor running the loads of one
  /// level of both back to back waits for their cache misses at the same time instead of one
  /// after the other: two cold lookups cost about one.
  ///
  /// ```swift
  /// let (a, b) = map.peekPair("a", hash: _HashTree<String, Int>.hash("a"), "b", hash: _HashTree<String, Int>.hash("b"))
  /// a?.pointee   // the value of "a"
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  func peekPair(_ keyA: Key, hash hashA: UInt64, _ keyB: Key, hash hashB: UInt64)
    -> (UnsafeMutablePointer<Value>?, UnsafeMutablePointer<Value>?)
  {
    guard let root else { return (nil, nil) }
    var nodeA = root.address
    var nodeB = nodeA
    var countA = nodeA.count
    var countB = countA
    var lowA: UInt64 = 0
    var highA: UInt64 = .max
    var lowB: UInt64 = 0
    var highB: UInt64 = .max
    var height = nodeA.height
    while height > 0 {
      nodeA = nodeA.descend(toward: hashA, low: &lowA, high: &highA, count: &countA)
      nodeB = nodeB.descend(toward: hashB, low: &lowB, high: &highB, count: &countB)
      height &-= 1
    }
    // Both leaves' slot lines first, then the entries: the second leaf's miss overlaps the
    // first's.
    let positionA = nodeA.leafLowerBound(hashA, low: lowA, high: highA, count: countA)
    let positionB = nodeB.leafLowerBound(hashB, low: lowB, high: highB, count: countB)
    return (
      Self.value(of: keyA, hashA, in: nodeA, from: positionA, count: countA),
      Self.value(of: keyB, hashB, in: nodeB, from: positionB, count: countB)
    )
  }

  /// The value of `key` after making every node on its path uniquely referenced (copying
  /// shared ones), so that it can be changed in place; nil when absent (the path may still have
  /// been copied, which changes nothing observable).
  ///
  /// The address stays valid while keys are neither inserted nor removed and the map is not
  /// copied: changing other keys' values in place (``modify(_:hash:_:)``) keeps it. One
  /// operation can thus read a record, change other parts of the state, and write the record
  /// back, all with one descent.
  ///
  /// ```swift
  /// if let value = map.uniqueEntry("a", hash: _HashTree<String, Int>.hash("a")) { value.pointee += 1 }
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  mutating func uniqueEntry(_ key: Key, hash: UInt64) -> UnsafeMutablePointer<Value>? {
    guard root != nil else { return nil }
    Self.makeUnique(&root!)
    var node = root!.address
    var count = node.count
    var height = node.height
    var low: UInt64 = 0
    var high: UInt64 = .max
    while height > 0 {
      let child = node.childIndex(forHash: hash, low: low, high: high, count: count)
      let slot = node.base.assumingMemoryBound(to: Slot.self) + child
      low = slot.pointee.minHash
      high = node.childHigh(child, high: high, count: count)
      count = slot.pointee.count
      Self.makeUnique(&slot.pointee.child)
      // Read back as a raw load: the reference was just written through the slot.
      node = node.child(child)
      height &-= 1
    }
    return Self.value(
      of: key, hash, in: node, from: node.leafLowerBound(hash, low: low, high: high, count: count), count: count)
  }

  /// Like ``uniqueEntry(_:hash:)`` with the key's hash, or nil to let the map hash it if it
  /// needs to.
  @inlinable
  mutating func uniqueEntry(_ key: Key, hash: UInt64?) -> UnsafeMutablePointer<Value>? {
    if let hash { return uniqueEntry(key, hash: hash) }
    var isSmall = false
    if let slot = smallMapSlot(of: key, isSmall: &isSmall) {
      Self.makeUnique(&root!)
      return Item.value(root!.item(at: slot))
    }
    return uniqueEntry(key, hash: Self.hash(key))
  }

  /// Removes `key` and returns its value, in one descent that is also the existence check; nil
  /// when absent (nothing observable changes, though the path may have been copied).
  ///
  /// Unlike ``removeValue(forKey:hash:)``, which first checks with a read-only lookup, this
  /// copies shared nodes on the path even when the key is absent: use it where the key is
  /// expected to be present (deleting a record), not for probing a set that other snapshots
  /// share.
  ///
  /// ```swift
  /// map.takeValue(forKey: "a", hash: _HashTree<String, Int>.hash("a"))   // 1, and "a" is gone
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func takeValue(forKey key: Key, hash: UInt64) -> Value? {
    guard root != nil else { return nil }
    // The value comes back through a parameter: an optional result per level of the
    // recursion was a metadata lookup per level in unspecialized code.
    var removed: Value? = nil
    let (count, height) = (root!.count, root!.height)
    guard Self.take(key, hash, from: &root!, count: count, height: height, low: 0, high: .max, into: &removed) else {
      return nil
    }
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.count == 1 {
      root = root!.branchSlots[0].child
    }
    return removed
  }

  /// Removes `key` under `node`, moving its value into `removed`; false when absent.
  @inlinable
  static func take(
    _ key: Key, _ hash: UInt64, from node: inout Node, count n: Int, height: Int, low: UInt64, high: UInt64,
    into removed: inout Value?
  ) -> Bool {
    makeUnique(&node)
    let address = node.address
    if height == 0 {
      let slots = address.leafSlots
      let items = Item.storage(of: address)
      var position = address.leafLowerBound(hash, low: low, high: high, count: n)
      while position < n, slots[position].hash == hash {
        let hole = Int(slots[position].item)
        let entry = Item.entry(hole, of: items)
        if Item.key(entry).pointee == key {
          Item.key(entry).deinitialize(count: 1)
          removed = Item.value(entry).move()
          // The last entry of the storage moves into the hole, so the storage stays dense.
          (slots + position).moveInitialize(from: slots + position + 1, count: n - position - 1)
          let last = n - 1
          if hole != last {
            Item.move(Item.entry(last, of: items), to: entry)
            var j = 0
            while slots[j].item != UInt32(last) { j &+= 1 }
            slots[j].item = UInt32(hole)
          }
          address.count = last
          address.total = last
          return true
        }
        position &+= 1
      }
      return false
    }
    let child = address.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = address.childHigh(child, high: high, count: n)
    guard
      take(
        key, hash, from: &slot.pointee.child, count: slot.pointee.count, height: height - 1, low: childLow,
        high: childHigh, into: &removed)
    else { return false }
    address.total &-= 1
    let childAddress = address.child(child)
    let remaining = childAddress.count
    if remaining == 0 {
      _ = node.branchRemove(at: child)
    } else {
      refresh(slot, from: childAddress)
      let capacity = childAddress.isLeaf ? leafCapacity : internalCapacity
      if remaining < capacity / 4, address.count > 1 { rebalance(node, around: child) }
    }
    return true
  }
}
