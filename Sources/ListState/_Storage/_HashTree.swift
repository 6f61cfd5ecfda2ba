/// A persistent hash map: a B+tree of entries ordered by the keys' hashes.
///
/// It stands in for `TreeDictionary` for the item records because it can be **built in bulk**:
/// hashing the keys, sorting by hash and filling leaves bottom-up costs about as much as
/// building a `Dictionary`, whereas inserting into a hash trie one key at a time costs several
/// times more. Lookups descend O(log n) nodes (4 levels at a million keys); updates copy the
/// path of shared nodes and mutate unique ones in place, so copies are O(1) and a mutation of
/// a copy is O(log n).
///
/// Keys with equal hashes sit next to each other in one leaf (splits never separate them).
///
/// ```swift
/// var map = _HashTree<String, Int>()
/// map.updateValue(1, forKey: "a")
/// map["a"]   // 1
/// ```
@usableFromInline
struct _HashTree<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline
  typealias Node = _HashTreeNode<Key, Value>
  @usableFromInline
  typealias Entry = _HashEntry<Key, Value>

  @inlinable
  static var leafCapacity: Int { 64 }
  @inlinable
  static var internalCapacity: Int { 64 }

  @usableFromInline
  var root: Node?

  @inlinable
  init() { root = nil }

  /// The number of keys.
  @inlinable
  var count: Int { root?.count ?? 0 }

  @inlinable
  var isEmpty: Bool { root == nil }

  /// The hash the map orders by (the standard library's per-process seeded hash).
  @inlinable
  static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }
}

// MARK: - Lookups

extension _HashTree {
  /// The value for `key`, or nil.
  ///
  /// - Complexity: O(log n).
  @inlinable
  subscript(key: Key) -> Value? {
    guard var node = root else { return nil }
    let hash = Self.hash(key)
    while !node.isLeaf { node = node.children[node.childIndex(forHash: hash)] }
    guard let position = node.entryIndex(of: key, hash: hash) else { return nil }
    return node.items[position].value
  }

