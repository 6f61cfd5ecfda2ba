import ListState

extension ListChangeset {
  /// The rows of `old` the changeset keeps — in place, shifted by other rows, moved (within or
  /// across sections) or reloaded — each with its index path after the changeset: what a data
  /// source needs to carry per-row state (a selection, a measured height) along.
  ///
  /// `old` must be the rows the changeset starts from. Rows it deletes are not listed, nor those
  /// of sections it deletes or reloads (the view replaces them, as UIKit does).
  ///
  /// ```swift
  /// let old = ListVisibleRows(sections: [0], rows: [["a", "b", "c"]])
  /// let changeset = ListChangeset(from: old, to: ListVisibleRows(sections: [0], rows: [["c", "x", "a"]]))
  /// changeset.keptRows(from: old)   // [0:0 → 0:2, 0:2 → 0:0]
  /// ```
  ///
  /// - Returns: one move per kept row, ordered by old index path; `from == to` for a row that
  ///   did not move.
  /// - Complexity: O(stages · n) for n visible rows.
  @inlinable
  public func keptRows(from old: Rows) -> [ListMove<ListIndexPath>] {
    // Each old row is a token (its number in reading order); a row the view inserts is -1.
    var origin: [ListIndexPath] = []
    var current: [[Int]] = []
    for (section, rows) in old.rows.enumerated() {
      current.append(Array(origin.count..<(origin.count + rows.count)))
      for row in rows.indices { origin.append(ListIndexPath(section: section, row: row)) }
    }
    for stage in stages {
      current = stage._applyingPositions(to: current)
    }
    var kept: [ListMove<ListIndexPath>] = []
    for (section, tokens) in current.enumerated() {
      for (row, token) in tokens.enumerated() where token >= 0 {
        kept.append(ListMove(from: origin[token], to: ListIndexPath(section: section, row: row)))
      }
    }
    kept.sort { $0.from < $1.from }
    return kept
  }
}

extension ListChangeset.Stage {
  /// The stage's operations applied, by UIKit's rules, to per-section tokens of rows; rows the
  /// stage inserts, and those of inserted or reloaded sections, become -1 (their count taken
  /// from ``after`` when the stage has one, else left empty: nothing follows the last stage).
  @inlinable
  func _applyingPositions(to before: [[Int]]) -> [[Int]] {
    let beforeCount = before.count
    let afterCount = beforeCount - sectionDeletes.count + sectionInserts.count
    let deleted = Set(sectionDeletes)
    let reloaded = Set(sectionReloads)
    var movedFrom = Set<Int>()
    var sourceOfAfter = [Int?](repeating: nil, count: afterCount)
    for index in sectionInserts where index < afterCount { sourceOfAfter[index] = -1 }
    for move in sectionMoves where move.to < afterCount {
      sourceOfAfter[move.to] = move.from
      movedFrom.insert(move.from)
    }
    var staying = (0..<beforeCount).filter { !deleted.contains($0) && !movedFrom.contains($0) }[...]
    for index in 0..<afterCount where sourceOfAfter[index] == nil { sourceOfAfter[index] = staying.popFirst() ?? -1 }

    let deletedRows = Set(itemDeletes)
    let movedRows = Set(itemMoves.map(\.from))
    let insertedRows = Set(itemInserts)
    var destinations: [ListIndexPath: Int] = [:]
    for move in itemMoves where before.indices.contains(move.from.section) {
      let rows = before[move.from.section]
      if rows.indices.contains(move.from.row) { destinations[move.to] = rows[move.from.row] }
    }
    var result: [[Int]] = []
    result.reserveCapacity(afterCount)
    for section in 0..<afterCount {
      let source = sourceOfAfter[section] ?? -1
      if source < 0 || reloaded.contains(source) {
        let count = after.map { $0.rows.indices.contains(section) ? $0.rows[section].count : 0 } ?? 0
        result.append([Int](repeating: -1, count: count))
        continue
      }
      var remaining = before[source].enumerated().lazy
        .filter { !deletedRows.contains(ListIndexPath(section: source, row: $0.offset))
          && !movedRows.contains(ListIndexPath(section: source, row: $0.offset)) }
        .map(\.element).makeIterator()
      var tokens: [Int] = []
      var row = 0
      while true {
        let path = ListIndexPath(section: section, row: row)
        if insertedRows.contains(path) {
          tokens.append(-1)
        } else if let token = destinations[path] {
          tokens.append(token)
        } else if let token = remaining.next() {
          tokens.append(token)
        } else {
          break
        }
        row += 1
      }
      result.append(tokens)
    }
    return result
  }
}
