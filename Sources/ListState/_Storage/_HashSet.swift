/// A persistent set: a ``_HashTree`` with no values. Holds a snapshot's reload/reconfigure
/// markers (taking over from `TreeSet`, so that a marker costs one descent of the same compact
/// nodes as the records, without a separate hash-trie implementation).
///
/// ```swift
/// var set = _HashSet<Int>()
/// set.insert(3)
/// set.contains(3)   // true
/// ```
@usableFromInline
struct _HashSet<Element: Hashable & Sendable>: Sendable, Sequence {
  @usableFromInline
  typealias Tree = _HashTree<Element, ()>

  @usableFromInline
  var tree: Tree

  @inlinable
  init() { tree = _HashTree() }

  @inlinable
  var isEmpty: Bool { tree.isEmpty }

  @inlinable
  var count: Int { tree.count }

  /// - Complexity: O(log n).
  @inlinable
  func contains(_ element: Element) -> Bool { tree.contains(element) }

  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ element: Element) { _ = tree._insert({ () }, forKey: element, hash: Tree.hash(element)) }

  /// - Complexity: O(log n).
  @inlinable
  mutating func remove(_ element: Element) { tree.removeValue(forKey: element) }

  /// Like ``insert(_:)`` with the element's hash (``_HashTree/hash(_:)``) already computed.
  @inlinable
  mutating func insert(_ element: Element, hash: UInt64) { _ = tree._insert({ () }, forKey: element, hash: hash) }

  /// Like ``remove(_:)`` with the element's hash already computed.
  @inlinable
  mutating func remove(_ element: Element, hash: UInt64) { tree.removeValue(forKey: element, hash: hash) }

  /// Iterates a copy of the elements (in hash order).
  ///
  /// - Complexity: O(n) to start.
  @inlinable
  func makeIterator() -> IndexingIterator<[Element]> {
    var elements: [Element] = []
    elements.reserveCapacity(count)
    tree.forEachKey { elements.append($0) }
    return elements.makeIterator()
  }

  @inlinable
  var underestimatedCount: Int { count }
}
