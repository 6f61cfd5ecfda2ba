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
  static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }

  @inlinable
  @inline(__always)
  static func makeUnique(_ node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = node.copy(capacity: node.slotCapacity) }
  }
}

// MARK: - Lookups

extension _HashTree {
  /// The value for `key`, or nil.
  ///
  /// - Complexity: O(log n).
  @inlinable
  subscript(key: Key) -> Value? {
    peek(key, hash: Self.hash(key)) { $0 }
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
    return withUnsafeBytes(of: key) { wanted in
      for position in 0..<root.count {
        let same = withUnsafeBytes(of: &root.item(at: position).pointee.key) { stored in
          _RawBytes.equal(stored, wanted)
        }
        if same { return position }
      }
      return nil
    }
  }

  /// Like ``peek(_:_:)`` with the key's hash (``hash(_:)``) already computed, or nil to let the
  /// map hash it if it needs to.
  ///
  /// The descent reads, per level, the slot interpolation expects (smallest hash, child and the
  /// child's slot count together) and never a child's header.
  @inlinable
  func peek<R>(_ key: Key, hash: UInt64?, _ body: (borrowing Value) throws -> R) rethrows -> R? {
    guard let root else { return nil }
    if hash == nil {
      var isSmall = false
      if let slot = smallMapSlot(of: key, isSmall: &isSmall) { return try body(root.item(at: slot).pointee.value) }
    }
    let hash = hash ?? Self.hash(key)
    // Unretained: `self` keeps every node alive (see `_HashNode.unretainedChild(_:)`).
    var node = Unmanaged.passUnretained(root)
    var count = root.count
    var height = root.height
    var low: UInt64 = 0
    var high: UInt64 = .max
    while height > 0 {
      node = Self.descend(node, toward: hash, low: &low, high: &high, count: &count)
      height &-= 1
    }
    return try node._withUnsafeGuaranteedRef { node in
      guard let slot = node.entryIndex(of: key, hash: hash, low: low, high: high, count: count) else { return nil }
      return try body(node.item(at: slot).pointee.value)
    }
  }

  /// Whether `key` is present.
  @inlinable
  func contains(_ key: Key) -> Bool { peek(key, hash: nil) { _ in true } != nil }

