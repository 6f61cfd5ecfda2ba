/// Lookups that save descents: two keys found side by side, a record reached once for a whole
/// operation, and a removal that is its own existence check.
///
/// Each descent of a large map waits on a cache miss per level (at a million keys: the level
/// above the leaves, the leaf's slots, then the entry). An operation that looked the same key
/// up two or three times, or two unrelated keys one after the other, paid for those chains in
/// sequence. These entry points pay once, or (for two keys) overlap the two chains.
extension _HashTree {
  /// The entries of two keys, found by one descent that steps both searches down a level at a
  /// time; nil for a key that is absent. The addresses are valid until the map is next mutated.
  ///
  /// The two searches do not depend on each other, so a processor running the loads of one
  /// level of both back to back waits for their cache misses at the same time instead of one
  /// after the other: two cold lookups cost about one.
  ///
  /// ```swift
  /// let (a, b) = map.peekPair("a", hash: _HashTree<String, Int>.hash("a"), "b", hash: _HashTree<String, Int>.hash("b"))
  /// a?.pointee.value   // the value of "a"
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  func peekPair(_ keyA: Key, hash hashA: UInt64, _ keyB: Key, hash hashB: UInt64)
    -> (UnsafeMutablePointer<Item>?, UnsafeMutablePointer<Item>?)
  {
    guard let root else { return (nil, nil) }
    // Unretained: `self` keeps every node alive (see `_HashNode.unretainedChild(_:)`).
    var nodeA = Unmanaged.passUnretained(root)
    var nodeB = nodeA
    var countA = root.count
    var countB = countA
    var lowA: UInt64 = 0
    var highA: UInt64 = .max
    var lowB: UInt64 = 0
    var highB: UInt64 = .max
    var height = root.height
    while height > 0 {
      nodeA = Self.descend(nodeA, toward: hashA, low: &lowA, high: &highA, count: &countA)
      nodeB = Self.descend(nodeB, toward: hashB, low: &lowB, high: &highB, count: &countB)
      height &-= 1
    }
    // Both leaves' slot lines first, then the entries: the second leaf's miss overlaps the
    // first's.
    let positionA = nodeA._withUnsafeGuaranteedRef { $0.lowerBound(hashA, low: lowA, high: highA, count: countA) }
    let positionB = nodeB._withUnsafeGuaranteedRef { $0.lowerBound(hashB, low: lowB, high: highB, count: countB) }
    return (
      nodeA._withUnsafeGuaranteedRef { Self.entry(keyA, hashA, in: $0, from: positionA, count: countA) },
      nodeB._withUnsafeGuaranteedRef { Self.entry(keyB, hashB, in: $0, from: positionB, count: countB) }
    )
  }

  /// The entry of `key` in `leaf`, looking from `position` (the first slot whose hash is not
  /// below `hash`) through the run of equal hashes; nil when absent.
  @inlinable
  @inline(__always)
  static func entry(_ key: Key, _ hash: UInt64, in leaf: Node, from position: Int, count n: Int)
    -> UnsafeMutablePointer<Item>?
  {
    var position = position
    while position < n, leaf.leafHash(position) == hash {
      let item = leaf.item(at: position)
      if item.pointee.key == key { return item }
      position &+= 1
    }
    return nil
  }

  /// The entry of `key` after making every node on its path uniquely referenced (copying
  /// shared ones), so that the entry can be changed in place; nil when absent (the path may
  /// still have been copied, which changes nothing observable).
  ///
  /// The address stays valid while keys are neither inserted nor removed and the map is not
  /// copied: changing other keys' values in place (``modify(_:hash:_:)``) keeps it. One
  /// operation can thus read a record, change other parts of the state, and write the record
  /// back, all with one descent.
  ///
  /// ```swift
  /// if let entry = map.uniqueEntry("a", hash: _HashTree<String, Int>.hash("a")) { entry.pointee.value += 1 }
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  mutating func uniqueEntry(_ key: Key, hash: UInt64) -> UnsafeMutablePointer<Item>? {
    guard root != nil else { return nil }
    let (count, height) = (root!.count, root!.height)
    return Self.uniqueEntry(key, hash, in: &root!, count: count, height: height, low: 0, high: .max)
  }

  @inlinable
  static func uniqueEntry(
    _ key: Key, _ hash: UInt64, in node: inout Node, count n: Int, height: Int, low: UInt64, high: UInt64
  ) -> UnsafeMutablePointer<Item>? {
    makeUnique(&node)
    if height == 0 {
      let position = node.lowerBound(hash, low: low, high: high, count: n)
      return entry(key, hash, in: node, from: position, count: n)
    }
    let child = node.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = node.childHigh(child, high: high, count: n)
    return uniqueEntry(
      key, hash, in: &slot.pointee.child, count: slot.pointee.count, height: height - 1, low: childLow,
      high: childHigh)
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
    let (count, height) = (root!.count, root!.height)
    guard let removed = Self.take(key, hash, from: &root!, count: count, height: height, low: 0, high: .max) else {
      return nil
    }
    if root!.count == 0 {
      root = nil
    } else if !root!.isLeaf, root!.count == 1 {
      root = root!.branchSlots[0].child
    }
    return removed
  }

  @inlinable
  static func take(
    _ key: Key, _ hash: UInt64, from node: inout Node, count n: Int, height: Int, low: UInt64, high: UInt64
  ) -> Value? {
    makeUnique(&node)
    if height == 0 {
      guard let position = node.entryIndex(of: key, hash: hash, low: low, high: high, count: n) else { return nil }
      return node.leafRemove(at: position).value
    }
    let child = node.childIndex(forHash: hash, low: low, high: high, count: n)
    let slot = node.branchSlots + child
    let childLow = slot.pointee.minHash
    let childHigh = node.childHigh(child, high: high, count: n)
    guard
      let removed = take(
        key, hash, from: &slot.pointee.child, count: slot.pointee.count, height: height - 1, low: childLow,
        high: childHigh)
    else { return nil }
    node.total &-= 1
    let remaining = node.branchSlots[child].child.count
    if remaining == 0 {
      _ = node.branchRemove(at: child)
    } else {
      node.refreshSlot(child)
      let capacity = node.branchSlots[child].child.isLeaf ? leafCapacity : internalCapacity
      if remaining < capacity / 4, node.count > 1 { rebalance(node, around: child) }
    }
    return removed
  }
}
