import ListState

/// Pairs the rows of two states that carry the same identifier, hashing as few of them as it can.
///
/// Rows are numbered globally: the diff lays the changed stretches of every changed section pair
/// end to end, old and new apart (`oldBase` / `newBase` are where a pair's stretches start).
/// ``match(old:oldBase:new:newBase:newToOld:oldMatched:)`` is called once per pair, in any order;
/// a row can be matched with a row of another pair (a move between sections).
///
/// Identifiers are unique per state, so two equal identifiers seen at aligned places are a match
/// without hashing: the walk advances through both stretches comparing rows in place and, when
/// they differ, first looks a few rows ahead on both sides for the nearest equal pair (a short
/// run of inserts or deletes — the common edit). Only rows it steps over unmatched are hashed,
/// once each: such a row is looked up among the other side's unmatched rows seen so far (in any
/// pair) and, when absent, kept in its own side's table for later rows to find. When the two
/// stretches have drifted apart (a long run of inserts, a block moved away), the table hits tell
/// which side is ahead and only that side advances until they align again.
///
/// The result is exactly the identifier matching, whatever path found each pair: a row ends
/// matched iff the other state has its identifier (for unique identifiers). With duplicate
/// identifiers each row is still matched at most once; which duplicates pair up is unspecified.
///
/// ```swift
/// var matcher = _RowMatcher<Int>(minimumCapacity: 0)
/// // old [1, 2, 3, 4], new [4, 1, 3, 5]: 1 and 3 match in place, 4 through the tables.
/// matcher.match(old: oldRows, oldBase: 0, new: newRows, newBase: 0, newToOld: map, oldMatched: flags)
/// // map == [3, 0, 2, -1], flags == [true, false, true, true]
/// ```
///
/// - Complexity: O(m + k) for stretches of m and k rows, plus one hash and O(1) expected table
///   work per row stepped over unmatched. Rows that stay aligned cost one comparison each; a
///   drift costs a hash per row until realigned. After each failed look-ahead the walk skips it
///   for twice as many mismatches as before (up to 256), so shuffled rows pay little for it.
@usableFromInline
struct _RowMatcher<ID: Hashable> {
  /// Old rows stepped over unmatched, and where each is (global old index).
  @usableFromInline
  var oldSeen: _IdentifierTable<ID>
  @usableFromInline
  var oldSeenPosition: [Int] = []
  /// New rows stepped over unmatched, and where each is (global new index).
  @usableFromInline
  var newSeen: _IdentifierTable<ID>
  @usableFromInline
  var newSeenPosition: [Int] = []

  /// How far ahead (rows skipped on both sides together) the walk looks for the nearest equal
  /// pair before it hashes: 3 catches most runs of edits at ≤ 9 comparisons per miss.
  @inlinable
  static var lookAhead: Int { 3 }

  /// Tables sized for about `minimumCapacity` unmatched rows per side (they grow beyond).
  @inlinable
  init(minimumCapacity: Int) {
    oldSeen = _IdentifierTable(minimumCapacity: minimumCapacity)
    newSeen = _IdentifierTable(minimumCapacity: minimumCapacity)
    oldSeenPosition.reserveCapacity(minimumCapacity)
    newSeenPosition.reserveCapacity(minimumCapacity)
  }

  /// Matches the old stretch `old` (global rows `oldBase...`) with the new stretch `new` (global
  /// rows `newBase...`) and with every stretch matched before.
  ///
  /// `newToOld[n]` becomes the global old row matched with global new row `n` (it must be -1
  /// before); `oldMatched[o]` becomes true for every matched old row. Rows left unmatched stay in
  /// the tables for stretches matched later.
  @inlinable
  mutating func match(
    old: UnsafeBufferPointer<ID>, oldBase: Int, new: UnsafeBufferPointer<ID>, newBase: Int,
    newToOld: UnsafeMutableBufferPointer<Int>, oldMatched: UnsafeMutableBufferPointer<Bool>
  ) {
    let oldCount = old.count, newCount = new.count
    var i = 0, j = 0
    // Hashes of old[i] / new[j] once computed: a row can wait a few steps while the other side
    // advances. A miss is remembered until the table looked in grows.
    var oldHash: Int? = nil, newHash: Int? = nil
    var oldMissedAt = -1, newMissedAt = -1
    // The look-ahead pauses for a growing number of mismatches after each miss (shuffled rows,
    // long runs) and is back in full after a hit.
    var lookAheadPause = 0, lookAheadBackoff = 0

    while i < oldCount, j < newCount {
      if old[i] == new[j] {
        // Aligned rows, the bulk of any small edit: one comparison each.
        repeat {
          newToOld[newBase + j] = oldBase + i
          oldMatched[oldBase + i] = true
          i += 1
          j += 1
        } while i < oldCount && j < newCount && old[i] == new[j]
        oldHash = nil
        newHash = nil
        oldMissedAt = -1
        newMissedAt = -1
        continue
      }
      if lookAheadPause > 0 {
        lookAheadPause -= 1
      } else if let (a, b) = Self.nearestEqualPair(old, i, new, j) {
        lookAheadBackoff = 0
        for skipped in 0..<a {
          passOld(old[i + skipped], hash: skipped == 0 ? oldHash : nil, at: oldBase + i + skipped, newToOld, oldMatched)
        }
        for skipped in 0..<b {
          passNew(new[j + skipped], hash: skipped == 0 ? newHash : nil, at: newBase + j + skipped, newToOld, oldMatched)
        }
        i += a
        j += b
        oldHash = nil
        newHash = nil
        oldMissedAt = -1
        newMissedAt = -1
        continue
      } else {
        lookAheadBackoff = min(max(1, lookAheadBackoff * 2), 256)
        lookAheadPause = lookAheadBackoff
      }
      // Nothing equal nearby. A row the other side has already stepped over is matched, and only
      // its side advances: that is how two drifted stretches realign.
      let hashOfNew = newHash ?? Self.hashValue(new[j])
      newHash = hashOfNew
      if newMissedAt != oldSeen.count {
        if let key = oldSeen.firstIndex(of: new[j], hash: hashOfNew), !oldMatched[oldSeenPosition[key]] {
          let position = oldSeenPosition[key]
          newToOld[newBase + j] = position
          oldMatched[position] = true
          j += 1
          newHash = nil
          newMissedAt = -1
          continue
        }
        newMissedAt = oldSeen.count
      }
      let hashOfOld = oldHash ?? Self.hashValue(old[i])
      oldHash = hashOfOld
      if oldMissedAt != newSeen.count {
        if let key = newSeen.firstIndex(of: old[i], hash: hashOfOld), newToOld[newSeenPosition[key]] < 0 {
          newToOld[newSeenPosition[key]] = oldBase + i
          oldMatched[oldBase + i] = true
          i += 1
          oldHash = nil
          oldMissedAt = -1
          continue
        }
        oldMissedAt = newSeen.count
      }
      // Neither side has seen the other's row: both wait in the tables.
      oldSeen.append(old[i], hash: hashOfOld)
      oldSeenPosition.append(oldBase + i)
      newSeen.append(new[j], hash: hashOfNew)
      newSeenPosition.append(newBase + j)
      i += 1
      j += 1
      oldHash = nil
      newHash = nil
      oldMissedAt = -1
      newMissedAt = -1
    }
    while i < oldCount {
      passOld(old[i], hash: oldHash, at: oldBase + i, newToOld, oldMatched)
      oldHash = nil
      i += 1
    }
    while j < newCount {
      passNew(new[j], hash: newHash, at: newBase + j, newToOld, oldMatched)
      newHash = nil
      j += 1
    }
  }

