/// The identifier → record slot map of a ``ListFold``: open addressing with linear probing over
/// a power-of-two array of 8-byte buckets. A bucket holds the low 32 bits of the identifier's
/// hash and the slot plus one (zero: empty); the identifiers themselves are not stored.
///
/// Why not `Dictionary<Item.ID, Int>`: a dictionary keeps its occupancy bits, keys and values
/// in three separate arrays, so a lookup on a large fold touches three cold cache lines before
/// the record it leads to. Here a probe reads one bucket line; when the stored hash bits agree,
/// the caller compares the identifier held in the record at that slot — the record it was about
/// to read anyway. Removal shifts the rest of the probe run back instead of leaving tombstones,
/// so lookups stay short however many items a long history deletes.
///
/// Hash values are the identifiers' `hashValue` (Swift's per-process seeded hash, so a crafted
/// journal cannot force collisions), computed by the caller once per identifier and event. A
/// type whose `hash(into:)` collides anyway still gets correct answers, only slower.
///
/// ```swift
/// var table = _FoldSlotTable()
/// table.insert(slot: 0, hash: "a".hashValue)
/// table.find(hash: "a".hashValue) { slot in records[slot].id == "a" }   // 0
/// table.remove(slot: 0, hash: "a".hashValue)
/// ```
/// - Complexity: `find`, `insert` and `remove` take O(1) expected time (`insert` amortized over
///   the growth); the load factor stays at most 1/2. At most `Int32.max` slots.
@usableFromInline
struct _FoldSlotTable: Sendable {
  /// Per bucket: `(low 32 hash bits << 32) | (slot + 1)`, or 0 when empty.
  @usableFromInline
  var _buckets: [UInt64]

  /// `_buckets.count - 1` (the capacity is a power of two, at most 2³²: the stored hash bits
  /// are then a bucket's home under any capacity, so growing and removal never rehash a key).
  @usableFromInline
  var _mask: Int

  /// The number of slots in the table.
  @usableFromInline
  var count: Int

  @inlinable
  init(minimumCapacity: Int = 0) {
    var capacity = 16
    while capacity < 2 * minimumCapacity { capacity &<<= 1 }
    _buckets = [UInt64](repeating: 0, count: capacity)
    _mask = capacity - 1
    count = 0
  }

  @inlinable
  @inline(__always)
  static func _word(hash: Int, slot: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash)) &<< 32 | UInt64(truncatingIfNeeded: slot &+ 1)
  }

  /// The home bucket of a stored word.
  @inlinable
  @inline(__always)
  func _home(_ word: UInt64) -> Int { Int(truncatingIfNeeded: word &>> 32) & _mask }

  /// The slot whose stored hash bits match `hash` and for which `isMatch` holds; nil if none.
  ///
  /// - Complexity: O(1) expected.
  @inlinable
  @inline(__always)
  func find(hash: Int, _ isMatch: (Int) -> Bool) -> Int? {
    let bits = UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash))
    var bucket = hash & _mask
    while true {
      let word = _buckets[bucket]
      if word == 0 { return nil }
      if word &>> 32 == bits {
        let slot = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: word)) &- 1
        if isMatch(slot) { return slot }
      }
      bucket = (bucket &+ 1) & _mask
    }
  }

  /// Adds `slot` under `hash` (the caller knows its identifier is not in the table).
  ///
  /// - Complexity: O(1) expected, amortized over the growth.
  @inlinable
  mutating func insert(slot: Int, hash: Int) {
    precondition(slot >= 0 && slot < Int(Int32.max), "too many items for a ListFold")
    if 2 * (count + 1) > _buckets.count { _grow() }
    var bucket = hash & _mask
    while _buckets[bucket] != 0 { bucket = (bucket &+ 1) & _mask }
    _buckets[bucket] = Self._word(hash: hash, slot: slot)
    count &+= 1
  }

  /// Removes `slot`, stored under `hash`.
  ///
  /// Later entries of the probe run move back into the gap when their home bucket allows it
  /// (backward-shift deletion), so no tombstone is left behind.
  ///
  /// - Precondition: `slot` is in the table under `hash`.
  /// - Complexity: O(1) expected.
  @inlinable
  mutating func remove(slot: Int, hash: Int) {
    let target = Self._word(hash: hash, slot: slot)
    var gap = hash & _mask
    while _buckets[gap] != target {
      precondition(_buckets[gap] != 0, "slot \(slot) is not in the fold's table")
      gap = (gap &+ 1) & _mask
    }
    var next = (gap &+ 1) & _mask
    while true {
      let word = _buckets[next]
      if word == 0 { break }
      // The entry may fill the gap when the gap lies between its home and where it sits
      // (cyclically): its distance from home is at least the gap's distance to it.
      if (next &- _home(word)) & _mask >= (next &- gap) & _mask {
        _buckets[gap] = word
        gap = next
      }
      next = (next &+ 1) & _mask
    }
    _buckets[gap] = 0
    count &-= 1
  }

  /// Makes room for `capacity` slots without growing again.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    while 2 * capacity > _buckets.count { _grow() }
  }

  /// Doubles the capacity, placing every word again from its stored hash bits.
  @inlinable
  mutating func _grow() {
    let capacity = _buckets.count * 2
    precondition(capacity <= 1 << 32, "too many items for a ListFold")
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

  /// Calls `body` with every stored (hash bits, slot) pair (invariant checks).
  @inlinable
  func forEach(_ body: (_ hashBits: UInt32, _ slot: Int) -> Void) {
    for word in _buckets where word != 0 {
      body(UInt32(truncatingIfNeeded: word &>> 32), Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: word)) &- 1)
    }
  }

  /// Checks that every stored word is reachable from its home bucket without crossing an
  /// empty bucket (what `find` and `remove` rely on).
  @inlinable
  func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    var stored = 0
    for bucket in _buckets.indices where _buckets[bucket] != 0 {
      stored += 1
      var probe = _home(_buckets[bucket])
      while probe != bucket {
        precondition(_buckets[probe] != 0, "bucket \(bucket) is cut off from its home by an empty bucket \(probe)")
        probe = (probe &+ 1) & _mask
      }
    }
    precondition(stored == count, "\(stored) stored words, count says \(count)")
    #endif
  }
}
