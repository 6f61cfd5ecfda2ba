/// A purpose-built hash set of identifiers that hands out each key's insertion index: the
/// identifier → position map of the diff, without `Dictionary`'s generic machinery.
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
/// returns one of them. The table never removes keys: the diff inserts each unmatched row once.
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
@usableFromInline
struct _IdentifierTable<ID: Hashable> {
  /// The keys in insertion order; lookups answer with an index into this array.
  @usableFromInline
  var keys: [ID]

  /// Per bucket: `(hash bits << 32) | (key index + 1)`, or 0 when empty.
  @usableFromInline
  var _buckets: [UInt64]

  /// `_buckets.count - 1` (the capacity is a power of two).
  @usableFromInline
  var _mask: Int

  /// An empty table that holds `minimumCapacity` keys before it grows.
  @inlinable
  init(minimumCapacity: Int = 0) {
    // Load factor ≤ 1/2: short probe runs, also for the misses (deleted rows) the diff looks up.
    var capacity = 16
    while capacity < 2 * minimumCapacity { capacity &<<= 1 }
    keys = []
    keys.reserveCapacity(minimumCapacity)
    _buckets = [UInt64](repeating: 0, count: capacity)
    _mask = capacity - 1
  }

  /// The number of keys.
  @inlinable
  var count: Int { keys.count }

  /// The hash value to pass to ``append(_:hash:)`` and ``firstIndex(of:hash:)`` for `id`.
  @inlinable
  static func hash(_ id: ID) -> Int { id.hashValue }

  /// The bucket word of the key at `index` with hash `hash`.
  @inlinable
  static func _word(hash: Int, index: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash)) &<< 32 | UInt64(truncatingIfNeeded: index &+ 1)
  }

  /// The index of a key equal to `id` (the first one found when duplicates were appended), or nil.
  ///
  /// - Precondition: `hash == Self.hash(id)`.
  /// - Complexity: O(1) expected.
  @inlinable
  func firstIndex(of id: ID, hash: Int) -> Int? {
    // Plain subscripts, not `withUnsafeBufferPointer`: the closures cost a retain and release of
    // both buffers per lookup, more than the bounds checks.
    let bits = UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash))
    var bucket = hash & _mask
    while true {
      let word = _buckets[bucket]
      if word == 0 { return nil }
      if word &>> 32 == bits {
        let index = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: word)) &- 1
        if keys[index] == id { return index }
      }
      bucket = (bucket &+ 1) & _mask
    }
  }

  /// Adds `id` (without checking whether it is there already) and returns its index.
  ///
  /// - Precondition: `hash == Self.hash(id)`.
  /// - Complexity: O(1) expected, amortized over the growth.
  @inlinable
  @discardableResult
  mutating func append(_ id: ID, hash: Int) -> Int {
    let index = keys.count
    // 2³¹ keys keep the capacity ≤ 2³², where the stored 32 hash bits still pick the bucket.
    precondition(index < Int(Int32.max), "too many identifiers for _IdentifierTable")
    if 2 * (index + 1) > _buckets.count { _grow() }
    keys.append(id)
    var bucket = hash & _mask
    while _buckets[bucket] != 0 { bucket = (bucket &+ 1) & _mask }
    _buckets[bucket] = Self._word(hash: hash, index: index)
    return index
  }

  /// Doubles the capacity, placing every key again from its stored hash bits.
  @inlinable
  mutating func _grow() {
    let capacity = _buckets.count * 2
    // The stored low 32 hash bits are the bucket bits of any capacity up to 2³² (see `append`).
    let mask = capacity - 1
    var grown = [UInt64](repeating: 0, count: capacity)
    grown.withUnsafeMutableBufferPointer { grown in
      for word in _buckets where word != 0 {
        var bucket = Int(truncatingIfNeeded: word &>> 32) & mask
        while grown[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        grown[bucket] = word
      }
    }
    _buckets = grown
    _mask = mask
  }
}
