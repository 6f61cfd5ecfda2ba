/// A purpose-built hash set of identifiers that hands out each key's insertion index: the
/// identifier → position map of the diff and the history codec's intern tables, without
/// `Dictionary`'s generic machinery.
///
/// Keys live in insertion order in `keys`; a key's index there is what lookups return, so callers
/// keep whatever they need per key (a row position) in a parallel array. The table itself is one
/// flat array of 8-byte buckets, open addressing with linear probing over a power-of-two
/// capacity. A bucket holds the low 32 bits of the key's hash and the key's index plus one (zero:
/// empty), so a probe compares hash bits first and reads a key only when they agree, and growing
/// rehashes from the stored bits without hashing any key again.
///
/// Hash values are computed by the caller (``hash(_:)``) and passed in, so an identifier that is
/// both looked up and then inserted is hashed once. The hash is Swift's per-process seeded
/// `hashValue`, so crafted identifiers cannot force collisions; a type whose `hash(into:)`
/// collides anyway still gets correct answers, only slower (as with `Dictionary`).
///
/// Duplicates are allowed (``append(_:hash:)`` does not look); ``firstIndex(of:hash:)`` then
/// returns one of them. Only the newest key can be removed (``removeLast()``): the diff inserts
/// each unmatched row once, and the codec drops the entries of a record it rolls back.
///
/// Why not `Dictionary<ID, Int>`: a dictionary keeps its occupancy bits, keys and values in three
/// separate arrays, so a lookup in a large table touches three cold cache lines; here a probe
/// reads one bucket line and then the key, next to whatever the caller keeps per index.
///
/// ```swift
/// var table = _IdentifierTable<String>(minimumCapacity: 2)
/// let hash = _IdentifierTable<String>.hash("b")
/// table.append("a", hash: _IdentifierTable<String>.hash("a"))   // 0
/// table.append("b", hash: hash)                                 // 1
/// table.firstIndex(of: "b", hash: hash)                         // 1
/// ```
///
/// - Complexity: `append` and `firstIndex` take O(1) expected time (amortized, for `append`);
///   the load factor stays at most 1/2. Memory: one key plus 8–16 bytes of buckets per key.
///   At most `Int32.max` keys.
public struct _IdentifierTable<ID: Hashable> {
  /// The keys in insertion order; lookups answer with an index into this array.
  @usableFromInline
  package private(set) var keys: [ID]

  /// The buckets, holding each key's index.
  @usableFromInline
  package private(set) var _buckets: _ProbeBuckets

  /// An empty table that holds `minimumCapacity` keys before it grows.
  @inlinable
  package init(minimumCapacity: Int = 0) {
    // Load factor ≤ 1/2: short probe runs, also for the misses (deleted rows) the diff looks up.
    keys = []
    keys.reserveCapacity(minimumCapacity)
    _buckets = _ProbeBuckets(minimumCapacity: minimumCapacity)
  }

  /// The number of keys.
  @inlinable
  package var count: Int { keys.count }

  /// The hash value to pass to ``append(_:hash:)`` and ``firstIndex(of:hash:)`` for `id`.
  @inlinable
  package static func hash(_ id: ID) -> Int { id.hashValue }

  /// The index of a key equal to `id` (the first one found when duplicates were appended), or nil.
  ///
  /// - Precondition: `hash == Self.hash(id)`.
  /// - Complexity: O(1) expected.
  @inlinable
  package func firstIndex(of id: ID, hash: Int) -> Int? {
    _buckets.firstIndex(hash: hash) { keys[$0] == id }
  }

  /// Adds `id` (without checking whether it is there already) and returns its index.
  ///
  /// - Precondition: `hash == Self.hash(id)`.
  /// - Complexity: O(1) expected, amortized over the growth.
  @inlinable
  @discardableResult
  package mutating func append(_ id: ID, hash: Int) -> Int {
    let index = keys.count
    precondition(index < Int(Int32.max), "too many identifiers for _IdentifierTable")
    if _buckets.needsGrowth(toHold: index + 1) { _buckets.grow() }
    keys.append(id)
    _buckets.place(_ProbeBuckets.word(hash: hash, index: index))
    return index
  }

  /// The key at `index`.
  @inlinable
  package subscript(index: Int) -> ID { keys[index] }

  /// Removes the newest key (its bucket word is found from its hash and index, so duplicates
  /// of it stay).
  ///
  /// - Precondition: the table is not empty.
  /// - Complexity: O(1) expected (one hash of the key).
  @inlinable
  package mutating func removeLast() {
    let index = keys.count - 1
    _buckets.remove(_ProbeBuckets.word(hash: Self.hash(keys[index]), index: index))
    keys.removeLast()
  }

  /// Makes room for `count` keys in all (keys and buckets) without further growth.
  ///
  /// - Complexity: O(`count`) when it grows.
  @inlinable
  package mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    while _buckets.needsGrowth(toHold: count) { _buckets.grow() }
  }
}

extension _IdentifierTable: Sendable where ID: Sendable {}
