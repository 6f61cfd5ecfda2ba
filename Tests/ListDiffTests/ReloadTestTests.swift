import Testing

@testable import ListDiff

@Suite("Row sets and reload tests")
struct ReloadTestTests {
  @Test func rowSetDocumentationExample() {
    var rows = _RowSet(rowCounts: [2, 100])
    rows.insert(section: 1, row: 70)
    #expect(rows.contains(section: 1, row: 70))
    #expect(!rows.contains(section: 0, row: 70))
  }

  @Test func rowSetAgainstASet() {
    let counts = [0, 1, 63, 64, 65, 130, 7]
    var rows = _RowSet(rowCounts: counts)
    var reference = Set<[Int]>()
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let section = Int.random(in: -1...counts.count, using: &generator)
      let row = Int.random(in: -1...131, using: &generator)
      rows.insert(section: section, row: row)
      if section >= 0, section < counts.count, row >= 0, row < counts[section] { reference.insert([section, row]) }
    }
    for section in -1...counts.count {
      for row in -1...131 {
        #expect(rows.contains(section: section, row: row) == reference.contains([section, row]))
      }
    }
  }

  @Test func reloadTestDocumentationExampleAndCombinations() {
    var rows = _RowSet(rowCounts: [3, 2])
    rows.insert(section: 1, row: 0)
    let test = _ReloadTest<String>(rows: rows)
    #expect(test("b", section: 1, row: 0))
    #expect(!test("b", section: 0, row: 0))
    #expect(test.isActive)
    #expect(!_ReloadTest<String>().isActive)
    #expect(!_ReloadTest<String>()("b", section: 1, row: 0))

    let both = _ReloadTest<String>(predicate: { $0 == "x" }, rows: rows)
    #expect(both("x", section: 0, row: 2) && both("y", section: 1, row: 0) && !both("y", section: 0, row: 0))

    // Section 0 of a stage's after state is section 1 of the rows; -1: no counterpart.
    let mapped = test.mappingSections([1, -1, 0])
    #expect(mapped("b", section: 0, row: 0))
    #expect(!mapped("b", section: 1, row: 0))
    #expect(!mapped("b", section: 2, row: 0))
    let twice = mapped.mappingSections([2, 0])
    #expect(!twice("b", section: 0, row: 0))  // → 2 → section 0 of the rows: not marked
    #expect(twice("b", section: 1, row: 0))  // → 0 → section 1 of the rows
  }
}