  /// Whether `key` is present.
  @inlinable
  func contains(_ key: Key) -> Bool { self[key] != nil }

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
      for item in node.items { try body(item.key, item.value) }
    } else {
      for child in node.children { try forEach(child, body) }
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
      for i in 0..<node.hashes.count { result.append(node.entry(at: i)) }
    } else {
      for child in node.children { collect(child, into: &result) }
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
  mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    let entry = Entry(hash: Self.hash(key), key: key, value: value)
    guard root != nil else {
      root = Node(entries: [entry])
      return nil
    }
    var old: Value? = nil
    if let upper = Self.insert(entry, into: &root!, old: &old) {
      root = Node(children: [root!, upper])
    }
    return old
  }

  @inlinable
  static func insert(_ entry: Entry, into node: inout Node, old: inout Value?) -> Node? {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      if let position = node.entryIndex(of: entry.key, hash: entry.hash) {
        old = node.items[position].value
        node.items[position].value = entry.value
        return nil
      }
      var position = node.entryLowerBound(entry.hash)
      while position < node.hashes.count, node.hashes[position] == entry.hash { position += 1 }
      node.hashes.insert(entry.hash, at: position)
      node.items.insert(_HashItem(key: entry.key, value: entry.value), at: position)
      node.count += 1
      return node.hashes.count > leafCapacity ? node.splitOffUpperHalf() : nil
    }
    let child = node.childIndex(forHash: entry.hash)
    let upper = insert(entry, into: &node.children[child], old: &old)
    if old == nil { node.count += 1 }
    node.minHashes[child] = node.children[child].minHash
    if let upper {
      node.children.insert(upper, at: child + 1)
      node.minHashes.insert(upper.minHash, at: child + 1)
      if node.children.count > internalCapacity { return node.splitOffUpperHalf() }
    }
    return nil
  }

  /// Calls `body` with the value of `key` in place. `key` must be present.
  ///
  /// - Complexity: O(log n), plus `body`.
  @inlinable
  mutating func modify<R>(_ key: Key, _ body: (inout Value) throws -> R) rethrows -> R {
    precondition(root != nil, "_HashTree.modify: unknown key")
    return try Self.modify(key, Self.hash(key), in: &root!, body)
  }

  @inlinable
  static func modify<R>(_ key: Key, _ hash: UInt64, in node: inout Node, _ body: (inout Value) throws -> R) rethrows
    -> R
  {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    if node.isLeaf {
      guard let position = node.entryIndex(of: key, hash: hash) else {
        preconditionFailure("_HashTree.modify: unknown key \(key)")
      }
      return try body(&node.items[position].value)
    }
    return try modify(key, hash, in: &node.children[node.childIndex(forHash: hash)], body)
  }

  /// Removes `key`; returns its value, or nil (and no change) when absent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    guard root != nil, contains(key) else { return nil }
    let removed = Self.remove(key, Self.hash(key), from: &root!)
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.children.count == 1 {
      root = root!.children[0]
    }
    return removed
  }

  @inlinable
  static func remove(_ key: Key, _ hash: UInt64, from node: inout Node) -> Value {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
    node.count -= 1
    if node.isLeaf {
      let position = node.entryIndex(of: key, hash: hash)!
      node.hashes.remove(at: position)
      return node.items.remove(at: position).value
    }
    let child = node.childIndex(forHash: hash)
    let removed = remove(key, hash, from: &node.children[child])
    if node.children[child].count == 0 {
      node.children.remove(at: child)
      node.minHashes.remove(at: child)
    } else {
      node.minHashes[child] = node.children[child].minHash
      let capacity = node.children[child].isLeaf ? leafCapacity : internalCapacity
      if node.children[child].slotCount < capacity / 4, node.children.count > 1 {
        rebalance(node, around: child)
      }
    }
    return removed
  }

  /// Merges the underfull child at `index` with a neighbour, or splits their slots anew.
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
    if a.isLeaf {
      let hashes = a.hashes + b.hashes
      let items = a.items + b.items
      if hashes.count > capacity, let split = Node.splitPoint(count: hashes.count, hash: { hashes[$0] }) {
        a.hashes = Array(hashes[..<split])
        a.items = Array(items[..<split])
        b.hashes = Array(hashes[split...])
        b.items = Array(items[split...])
        a.count = a.hashes.count
        b.count = b.hashes.count
        parent.minHashes[left] = a.minHash
        parent.minHashes[right] = b.minHash
        return
      }
      a.hashes = hashes
      a.items = items
      a.count = hashes.count
    } else {
      var allChildren = a.children
      allChildren.append(contentsOf: b.children)
      var allHashes = a.minHashes
      allHashes.append(contentsOf: b.minHashes)
      if allChildren.count > capacity {
        let split = allChildren.count / 2
        a.children = Array(allChildren[..<split])
        a.minHashes = Array(allHashes[..<split])
        b.children = Array(allChildren[split...])
        b.minHashes = Array(allHashes[split...])
        a.count = a.children.reduce(0) { $0 + $1.count }
        b.count = b.children.reduce(0) { $0 + $1.count }
        parent.minHashes[left] = a.minHash
        parent.minHashes[right] = b.minHash
        return
      }
      a.children = allChildren
      a.minHashes = allHashes
      a.count += b.count
    }
    parent.children.remove(at: right)
    parent.minHashes.remove(at: right)
    parent.minHashes[left] = a.minHash
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

  /// Builds a tree from entries sorted by hash, bottom-up, streaming them into leaves.
  @inlinable
  static func build<S: Sequence<Entry>>(_ sorted: S) -> Node? {
    var level: [Node] = []
    var hashes: [UInt64] = []
    var items: [_HashItem<Key, Value>] = []
    hashes.reserveCapacity(leafCapacity)
    items.reserveCapacity(leafCapacity)
    for entry in sorted {
      // A full leaf is closed, unless that would separate equal hashes.
      if hashes.count >= leafCapacity, hashes[hashes.count - 1] != entry.hash {
        level.append(Node(hashes: hashes, items: items))
        hashes = []
        items = []
        hashes.reserveCapacity(leafCapacity)
        items.reserveCapacity(leafCapacity)
      }
      hashes.append(entry.hash)
      items.append(_HashItem(key: entry.key, value: entry.value))
    }
    guard !hashes.isEmpty else { return nil }
    level.append(Node(hashes: hashes, items: items))
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

  /// Traps unless counts, hash order, minimum hashes and uniform leaf depth hold.
  @inlinable
  func _checkInvariants() {
    guard let root else { return }
    var previous: UInt64? = nil
    var leafDepth: Int? = nil
    var keys = Set<Key>()
    Self.check(root, depth: 0, previous: &previous, leafDepth: &leafDepth, keys: &keys)
    precondition(keys.count == root.count, "_HashTree: duplicate keys")
  }

  @inlinable
  static func check(_ node: Node, depth: Int, previous: inout UInt64?, leafDepth: inout Int?, keys: inout Set<Key>) {
    if node.isLeaf {
      precondition(!node.hashes.isEmpty && node.hashes.count == node.items.count, "_HashTree: leaf arrays")
      if let leafDepth { precondition(leafDepth == depth, "_HashTree: uneven depth") } else { leafDepth = depth }
      for (entryHash, item) in zip(node.hashes, node.items) {
        precondition(entryHash == hash(item.key), "_HashTree: stale hash")
        if let previous { precondition(previous <= entryHash, "_HashTree: hash order") }
        previous = entryHash
        keys.insert(item.key)
      }
      precondition(node.count == node.hashes.count, "_HashTree: leaf count")
      return
    }
    precondition(node.children.count == node.minHashes.count && !node.children.isEmpty, "_HashTree: shape")
    var count = 0
    for (child, minHash) in zip(node.children, node.minHashes) {
      precondition(child.minHash == minHash, "_HashTree: minHash")
      // Equal hashes never straddle two children.
      if let previous { precondition(previous < minHash, "_HashTree: run split between children") }
      count += child.count
      check(child, depth: depth + 1, previous: &previous, leafDepth: &leafDepth, keys: &keys)
    }
    precondition(node.count == count, "_HashTree: internal count")
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
