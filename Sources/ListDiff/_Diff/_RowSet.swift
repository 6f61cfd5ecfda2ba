/// A set of row positions (section, row) of one visible-rows state, as one bit per row.
///
/// Sections' bits lie end to end in one word array; positions outside the state are never
/// members (inserting one does nothing), so a caller can test any position without checking.
///
/// ```swift
/// var rows = _RowSet(rowCounts: [2, 100])
/// rows.insert(section: 1, row: 70)
/// rows.contains(section: 1, row: 70)   // true
/// rows.contains(section: 0, row: 70)   // false (section 0 has 2 rows)
/// ```
///
/// - Complexity: O(1) per insert or test; memory one bit per row plus a word per section.
@usableFromInline
struct _RowSet {
  /// The rows of section `s` are bits `start[s]..<start[s] + count[s]`.
  @usableFromInline
  var start: [Int]
  @usableFromInline
  var count: [Int]
  @usableFromInline
  var words: [UInt64]

  /// An empty set over sections of `rowCounts[s]` rows.
  @inlinable
  init(rowCounts: [Int]) {
    count = rowCounts
    start = []
    start.reserveCapacity(rowCounts.count)
    var total = 0
    for rows in rowCounts {
      start.append(total)
      total += rows
    }
    words = [UInt64](repeating: 0, count: (total + 63) / 64)
  }

  /// The bit of a position, or nil outside the state.
  @inlinable
  func bit(section: Int, row: Int) -> Int? {
    guard section >= 0, section < count.count, row >= 0, row < count[section] else { return nil }
    return start[section] + row
  }

  @inlinable
  mutating func insert(section: Int, row: Int) {
    guard let bit = bit(section: section, row: row) else { return }
    words[bit >> 6] |= 1 &<< UInt64(bit & 63)
  }

  @inlinable
  func contains(section: Int, row: Int) -> Bool {
    guard let bit = bit(section: section, row: row) else { return false }
    return words[bit >> 6] & (1 &<< UInt64(bit & 63)) != 0
  }
}
