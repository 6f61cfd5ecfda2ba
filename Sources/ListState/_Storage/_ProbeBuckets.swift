/// The bucket array of an identifier table that keeps its keys elsewhere: open addressing with
/// linear probing over a power-of-two array of 8-byte words. A word holds the low 32 bits of a
/// key's hash and the key's index plus one (zero: empty), so a probe compares hash bits first and
/// asks the owner to compare a key only when they agree, and growing or removing re-places words
/// from their stored hash bits without hashing any key again.
///
/// Shared by the diff's identifier → row table (keys in insertion order, never removed) and the
/// fold's identifier → record slot table (keys in the records, removed as items are deleted).
/// Hash values are the keys' `hashValue` (Swift's per-process seeded hash), computed by the owner.
///
/// ```swift
/// var buckets = _ProbeBuckets(minimumCapacity: 2)
/// buckets.place(_ProbeBuckets.word(hash: keys[0].hashValue, index: 0))
/// buckets.firstIndex(hash: keys[0].hashValue) { keys[$0] == keys[0] }   // 0
/// ```
/// - Complexity: `firstIndex`, `place` and `remove` take O(1) expected time while the owner keeps
///   the load factor at most 1/2 (``needsGrowth(toHold:)``); `grow` is O(capacity). At most 2³²
///   buckets, so that the stored hash bits pick a word's home under any capacity.
public struct _ProbeBuckets: Sendable {
  /// Per bucket: `(low 32 hash bits << 32) | (index + 1)`, or 0 when empty.
  @usableFromInline
  package var words: [UInt64]

  /// `words.count - 1` (the capacity is a power of two).
  @usableFromInline
  package var mask: Int

  /// Empty buckets for `minimumCapacity` keys at a load factor of at most 1/2.
  @inlinable
  package init(minimumCapacity: Int = 0) {
    var capacity = 16
    while capacity < 2 * minimumCapacity { capacity &<<= 1 }
    words = [UInt64](repeating: 0, count: capacity)
    mask = capacity - 1
  }

  /// The word of the key at `index` with hash `hash`.
  @inlinable
  @inline(__always)
  package static func word(hash: Int, index: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash)) &<< 32 | UInt64(truncatingIfNeeded: index &+ 1)
  }

  /// The key index a non-empty word holds.
  @inlinable
  @inline(__always)
  package static func index(of word: UInt64) -> Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: word)) &- 1 }

  /// The bucket a word's key hashes to.
  @inlinable
  @inline(__always)
  package func home(of word: UInt64) -> Int { Int(truncatingIfNeeded: word &>> 32) & mask }

  /// Whether `count` keys would take the load factor above 1/2.
  @inlinable
  @inline(__always)
  package func needsGrowth(toHold count: Int) -> Bool { 2 * count > words.count }

  /// The index in the first word whose hash bits match `hash` and for which `isMatch` holds.
  @inlinable
  @inline(__always)
  package func firstIndex(hash: Int, where isMatch: (Int) -> Bool) -> Int? {
    // Plain subscripts, not `withUnsafeBufferPointer`: the closure costs a retain and release of
    // the buffer per lookup, more than the bounds checks.
    let bits = UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash))
    var bucket = hash & mask
    while true {
      let word = words[bucket]
      if word == 0 { return nil }
      if word &>> 32 == bits {
        let index = Self.index(of: word)
        if isMatch(index) { return index }
      }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Puts `word` in the first empty bucket from its home (the owner grows first when needed).
  @inlinable
  package mutating func place(_ word: UInt64) {
    var bucket = home(of: word)
    while words[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    words[bucket] = word
  }

  /// Removes `word`, shifting the rest of its probe run back into the gap where each word's home
  /// allows it (backward-shift deletion: no tombstones, so lookups stay short).
  ///
  /// - Precondition: `word` is in the buckets.
  @inlinable
  package mutating func remove(_ word: UInt64) {
    var gap = home(of: word)
    while words[gap] != word {
      precondition(words[gap] != 0, "removing a word that is not in the buckets")
      gap = (gap &+ 1) & mask
    }
    var next = (gap &+ 1) & mask
    while true {
      let moving = words[next]
      if moving == 0 { break }
      // The word may fill the gap when the gap lies between its home and where it sits
      // (cyclically): its distance from home is at least the gap's distance to it.
      if (next &- home(of: moving)) & mask >= (next &- gap) & mask {
        words[gap] = moving
        gap = next
      }
      next = (next &+ 1) & mask
    }
    words[gap] = 0
  }

  /// Doubles the capacity, placing every word again from its stored hash bits.
  @inlinable
  package mutating func grow() {
    let capacity = words.count * 2
    precondition(capacity <= 1 << 32, "too many keys for _ProbeBuckets")
    let mask = capacity - 1
    var grown = [UInt64](repeating: 0, count: capacity)
    grown.withUnsafeMutableBufferPointer { grown in
      for word in words where word != 0 {
        var bucket = Int(truncatingIfNeeded: word &>> 32) & mask
        while grown[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        grown[bucket] = word
      }
    }
    words = grown
    self.mask = mask
  }

  /// Checks that every word is reachable from its home without crossing an empty bucket (what
  /// lookups and removal rely on); returns the number of words.
  @usableFromInline
  package func _checkInvariants() -> Int {
    var stored = 0
    for bucket in words.indices where words[bucket] != 0 {
      stored += 1
      var probe = home(of: words[bucket])
      while probe != bucket {
        precondition(words[probe] != 0, "bucket \(bucket) is cut off from its home by an empty bucket \(probe)")
        probe = (probe &+ 1) & mask
      }
    }
    return stored
  }
}
