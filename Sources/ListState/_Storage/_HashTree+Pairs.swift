/// Walking two maps side by side in hash order: the keys they have in common, without a lookup
/// per key.
extension _HashTree {
  /// Calls `body` with this map's and `other`'s value of every key present in both, except keys
  /// in leaves the two maps share (the same node: same keys, same values), in hash order.
  ///
  /// Both maps are ordered by the same hash, so one merge pass over their leaves finds the
  /// common keys; a leaf both maps reference is skipped without reading it. Comparing a map with
  /// an edited copy of itself therefore reads only the leaves the edits copied.
  ///
  /// ```swift
  /// var edited = map
  /// edited.updateValue(5, forKey: "b")
  /// map.forEachCommonKey(with: edited) { print($0, $1) }   // only the leaf holding "b": 2 5, …
  /// ```
  ///
  /// - Complexity: O(n + m) for maps of n and m keys (sequential reads, no hashing), O(l + k)
  ///   for l leaves when all but k keys sit in shared leaves.
  @inlinable
  func forEachCommonKey(with other: _HashTree, _ body: (Value, Value) throws -> Void) rethrows {
    guard let left = root, let right = other.root, left !== right else { return }
    var a = LeafCursor(Self.leaves(of: left))
    var b = LeafCursor(Self.leaves(of: right))
    while !a.isAtEnd, !b.isAtEnd {
      if a.index == 0, b.index == 0, a.leaf === b.leaf {
        a.skipLeaf()
        b.skipLeaf()
        continue
      }
      let hashA = a.hash, hashB = b.hash
      if hashA < hashB {
        a.advance()
      } else if hashA > hashB {
        b.advance()
      } else if !a.nextHasSameHash, !b.nextHasSameHash {
        if a.key == b.key { try body(a.value, b.value) }
        a.advance()
        b.advance()
      } else {
        // Colliding keys: pair the two runs of this hash by key (runs are short).
        var runA: [_HashItem<Key, Value>] = []
        var runB: [_HashItem<Key, Value>] = []
        while !a.isAtEnd, a.hash == hashA {
          runA.append(a.item)
          a.advance()
        }
        while !b.isAtEnd, b.hash == hashB {
          runB.append(b.item)
          b.advance()
        }
        for x in runA {
          if let y = runB.first(where: { $0.key == x.key }) { try body(x.value, y.value) }
        }
      }
    }
  }

  /// The leaves under `node`, in hash order.
  @inlinable
  static func leaves(of node: Node) -> [Node] {
    var leaves: [Node] = []
    leaves.reserveCapacity(node.total / (leafCapacity / 2) + 1)
    collectLeaves(node, into: &leaves)
    return leaves
  }

  @inlinable
  static func collectLeaves(_ node: Node, into leaves: inout [Node]) {
    if node.isLeaf {
      leaves.append(node)
    } else {
      for i in 0..<node.count { collectLeaves(node.branchSlots[i].child, into: &leaves) }
    }
  }

  /// A position in a sequence of leaves, stepping through each leaf's slots in hash order.
  @usableFromInline
  struct LeafCursor {
    @usableFromInline
    let leaves: [Node]
    @usableFromInline
    var leafIndex = 0
    /// Position in the current leaf's hash order.
    @usableFromInline
    var index = 0
    /// Entries in the current leaf (0 past the end).
    @usableFromInline
    var leafCount = 0

    @inlinable
    init(_ leaves: [Node]) {
      self.leaves = leaves
      load()
    }

    @inlinable
    mutating func load() {
      // Leaves are never empty (an emptied leaf is removed), so `index` stays in range.
      leafCount = leafIndex < leaves.count ? leaves[leafIndex].count : 0
    }

    @inlinable
    var isAtEnd: Bool { leafIndex >= leaves.count }
    @inlinable
    var leaf: Node { leaves[leafIndex] }
    @inlinable
    var hash: UInt64 { leaves[leafIndex].leafHash(index) }
    @inlinable
    var key: Key { leaves[leafIndex].item(at: index).pointee.key }
    @inlinable
    var value: Value { leaves[leafIndex].item(at: index).pointee.value }
    @inlinable
    var item: _HashItem<Key, Value> { leaves[leafIndex].item(at: index).pointee }

    /// Whether the next entry (maybe in the next leaf) has the current hash.
    @inlinable
    var nextHasSameHash: Bool {
      let current = hash
      if index + 1 < leafCount { return leaves[leafIndex].leafHash(index + 1) == current }
      return leafIndex + 1 < leaves.count && leaves[leafIndex + 1].leafHash(0) == current
    }

    @inlinable
    mutating func advance() {
      index += 1
      if index == leafCount { skipLeaf() }
    }

    @inlinable
    mutating func skipLeaf() {
      leafIndex += 1
      index = 0
      load()
    }
  }
}
