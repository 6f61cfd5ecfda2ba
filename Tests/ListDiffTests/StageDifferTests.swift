import Testing

@testable import ListDiff

@Suite("Stage differ helpers")
struct StageDifferTests {
  typealias Differ = _StageDiffer<Int, Int>

  @Test func rowsEqualFindsADifferenceAtEveryPosition() {
    for count in 0...11 {
      let rows = Array(0..<count)
      #expect(Differ.rowsEqual(rows, rows))
      #expect(Differ.rowsEqual(rows, rows.map { $0 }))  // another buffer
      #expect(!Differ.rowsEqual(rows, rows + [99]))
      for position in 0..<count {
        var changed = rows
        changed[position] = -1
        #expect(!Differ.rowsEqual(rows, changed), "count \(count), position \(position)")
      }
    }
  }

  @Test func globalOldRowsMapBackToTheirSections() {
    // Pairs with changed stretches of 3, 0 and 2 old rows (prefixes 1, 4, 0).
    var pairs = [
      Differ.ChangedPair(old: 0, new: 0, prefix: 1, oldEnd: 4, newEnd: 2),
      Differ.ChangedPair(old: 2, new: 1, prefix: 4, oldEnd: 4, newEnd: 6),
      Differ.ChangedPair(old: 5, new: 3, prefix: 0, oldEnd: 2, newEnd: 1),
    ]
    pairs[1].oldBase = 3
    pairs[2].oldBase = 3
    let expected = [(0, 1), (0, 2), (0, 3), (5, 0), (5, 1)]
    for (row, (section, sectionRow)) in expected.enumerated() {
      let path = Differ.oldIndexPath(ofGlobalRow: row, in: pairs)
      #expect(path.section == section && path.row == sectionRow, "global row \(row)")
    }
  }
}
