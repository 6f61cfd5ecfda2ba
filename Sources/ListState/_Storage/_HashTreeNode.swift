/// A node of a ``_HashTree``: a leaf of entries sorted by hash, or an internal node of children
/// with the smallest hash below each.
///
/// Like ``_OrderedTreeNode``, nodes are shared between snapshots and mutated in place only while
/// uniquely referenced (path copying otherwise); hence `@unchecked Sendable`.
@usableFromInline
final class _HashTreeNode<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  @usableFromInline
  typealias Entry = _HashEntry<Key, Value>

  /// Leaf payload, sorted by hash; entries with equal hashes are adjacent and never split
  /// between two leaves.
  @usableFromInline
  var entries: [Entry]
  /// Internal payload.
  @usableFromInline
  var children: [_HashTreeNode]
  /// `minHashes[i]` is the smallest hash under `children[i]`.
  @usableFromInline
  var minHashes: [UInt64]
  @usableFromInline
  let isLeaf: Bool
  /// Entries in the subtree.
  @usableFromInline
  var count: Int

  @inlinable
  init(entries: [Entry]) {
    self.entries = entries
    self.children = []
    self.minHashes = []
    self.isLeaf = true
    self.count = entries.count
  }

  @inlinable
  init(children: [_HashTreeNode]) {
    self.entries = []
    self.children = children
    self.minHashes = children.map(\.minHash)
    self.isLeaf = false
    var count = 0
    for child in children { count &+= child.count }
    self.count = count
  }

  @inlinable
  init(copying other: _HashTreeNode) {
    self.entries = other.entries
    self.children = other.children
    self.minHashes = other.minHashes
    self.isLeaf = other.isLeaf
    self.count = other.count
  }

  @inlinable
  var minHash: UInt64 { isLeaf ? entries[0].hash : minHashes[0] }

  @inlinable
  var slotCount: Int { isLeaf ? entries.count : children.count }

  /// The child that holds (or would hold) entries with `hash`: the last one whose smallest hash
  /// is `<= hash`, or 0.
  @inlinable
  func childIndex(forHash hash: UInt64) -> Int {
    var low = 1
    var high = minHashes.count
    while low < high {
      let mid = (low + high) >> 1
      if minHashes[mid] <= hash { low = mid + 1 } else { high = mid }
    }
    return low - 1
  }

  /// The first entry whose hash is `>= hash` (leaves only).
  @inlinable
  func entryLowerBound(_ hash: UInt64) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) >> 1
      if entries[mid].hash < hash { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The position of `key` (with `hash`) in this leaf, if present.
  @inlinable
  func entryIndex(of key: Key, hash: UInt64) -> Int? {
    var position = entryLowerBound(hash)
    while position < entries.count, entries[position].hash == hash {
      if entries[position].key == key { return position }
      position += 1
    }
    return nil
  }

  /// A split point near the middle of `hashes` that does not separate equal hashes; nil when
  /// every hash is equal.
  @inlinable
  static func splitPoint(count: Int, hash: (Int) -> UInt64) -> Int? {
    let middle = count / 2
    var offset = 0
    while offset < count {
      let up = middle + offset
      if up > 0, up < count, hash(up - 1) != hash(up) { return up }
      let down = middle - offset
      if down > 0, down < count, hash(down - 1) != hash(down) { return down }
      offset += 1
    }
    return nil
  }

  /// Splits off the upper half of an overfull node; nil when a leaf holds a single run of equal
  /// hashes (it then stays oversized, which only adversarial hash collisions can cause).
  @inlinable
  func splitOffUpperHalf() -> _HashTreeNode? {
    if isLeaf {
      guard let split = Self.splitPoint(count: entries.count, hash: { entries[$0].hash }) else { return nil }
      let upper = _HashTreeNode(entries: Array(entries[split...]))
      entries.removeSubrange(split...)
      count = entries.count
      return upper
    }
    let split = children.count / 2
    let upper = _HashTreeNode(children: Array(children[split...]))
    children.removeSubrange(split...)
    minHashes.removeSubrange(split...)
    count -= upper.count
    return upper
  }
}
