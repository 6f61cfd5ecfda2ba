/// A node of a ``_HashTree``: a leaf of entries sorted by hash, or an internal node of children
/// with the smallest hash below each.
///
/// Like ``_OrderedTreeNode``, nodes are shared between snapshots and mutated in place only while
/// uniquely referenced (path copying otherwise); hence `@unchecked Sendable`.
@usableFromInline
final class _HashTreeNode<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  @usableFromInline
  typealias Entry = _HashEntry<Key, Value>

  /// Leaf: the keys' hashes, sorted; equal hashes are adjacent and never split between two
  /// leaves. Kept apart from the items so that a search reads a compact array.
  @usableFromInline
  var hashes: [UInt64]
  /// Leaf: the keys and values, in the order of `hashes`.
  @usableFromInline
  var items: [_HashItem<Key, Value>]
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
    self.hashes = entries.map(\.hash)
    self.items = entries.map { _HashItem(key: $0.key, value: $0.value) }
    self.children = []
    self.minHashes = []
    self.isLeaf = true
    self.count = entries.count
  }

  @inlinable
  init(hashes: [UInt64], items: [_HashItem<Key, Value>]) {
    self.hashes = hashes
    self.items = items
    self.children = []
    self.minHashes = []
    self.isLeaf = true
    self.count = hashes.count
  }

  @inlinable
  init(children: [_HashTreeNode]) {
    self.hashes = []
    self.items = []
    self.children = children
    self.minHashes = children.map(\.minHash)
    self.isLeaf = false
    var count = 0
    for child in children { count &+= child.count }
    self.count = count
  }

  @inlinable
  init(copying other: _HashTreeNode) {
    self.hashes = other.hashes
    self.items = other.items
    self.children = other.children
    self.minHashes = other.minHashes
    self.isLeaf = other.isLeaf
    self.count = other.count
  }

  @inlinable
  var minHash: UInt64 { isLeaf ? hashes[0] : minHashes[0] }

  @inlinable
  var slotCount: Int { isLeaf ? hashes.count : children.count }

  /// The child that holds (or would hold) entries with `hash`: the last one whose smallest hash
  /// is `<= hash`, or 0.
  @inlinable
  func childIndex(forHash hash: UInt64) -> Int {
    minHashes.withUnsafeBufferPointer { _SortedSearch.lastNotAbove($0, hash) }
  }

  /// The first position whose hash is `>= hash` (leaves only).
  @inlinable
  func entryLowerBound(_ hash: UInt64) -> Int {
    hashes.withUnsafeBufferPointer { _SortedSearch.lowerBound($0, hash) }
  }

  /// The position of `key` (with `hash`) in this leaf, if present.
  @inlinable
  func entryIndex(of key: Key, hash: UInt64) -> Int? {
    var position = entryLowerBound(hash)
    while position < hashes.count, hashes[position] == hash {
      if items[position].key == key { return position }
      position += 1
    }
    return nil
  }

  /// Leaf entry `i` with its hash.
  @inlinable
  func entry(at i: Int) -> Entry { Entry(hash: hashes[i], key: items[i].key, value: items[i].value) }

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
      guard let split = Self.splitPoint(count: hashes.count, hash: { hashes[$0] }) else { return nil }
      let upper = _HashTreeNode(copying: self)
      upper.hashes = Array(hashes[split...])
      upper.items = Array(items[split...])
      upper.count = upper.hashes.count
      hashes.removeSubrange(split...)
      items.removeSubrange(split...)
      count = hashes.count
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
