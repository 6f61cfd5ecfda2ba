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
  /// Children per internal node.
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

  /// The slot of `key` when the map is one small leaf (searched without hashing); nil when
  /// absent, or when the map is not small (`isSmall` tells which).
  @inlinable
  @inline(__always)
  func smallMapSlot(of key: Key, isSmall: inout Bool) -> Int? {
    guard let root, root.isLeaf, root.count <= Self.linearSearchLimit else { return nil }
    isSmall = true
    let items = root.items
    for slot in 0..<root.count where items[slot].key == key { return slot }
    return nil
  }

  /// Like ``peek(_:_:)`` with the key's hash (``hash(_:)``) already computed, or nil to let the
  /// map hash it if it needs to.
  @inlinable
  func peek<R>(_ key: Key, hash: UInt64?, _ body: (borrowing Value) throws -> R) rethrows -> R? {
    guard let root else { return nil }
    var isSmall = false
    if hash == nil {
      let slot = smallMapSlot(of: key, isSmall: &isSmall)
      if isSmall {
        guard let slot else { return nil }
        return try body(root.items[slot].value)
      }
    }
    let hash = hash ?? Self.hash(key)
    var node = root
    var low: UInt64 = 0
    var high: UInt64 = .max
    while !node.isLeaf {
      let child = node.childIndex(forHash: hash, low: low, high: high)
      low = node.hashes[child]
      high = node.childHigh(child, high: high)
      node = node.children[child]
    }
    guard let slot = node.entryIndex(of: key, hash: hash, low: low, high: high) else { return nil }
    return try body(node.items[slot].value)
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
      for i in 0..<node.count { try body(node.items[i].key, node.items[i].value) }
    } else {
      for i in 0..<node.count { try forEach(node.children[i], body) }
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
      for i in 0..<node.count { try body(node.items[i].key) }
    } else {
      for i in 0..<node.count { try forEachKey(node.children[i], body) }
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
        result.append(Entry(hash: node.hashes[i], key: node.items[i].key, value: node.items[i].value))
      }
    } else {
      for i in 0..<node.count { collect(node.children[i], into: &result) }
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
  mutating func updateValue(_ value: __owned Value, forKey key: Key) -> Value? {
    updateValue(value, forKey: key, hash: Self.hash(key))
  }

  /// Like ``updateValue(_:forKey:)`` with the key's hash already computed.
  @inlinable
  @discardableResult
  mutating func updateValue(_ value: __owned Value, forKey key: Key, hash: UInt64) -> Value? {
    guard root != nil else {
      let leaf = Node.make(isLeaf: true, capacity: Self.initialLeafCapacity)
      leaf.leafInsert(at: 0, hash: hash, item: Item(key: key, value: value))
      root = leaf
      return nil
    }
    // The entry travels down by address and is moved into place once: passed by value, each
    // level of the recursion copied it (a record copy is several retains).
    return withUnsafeTemporaryAllocation(of: Item.self, capacity: 1) { buffer in
      let item = buffer.baseAddress!
      item.initialize(to: Item(key: key, value: value))
      var old: Value? = nil
      if let upper = Self.insert(consuming: item, hash: hash, into: &root!, low: 0, high: .max, old: &old) {
        let node = Node.make(isLeaf: false, capacity: Self.internalCapacity)
        node.branchAppend(root!)
        node.branchAppend(upper)
        root = node
      }
      return old
    }
  }

  /// Inserts the entry at `item` (moving it out: the memory is uninitialized afterwards) or
  /// replaces the value of an equal key (reported in `old`). Returns the split-off upper part
  /// when the node overflowed.
  @inlinable
  static func insert(
    consuming item: UnsafeMutablePointer<Item>, hash: UInt64, into node: inout Node, low: UInt64, high: UInt64,
    old: inout Value?
  ) -> Node? {
    makeUnique(&node)
    if node.isLeaf {
      var position = node.lowerBound(hash, low: low, high: high)
      let n = node.count
      while position < n, node.hashes[position] == hash {
        if node.items[position].key == item.pointee.key {
          let previous = (node.items + position).move()
          (node.items + position).initialize(to: Item(key: previous.key, value: item.move().value))
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
          let part = node.splitOff(at: split, capacity: leafCapacity)
          upper = part
          if position > split || (position == split && hash >= part.minHash) {
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
      return upper
    }
    let child = node.childIndex(forHash: hash, low: low, high: high)
    let split = insert(
      consuming: item, hash: hash, into: &node.children[child], low: node.hashes[child],
      high: node.childHigh(child, high: high), old: &old)
    if old == nil { node.total &+= 1 }
    node.hashes[child] = node.children[child].minHash
    guard let split else { return nil }
    node.total &-= split.total  // re-added below with the split-off child
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
      let slot = smallMapSlot(of: key, isSmall: &isSmall)
      if isSmall {
        guard let slot else { return nil }
        Self.makeUnique(&root!)
        return try body(&root!.items[slot].value)
      }
    }
    return try Self.modify(key, hash ?? Self.hash(key), in: &root!, low: 0, high: .max, body)
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
    _ key: Key, _ hash: UInt64, in node: inout Node, low: UInt64, high: UInt64, _ body: (inout Value) throws -> R
  ) rethrows -> R? {
    makeUnique(&node)
    if node.isLeaf {
      guard let position = node.entryIndex(of: key, hash: hash, low: low, high: high) else { return nil }
      return try body(&node.items[position].value)
    }
    let child = node.childIndex(forHash: hash, low: low, high: high)
    return try modify(
      key, hash, in: &node.children[child], low: node.hashes[child], high: node.childHigh(child, high: high), body)
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
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key, hash: UInt64) -> Value? {
    guard root != nil, contains(key, hash: hash) else { return nil }
    let removed = Self.remove(key, hash, from: &root!, low: 0, high: .max)
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.count == 1 {
      root = root!.children[0]
    }
    return removed
  }

  @inlinable
  static func remove(_ key: Key, _ hash: UInt64, from node: inout Node, low: UInt64, high: UInt64) -> Value {
    makeUnique(&node)
    if node.isLeaf {
      let position = node.entryIndex(of: key, hash: hash, low: low, high: high)!
      return node.leafRemove(at: position).value
    }
    let child = node.childIndex(forHash: hash, low: low, high: high)
    let removed = remove(
      key, hash, from: &node.children[child], low: node.hashes[child], high: node.childHigh(child, high: high))
    node.total &-= 1
    let remaining = node.children[child].count
    if remaining == 0 {
      _ = node.branchRemove(at: child)
    } else {
      node.hashes[child] = node.children[child].minHash
      let capacity = node.children[child].isLeaf ? leafCapacity : internalCapacity
      if remaining < capacity / 4, node.count > 1 { rebalance(node, around: child) }
    }
    return removed
  }

  /// Merges the underfull child at `index` with a neighbour, or splits their slots anew (never
  /// between equal hashes).
  @inlinable
  static func rebalance(_ parent: Node, around index: Int) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    makeUnique(&parent.children[left])
    makeUnique(&parent.children[right])
    let isLeaf = parent.children[left].isLeaf
    let capacity = isLeaf ? leafCapacity : internalCapacity
    let leftCount = parent.children[left].count
    let total = leftCount + parent.children[right].count
    if total <= Swift.max(capacity, parent.children[left].slotCapacity) {
      if parent.children[left].slotCapacity < total {
        parent.children[left] = parent.children[left].moved(capacity: capacity)
      }
      let a = parent.children[left]
      let b = parent.children[right]
      a.transfer(b.count, from: b, at: 0, to: a.count)
      _ = parent.branchRemove(at: right)
      parent.hashes[left] = a.minHash
      return
    }
    // Where to split the combined slots: the middle, moved off any run of equal hashes.
    let a = parent.children[left]
    let b = parent.children[right]
    func combinedHash(_ i: Int) -> UInt64 { i < leftCount ? a.hashes[i] : b.hashes[i - leftCount] }
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
    guard let split, split <= Swift.max(capacity, a.slotCapacity), total - split <= Swift.max(capacity, b.slotCapacity) else {
      return
    }
    if parent.children[left].slotCapacity < split {
      parent.children[left] = parent.children[left].moved(capacity: capacity)
    }
    if parent.children[right].slotCapacity < total - split {
      parent.children[right] = parent.children[right].moved(capacity: capacity)
    }
    let x = parent.children[left]
    let y = parent.children[right]
    if leftCount > split {
      y.transfer(leftCount - split, from: x, at: split, to: 0)
    } else {
      x.transfer(split - leftCount, from: y, at: 0, to: leftCount)
    }
    parent.hashes[left] = x.minHash
    parent.hashes[right] = y.minHash
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
    withoutActuallyEscaping(value) { value in
      let new = sortedHashes.lazy.map { Entry(hash: $0.hash, key: keys[$0.index], value: value($0.index)) }
      if root == nil {
        root = Self.build(new)
      } else {
        let existing = entries
        root = nil
        root = Self.build(_MergedEntries(existing: existing, new: new))
      }
    }
  }

  /// Builds a tree from entries sorted by hash, bottom-up, streaming them into full leaves.
  @inlinable
  static func build<S: Sequence<Entry>>(_ sorted: S) -> Node? {
    var level: [Node] = []
    var leaf = Node.make(isLeaf: true, capacity: leafCapacity)
    for entry in sorted {
      if leaf.count == leaf.slotCapacity {
        if leaf.hashes[leaf.count - 1] != entry.hash {
          // A full leaf is closed, unless that would separate equal hashes.
          level.append(leaf)
          leaf = Node.make(isLeaf: true, capacity: leafCapacity)
        } else {
          leaf = leaf.moved(capacity: leaf.slotCapacity * 2)
        }
      }
      leaf.leafInsert(at: leaf.count, hash: entry.hash, item: Item(key: entry.key, value: entry.value))
    }
    if leaf.count > 0 { level.append(leaf) }
    guard !level.isEmpty else { return nil }
    while level.count > 1 {
      let groupCount = (level.count + internalCapacity - 1) / internalCapacity
      var next: [Node] = []
      next.reserveCapacity(groupCount)
      var start = 0
      for i in 0..<groupCount {
        let end = level.count * (i + 1) / groupCount
        let node = Node.make(isLeaf: false, capacity: internalCapacity)
        for child in level[start..<end] { node.branchAppend(child) }
        next.append(node)
        start = end
      }
      level = next
    }
    return level[0]
  }

  /// Traps unless counts, hash order, minimum hashes and uniform leaf depth hold.
  @inlinable
  func _checkInvariants() {
    guard let root else { return }
    precondition(root.count > 0, "_HashTree: empty root")
    precondition(root.isLeaf || root.count > 1, "_HashTree: internal root with one child")
    var previous: UInt64? = nil
    var leafDepth: Int? = nil
    var keys = Set<Key>()
    Self.check(root, depth: 0, previous: &previous, leafDepth: &leafDepth, keys: &keys)
    precondition(keys.count == root.total, "_HashTree: duplicate keys")
  }

  @inlinable
  static func check(_ node: Node, depth: Int, previous: inout UInt64?, leafDepth: inout Int?, keys: inout Set<Key>) {
    precondition(node.count > 0 && node.count <= node.slotCapacity, "_HashTree: node size")
    if node.isLeaf {
      if let leafDepth { precondition(leafDepth == depth, "_HashTree: uneven depth") } else { leafDepth = depth }
      for i in 0..<node.count {
        let entryHash = node.hashes[i]
        precondition(entryHash == hash(node.items[i].key), "_HashTree: stale hash")
        if let previous { precondition(previous <= entryHash, "_HashTree: hash order") }
        previous = entryHash
        keys.insert(node.items[i].key)
      }
      precondition(node.total == node.count, "_HashTree: leaf count")
      return
    }
    precondition(node.slotCapacity <= internalCapacity, "_HashTree: internal capacity")
    var count = 0
    for i in 0..<node.count {
      let child = node.children[i]
      precondition(child.minHash == node.hashes[i], "_HashTree: minHash")
      // Equal hashes never straddle two children.
      if let previous { precondition(previous < node.hashes[i], "_HashTree: run split between children") }
      count += child.total
      check(child, depth: depth + 1, previous: &previous, leafDepth: &leafDepth, keys: &keys)
    }
    precondition(node.total == count, "_HashTree: internal count")
  }
}

/// Two hash-sorted entry sequences merged into one (for ``_HashTree/insertNew(keys:sortedHashes:value:)``).
@usableFromInline
struct _MergedEntries<Key: Hashable & Sendable, Value: Sendable, New: Sequence<_HashEntry<Key, Value>>>: Sequence {
  @usableFromInline
  let existing: [_HashEntry<Key, Value>]
  @usableFromInline
  let new: New

  @inlinable
  init(existing: [_HashEntry<Key, Value>], new: New) {
    self.existing = existing
    self.new = new
  }

  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline
    var existing: IndexingIterator<[_HashEntry<Key, Value>]>
    @usableFromInline
    var new: New.Iterator
    @usableFromInline
    var nextExisting: _HashEntry<Key, Value>?
    @usableFromInline
    var nextNew: _HashEntry<Key, Value>?

    @inlinable
    init(existing: [_HashEntry<Key, Value>], new: New) {
      self.existing = existing.makeIterator()
      self.new = new.makeIterator()
      self.nextExisting = self.existing.next()
      self.nextNew = self.new.next()
    }

    @inlinable
    mutating func next() -> _HashEntry<Key, Value>? {
      if let a = nextExisting, nextNew.map({ a.hash <= $0.hash }) ?? true {
        nextExisting = existing.next()
        return a
      }
      let b = nextNew
      nextNew = new.next()
      return b
    }
  }

  @inlinable
  func makeIterator() -> Iterator { Iterator(existing: existing, new: new) }
}
