import ListDiff
import ListState

extension ListTableAdapter: ListBatchUpdateTarget {
  public var isShowingRows: Bool { target?.isShowingRows ?? false }

  public func reloadAllRows() { target?.reloadData() }

  /// Records the presenter's batch, then hands the table its steps: removes, then moves and
  /// inserts lowest position first, inside one `beginUpdates`/`endUpdates`, then the reloads.
  /// A batch that does not add up (it never should) reloads the table instead.
  public func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    let before = layout()
    batch = ListChangeset<Section.ID, Item.ID>.Stage()
    updates()
    let stage = batch!
    batch = nil
    if let target {
      if let (script, reloads) = Self.script(of: stage, from: before, to: layout(), headers: showsSectionHeaders) {
        if !script.steps.isEmpty {
          target.beginUpdates()
          for step in script.steps { target.apply(step) }
          target.endUpdates()
        }
        if !reloads.isEmpty { target.reloadRows(reloads) }
      } else {
        target.reloadData()
      }
    }
    completion?(true)
  }

  public func deleteSections(_ sections: [Int]) { batch?.sectionDeletes += sections }
  public func insertSections(_ sections: [Int]) { batch?.sectionInserts += sections }
  public func moveSection(_ section: Int, to destination: Int) {
    batch?.sectionMoves.append(ListMove(from: section, to: destination))
  }
  public func reloadSections(_ sections: [Int]) { batch?.sectionReloads += sections }
  public func deleteRows(_ rows: [ListIndexPath]) { batch?.itemDeletes += rows }
  public func insertRows(_ rows: [ListIndexPath]) { batch?.itemInserts += rows }
  public func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) {
    batch?.itemMoves.append(ListMove(from: row, to: destination))
  }
  public func reloadRows(_ rows: [ListIndexPath]) { batch?.itemReloads += rows }
  public func reconfigureRows(_ rows: [ListIndexPath]) { batch?.itemReconfigures += rows }

  /// One batch over sections and rows as steps over the table's single list of rows (a section
  /// is its header plus its rows), and the table rows to reload after them; nil when the batch
  /// does not fit the layouts.
  ///
  /// A deleted or inserted section removes or inserts all its table rows, a reloaded one both (its
  /// row count may change), a moved one moves each of its rows.
  ///
  /// - Parameters:
  ///   - before: section starts before the batch (the last entry: the row count).
  ///   - after: section starts after it.
  /// - Complexity: O(rows + operations · log rows).
  static func script(
    of stage: ListChangeset<Section.ID, Item.ID>.Stage, from before: [Int], to after: [Int], headers: Bool
  ) -> (_SequentialScript, reloads: [Int])? {
    let header = headers ? 1 : 0
    let beforeSections = before.count - 1
    let afterSections = after.count - 1
    // Which before section each after section shows (-1: inserted), as UIKit pairs them.
    var sourceOfAfter = [Int](repeating: -2, count: afterSections)
    var leaving = [Bool](repeating: false, count: beforeSections)
    for index in stage.sectionInserts {
      guard sourceOfAfter.indices.contains(index), sourceOfAfter[index] == -2 else { return nil }
      sourceOfAfter[index] = -1
    }
    for index in stage.sectionDeletes {
      guard leaving.indices.contains(index), !leaving[index] else { return nil }
      leaving[index] = true
    }
    for move in stage.sectionMoves {
      guard leaving.indices.contains(move.from), !leaving[move.from], sourceOfAfter.indices.contains(move.to),
        sourceOfAfter[move.to] == -2
      else { return nil }
      leaving[move.from] = true
      sourceOfAfter[move.to] = move.from
    }
    var staying = (0..<beforeSections).lazy.filter { !leaving[$0] }.makeIterator()
    var afterOfBefore = [Int](repeating: -1, count: beforeSections)
    for index in 0..<afterSections {
      if sourceOfAfter[index] == -2 {
        guard let source = staying.next() else { return nil }
        sourceOfAfter[index] = source
      }
      if sourceOfAfter[index] >= 0 { afterOfBefore[sourceOfAfter[index]] = index }
    }
    guard staying.next() == nil else { return nil }

    var deletes: [Int] = []
    var inserts: [Int] = []
    var moves: [(from: Int, to: Int)] = []
    func rows(_ starts: [Int], _ section: Int) -> Range<Int> { starts[section]..<starts[section + 1] }
    for index in stage.sectionDeletes { deletes += rows(before, index) }
    for index in stage.sectionInserts { inserts += rows(after, index) }
    for index in stage.sectionReloads {
      guard afterOfBefore.indices.contains(index), afterOfBefore[index] >= 0 else { return nil }
      deletes += rows(before, index)
      inserts += rows(after, afterOfBefore[index])
    }
    for move in stage.sectionMoves {
      let from = rows(before, move.from)
      let to = rows(after, move.to)
      guard from.count == to.count else { return nil }
      moves += zip(from, to).map { (from: $0, to: $1) }
    }
    func row(_ starts: [Int], _ path: ListIndexPath) -> Int? {
      guard path.section >= 0, path.section < starts.count - 1, path.row >= 0 else { return nil }
      let row = starts[path.section] + header + path.row
      return row < starts[path.section + 1] ? row : nil
    }
    for path in stage.itemDeletes {
      guard let row = row(before, path) else { return nil }
      deletes.append(row)
    }
    for path in stage.itemInserts {
      guard let row = row(after, path) else { return nil }
      inserts.append(row)
    }
    for move in stage.itemMoves {
      guard let from = row(before, move.from), let to = row(after, move.to) else { return nil }
      moves.append((from, to))
    }
    guard
      let script = _SequentialScript(
        beforeCount: before.last!, afterCount: after.last!, deletes: deletes, inserts: inserts, moves: moves)
    else { return nil }
    var reloads: [Int] = []
    for path in stage.itemReloads + stage.itemReconfigures {
      guard let row = row(before, path), let end = script.afterIndex(ofKept: row) else { return nil }
      reloads.append(end)
    }
    return (script, reloads.sorted())
  }
}
