import ListState

/// The identifier → record slot map of a ``ListFold``: ``_ProbeBuckets`` (open addressing over
/// 8-byte words holding 32 hash bits and the slot); the identifiers themselves are not stored.
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
  /// The buckets (slot `s` is stored as index `s`).
  @usableFromInline
  var _buckets = _ProbeBuckets()

  /// The number of slots in the table.
  @usableFromInline
  var count = 0

  @inlinable
  init() {}

  /// The slot whose stored hash bits match `hash` and for which `isMatch` holds; nil if none.
  ///
  /// - Complexity: O(1) expected.
  @inlinable
  @inline(__always)
  func find(hash: Int, _ isMatch: (Int) -> Bool) -> Int? { _buckets.firstIndex(hash: hash, where: isMatch) }

  /// Adds `slot` under `hash` (the caller knows its identifier is not in the table).
  ///
  /// - Complexity: O(1) expected, amortized over the growth.
  @inlinable
  mutating func insert(slot: Int, hash: Int) {
    precondition(slot >= 0 && slot < Int(Int32.max), "too many items for a ListFold")
    if _buckets.needsGrowth(toHold: count + 1) { _buckets.grow() }
    _buckets.place(_ProbeBuckets.word(hash: hash, index: slot))
    count &+= 1
  }

  /// Removes `slot`, stored under `hash`.
  ///
  /// - Precondition: `slot` is in the table under `hash`.
  /// - Complexity: O(1) expected.
  @inlinable
  mutating func remove(slot: Int, hash: Int) {
    _buckets.remove(_ProbeBuckets.word(hash: hash, index: slot))
    count &-= 1
  }

  /// Makes room for `capacity` slots without growing again.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    while _buckets.needsGrowth(toHold: capacity) { _buckets.grow() }
  }

  /// Checks the buckets' probe runs and the count (tests build with `LISTJOURNAL_INVARIANTS`).
  @inlinable
  func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    let stored = _buckets._checkInvariants()
    precondition(stored == count, "\(stored) stored slots, count says \(count)")
    #endif
  }
}