  /// Matches two whole sequences: per row of `new`, the row of `old` with the same identifier
  /// or -1, and per row of `old` whether it is matched.
  ///
  /// ```swift
  /// _RowMatcher.match([1, 2, 3, 4], [4, 1, 3, 5])   // ([3, 0, 2, -1], [true, false, true, true])
  /// ```
  ///
  /// - Complexity: as ``match(old:oldBase:new:newBase:newToOld:oldMatched:)``.
  @inlinable
  static func match(_ old: [ID], _ new: [ID]) -> (newToOld: [Int], oldMatched: [Bool]) {
    var newToOld = [Int](repeating: -1, count: new.count)
    var oldMatched = [Bool](repeating: false, count: old.count)
    var matcher = _RowMatcher(minimumCapacity: max(old.count, new.count) / 8)
    old.withUnsafeBufferPointer { old in
      new.withUnsafeBufferPointer { new in
        newToOld.withUnsafeMutableBufferPointer { newToOld in
          oldMatched.withUnsafeMutableBufferPointer { oldMatched in
            matcher.match(old: old, oldBase: 0, new: new, newBase: 0, newToOld: newToOld, oldMatched: oldMatched)
          }
        }
      }
    }
    return (newToOld, oldMatched)
  }

  /// The hash the tables use for `id`.
  @inlinable
  static func hashValue(_ id: ID) -> Int { _IdentifierTable<ID>.hash(id) }

  /// The nearest `(a, b)` with `old[i + a] == new[j + b]`, `1 ≤ a + b ≤ lookAhead`, or nil.
  @inlinable
  static func nearestEqualPair(
    _ old: UnsafeBufferPointer<ID>, _ i: Int, _ new: UnsafeBufferPointer<ID>, _ j: Int
  ) -> (Int, Int)? {
    for distance in 1...lookAhead {
      for a in 0...distance {
        let b = distance - a
        if i + a < old.count, j + b < new.count, old[i + a] == new[j + b] { return (a, b) }
      }
    }
    return nil
  }

  /// Old row `id` at global `position` is stepped over: matched with a new row seen before, or
  /// kept for a later one.
  @inlinable
  mutating func passOld(
    _ id: ID, hash: Int?, at position: Int,
    _ newToOld: UnsafeMutableBufferPointer<Int>, _ oldMatched: UnsafeMutableBufferPointer<Bool>
  ) {
    let hash = hash ?? Self.hashValue(id)
    if let key = newSeen.firstIndex(of: id, hash: hash) {
      let newPosition = newSeenPosition[key]
      if newToOld[newPosition] < 0 {
        newToOld[newPosition] = position
        oldMatched[position] = true
        return
      }
    }
    oldSeen.append(id, hash: hash)
    oldSeenPosition.append(position)
  }

  /// New row `id` at global `position` is stepped over: matched with an old row seen before, or
  /// kept for a later one.
  @inlinable
  mutating func passNew(
    _ id: ID, hash: Int?, at position: Int,
    _ newToOld: UnsafeMutableBufferPointer<Int>, _ oldMatched: UnsafeMutableBufferPointer<Bool>
  ) {
    let hash = hash ?? Self.hashValue(id)
    if let key = oldSeen.firstIndex(of: id, hash: hash) {
      let oldPosition = oldSeenPosition[key]
      if !oldMatched[oldPosition] {
        newToOld[position] = oldPosition
        oldMatched[oldPosition] = true
        return
      }
    }
    newSeen.append(id, hash: hash)
    newSeenPosition.append(position)
  }
}