  /// Whether `key` (with `hash`, or nil) is present.
  @inlinable
  func contains(_ key: Key, hash: UInt64?) -> Bool { peek(key, hash: hash) { _ in true } != nil }

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
    // The entry travels down by address and is moved into place once: passed by value, each
    // level of the recursion copied it (a record copy is several retains). The value is an
    // autoclosure so that it is built right into that buffer: a value parameter captured by
    // the buffer's closure is borrowed there, and had to be copied in (through the record's
    // value witness, ~180 instructions).
    var old: Value? = nil
    _ = _insert(value(), forKey: key, hash: hash, replacing: true, old: &old)
    return old
  }

  /// Inserts `value` for `key` unless the key is present, in one descent; returns the new
  /// entry's address (valid while keys are neither inserted nor removed and the map is not
  /// copied, as for ``uniqueEntry(_:hash:)``), or nil when the key was present (nothing
  /// observable changes, though the path may have been copied).
  ///
  /// ```swift
  /// map.insertIfAbsent(1, forKey: "a", hash: _HashTree<String, Int>.hash("a"))   // non-nil
  /// map.insertIfAbsent(2, forKey: "a", hash: _HashTree<String, Int>.hash("a"))   // nil; "a" is 1
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func insertIfAbsent(_ value: @autoclosure () -> Value, forKey key: Key, hash: UInt64)
    -> UnsafeMutablePointer<Item>?
  {
    // (An autoclosure for the reason given in `updateValue(_:forKey:hash:)`.)
    var old: Value? = nil
    return _insert(value(), forKey: key, hash: hash, replacing: false, old: &old)
  }

  /// The insertion behind ``updateValue(_:forKey:hash:)`` (`replacing`: an equal key's value is
  /// replaced and reported in `old`) and ``insertIfAbsent(_:forKey:hash:)`` (an equal key is
  /// left alone). Returns the new entry's address, nil when the key was present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func _insert(
    _ value: @autoclosure () -> Value, forKey key: Key, hash: UInt64, replacing: Bool, old: inout Value?
  ) -> UnsafeMutablePointer<Item>? {
    withUnsafeTemporaryAllocation(of: Item.self, capacity: 1) { buffer in
      let item = buffer.baseAddress!
      item.initialize(to: Item(key: key, value: value()))
      guard root != nil else {
        let leaf = Node.make(height: 0, capacity: Self.initialLeafCapacity)
        leaf.leafInsert(at: 0, hash: hash, moving: item)
        root = leaf
        return leaf.items
      }
      var inserted: UnsafeMutablePointer<Item>? = nil
      let (count, height) = (root!.count, root!.height)
      if let upper = Self.insert(
        consuming: item, hash: hash, into: &root!, count: count, height: height, low: 0, high: .max,
        replacing: replacing, old: &old, inserted: &inserted)
      {
        growRoot(upper)
      }
      // Present and not replaced: the entry was not moved in.
      if inserted == nil && !replacing { item.deinitialize(count: 1) }
      return inserted
    }
  }

  /// One level of a read-only descent: the child of `node` whose hash range holds `hash`, with
  /// `low`, `high` and `count` narrowed to that child's range and entry count.
  @inlinable @inline(__always)
  static func descend(
    _ node: Unmanaged<Node>, toward hash: UInt64, low: inout UInt64, high: inout UInt64, count: inout Int
  ) -> Unmanaged<Node> {
    node._withUnsafeGuaranteedRef { node in
      let child = node.childIndex(forHash: hash, low: low, high: high, count: count)
      let slot = node.branchSlots + child
      low = slot.pointee.minHash
      high = node.childHigh(child, high: high, count: count)
      count = slot.pointee.count
      return node.unretainedChild(child)
    }
  }

  /// Puts the old root and the split-off `upper` half under a new root.
  @inlinable
  mutating func growRoot(_ upper: Node) {
    let node = Node.make(height: root!.height + 1, capacity: Self.internalCapacity)
    node.branchAppend(root!)
    node.branchAppend(upper)
    root = node
  }

  /// Inserts the entry at `item` (moving it out: the memory is uninitialized afterwards; its
  /// new address is reported in `inserted`) or, when `replacing`, replaces the value of an equal
  /// key (reported in `old`); without `replacing`, an equal key leaves `item` where it is and
  /// `inserted` nil. Returns the split-off upper part when the node overflowed.
  @inlinable
  static func insert(
    consuming item: UnsafeMutablePointer<Item>, hash: UInt64, into node: inout Node, count n: Int, height: Int,
    low: UInt64, high: UInt64, replacing: Bool, old: inout Value?, inserted: inout UnsafeMutablePointer<Item>?
  ) -> Node? {
    makeUnique(&node)
    if height == 0 {
      var position = node.lowerBound(hash, low: low, high: high, count: n)
      while position < n, node.leafHash(position) == hash {
        let existing = node.item(at: position)
        if existing.pointee.key == item.pointee.key {
          guard replacing else { return nil }
          let previous = existing.move()
          existing.initialize(to: Item(key: previous.key, value: item.move().value))
          old = previous.value
          return nil
        }
        position += 1
      }
      var target = node
      var upper: Node? = nil
      if n == node.slotCapacity {
        if node.slotCapacity < leafCapacity {
          node = node.moved(capacity: Swift.min(node.slotCapacity * 2, leafCapacity))
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
          node = node.moved(capacity: node.slotCapacity * 2)
          target = node
        }
      }
      target.leafInsert(at: position, hash: hash, moving: item)
      // The storage is dense: the new entry went to its end.
      inserted = target.items + (target.count - 1)
      return upper
    }
    let child = node.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = node.childHigh(child, high: high, count: n)
    let split = insert(
      consuming: item, hash: hash, into: &slot.pointee.child, count: slot.pointee.count, height: height - 1,
      low: childLow, high: childHigh, replacing: replacing, old: &old, inserted: &inserted)
    node.refreshSlot(child)
    if inserted != nil { node.total &+= 1 }
    guard let split else { return nil }
    // The split-off part's entries are already counted; they move with it.
    node.total &-= split.total
    guard node.count == node.slotCapacity else {
      node.branchInsert(split, at: child + 1)
      node.total &+= split.total
      return nil
    }
    let upper = node.splitOff(at: node.count / 2, capacity: internalCapacity)
    if child + 1 <= node.count {
      node.branchInsert(split, at: child + 1)
      node.total &+= split.total
    } else {
      upper.branchInsert(split, at: child + 1 - node.count)
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
    guard root != nil else { return nil }
    if hash == nil {
      var isSmall = false
      if let slot = smallMapSlot(of: key, isSmall: &isSmall) {
        Self.makeUnique(&root!)
        return try body(&root!.item(at: slot).pointee.value)
      }
    }
    let (count, height) = (root!.count, root!.height)
    return try Self.modify(key, hash ?? Self.hash(key), in: &root!, count: count, height: height, low: 0, high: .max, body)
  }

  /// Like ``modify(_:_:)`` with the key's hash already computed (or nil).
  @inlinable
  mutating func modify<R>(_ key: Key, hash: UInt64?, _ body: (inout Value) throws -> R) rethrows -> R {
    guard let result = try modifyIfPresent(key, hash: hash, body) else {
      preconditionFailure("_HashTree.modify: unknown key \(key)")
    }
    return result
  }

  @inlinable
  static func modify<R>(
    _ key: Key, _ hash: UInt64, in node: inout Node, count n: Int, height: Int, low: UInt64, high: UInt64,
    _ body: (inout Value) throws -> R
  ) rethrows -> R? {
    // `n` and `height` come from the parent's slot: the search does not wait for this node's
    // header line (which the uniqueness check loads).
    makeUnique(&node)
    if height == 0 {
      guard let position = node.entryIndex(of: key, hash: hash, low: low, high: high, count: n) else { return nil }
      return try body(&node.item(at: position).pointee.value)
    }
    let child = node.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = node.childHigh(child, high: high, count: n)
    return try modify(
      key, hash, in: &slot.pointee.child, count: slot.pointee.count, height: height - 1, low: childLow,
      high: childHigh, body)
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
    guard root != nil, contains(key, hash: hash) else { return nil }
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

extension _HashTree {
  /// The hashes of `keys` with their positions, sorted by hash: the input of
  /// ``duplicateKeys(_:sortedHashes:)`` and ``insertNew(keys:sortedHashes:value:)``.
  ///
  /// - Complexity: O(k): a least-significant-digit radix sort (6 passes of 11 bits) for large
  ///   inputs, a comparison sort below 256 keys.
  @inlinable
  static func sortedHashes(of keys: some Collection<Key>) -> [(hash: UInt64, index: Int)] {
    var result: [(hash: UInt64, index: Int)] = []
    result.reserveCapacity(keys.count)
    for (index, key) in keys.enumerated() { result.append((hash(key), index)) }
    if result.count < 256 {
      result.sort { $0.hash < $1.hash }
      return result
    }
    var scratch = result
    let bits: UInt64 = 11
    let buckets = 1 << bits
    var counts = [Int](repeating: 0, count: buckets)
    var shift: UInt64 = 0
    while shift < 64 {
      let currentShift = shift
      result.withUnsafeBufferPointer { source in
        scratch.withUnsafeMutableBufferPointer { target in
          counts.withUnsafeMutableBufferPointer { counts in
            for i in 0..<buckets { counts[i] = 0 }
            for element in source { counts[Int((element.hash >> currentShift) & UInt64(buckets - 1))] += 1 }
            var total = 0
            for i in 0..<buckets {
              let count = counts[i]
              counts[i] = total
              total += count
            }
            for element in source {
              let bucket = Int((element.hash >> currentShift) & UInt64(buckets - 1))
              target[counts[bucket]] = element
              counts[bucket] += 1
            }
          }
        }
      }
      swap(&result, &scratch)
      shift += bits
    }
    return result
  }

  /// The keys that occur more than once (found among equal hashes of the sorted list).
  ///
  /// - Complexity: O(k) for distinct hashes.
  @inlinable
  static func duplicateKeys(_ keys: [Key], sortedHashes: [(hash: UInt64, index: Int)]) -> Set<Key> {
    var duplicates = Set<Key>()
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

  /// Inserts keys that are distinct and absent, with their values (`value(i)` for `keys[i]`).
  /// Into an empty map, or one not much larger than the insertion, the map is (re)built
  /// bottom-up from sorted entries; otherwise keys are inserted one by one.
  ///
  /// - Complexity: O(n + k) when rebuilding, O(k log n) otherwise.
  @inlinable
  mutating func insertNew(keys: [Key], sortedHashes: [(hash: UInt64, index: Int)], value: (Int) -> Value) {
    guard !keys.isEmpty else { return }
    if root != nil, count >= keys.count * 4 {
      for index in keys.indices { updateValue(value(index), forKey: keys[index]) }
      return
    }
    var builder = _HashTreeBuilder<Key, Value>()
    if root == nil {
      for (hash, index) in sortedHashes {
        builder.append(hash: hash) { $0.initialize(to: Item(key: keys[index], value: value(index))) }
      }
    } else {
      // Merge the existing entries (in hash order) with the new ones.
      let existing = entries
      var next = 0
      for (hash, index) in sortedHashes {
        while next < existing.count, existing[next].hash <= hash {
          let entry = existing[next]
          builder.append(hash: entry.hash) { $0.initialize(to: Item(key: entry.key, value: entry.value)) }
          next += 1
        }
        builder.append(hash: hash) { $0.initialize(to: Item(key: keys[index], value: value(index))) }
      }
      while next < existing.count {
        let entry = existing[next]
        builder.append(hash: entry.hash) { $0.initialize(to: Item(key: entry.key, value: entry.value)) }
        next += 1
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
/// splitting a run of equal hashes), then stacks internal levels. Entries are initialized in
/// place, so a record is never copied on its way in.
@usableFromInline
struct _HashTreeBuilder<Key: Hashable & Sendable, Value: Sendable> {
  @usableFromInline
  typealias Node = _HashNode<Key, Value>

  @usableFromInline
  var level: [Node] = []
  @usableFromInline
  var leaf: Node? = nil

  @inlinable
  init() {}

  /// Appends an entry with `hash` (not below the previous one), initialized by `initialize`.
  @inlinable
  mutating func append(hash: UInt64, _ initialize: (UnsafeMutablePointer<_HashItem<Key, Value>>) -> Void) {
    if leaf == nil { leaf = Node.make(height: 0, capacity: _HashTree<Key, Value>.leafCapacity) }
    var current = leaf.unsafelyUnwrapped
    if current.count == current.slotCapacity {
      if current.leafHash(current.count - 1) != hash {
        level.append(current)
        current = Node.make(height: 0, capacity: _HashTree<Key, Value>.leafCapacity)
      } else {
        current = current.moved(capacity: current.slotCapacity * 2)
      }
      leaf = current
    }
    current.leafAppend(hash: hash, initialize)
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
