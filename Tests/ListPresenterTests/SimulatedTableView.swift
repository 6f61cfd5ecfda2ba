import ListPresenter
import ListState
import TestSupport

/// A table for tests that applies updates as `NSTableView` does — each step counted in the rows
/// the steps before it left — and keeps each row's cell as it was made, so a row the adapter
/// forgets to reload shows stale content. At `endUpdates()` its rows must be the data source's:
/// a row made before the group and never reloaded must still show the identifier the data source
/// has there, and the row count must match (what `NSTableView` checks, or silently gets wrong).
@MainActor
final class SimulatedTableView: ListTableUpdateTarget {
  typealias Adapter = ListTableAdapter<TestSection, TestItem>

  /// What a cell shows: the row's identity and the content it was configured with.
  struct Cell: Equatable, CustomStringConvertible {
    var id: String
    var content: String
    var description: String { "\(id)(\(content))" }
  }

  unowned let adapter: Adapter
  /// The cells shown; nil for a row inserted in the open group, made at its end.
  private(set) var cells: [Cell?] = []
  var isShowingRows = true
  private(set) var failures: [String] = []
  private(set) var groups = 0
  private(set) var reloads = 0
  private(set) var moves = 0
  private var inGroup = false

  init(adapter: Adapter) {
    self.adapter = adapter
    adapter.target = self
    cells = (0..<adapter.numberOfRows).map(cell)
  }

  /// The cell the data source makes for a row now: group rows show their section, item rows
  /// their item with its outline state.
  func cell(_ row: Int) -> Cell {
    if let section = adapter.section(atRow: row) { return Cell(id: "[\(section.id)]", content: section.content) }
    guard let id = adapter.itemIdentifier(atRow: row), let item = adapter.item(atRow: row) else {
      return Cell(id: "?", content: "no row \(row)")
    }
    let presenter = adapter.presenter
    return Cell(id: id, content: "\(item.content) \(presenter.isExpanded(id)) \(presenter.hasChildren(id))")
  }

  func reloadData() {
    if inGroup { failures.append("reloadData inside a group") }
    reloads += 1
    cells = (0..<adapter.numberOfRows).map(cell)
  }

  func beginUpdates() {
    if inGroup { failures.append("beginUpdates inside a group") }
    inGroup = true
    groups += 1
  }

  func apply(_ update: ListSequentialUpdate) {
    guard inGroup else { return failures.append("\(update) outside a group") }
    switch update {
    case .remove(let rows):
      guard rows == rows.sorted(), Set(rows).count == rows.count, rows.allSatisfy(cells.indices.contains) else {
        return failures.append("group \(groups): remove \(rows) of \(cells.count) rows")
      }
      for row in rows.reversed() { cells.remove(at: row) }
    case .insert(let rows):
      guard rows == rows.sorted(), Set(rows).count == rows.count else {
        return failures.append("group \(groups): insert \(rows) not ascending")
      }
      for row in rows {
        guard row >= 0, row <= cells.count else { return failures.append("group \(groups): insert at \(row) of \(cells.count)") }
        cells.insert(nil, at: row)
      }
    case .move(let from, let to):
      guard cells.indices.contains(from), to >= 0, to < cells.count else {
        return failures.append("group \(groups): move \(from) to \(to) of \(cells.count)")
      }
      moves += 1
      cells.insert(cells.remove(at: from), at: to)
    }
  }

  func endUpdates() {
    guard inGroup else { return failures.append("endUpdates without beginUpdates") }
    inGroup = false
    guard cells.count == adapter.numberOfRows else {
      failures.append("group \(groups): \(cells.count) rows after the updates, the data source has \(adapter.numberOfRows)")
      cells = (0..<adapter.numberOfRows).map(cell)
      return
    }
    for row in cells.indices {
      if let shown = cells[row] {
        let id = cell(row).id
        if shown.id != id { failures.append("group \(groups): row \(row) shows \(shown.id), the data source has \(id)") }
      } else {
        cells[row] = cell(row)
      }
    }
  }

  func reloadRows(_ rows: [Int]) {
    if inGroup { failures.append("reloadRows inside a group") }
    for row in rows {
      guard cells.indices.contains(row) else { return failures.append("reload of row \(row) of \(cells.count)") }
      cells[row] = cell(row)
    }
  }
}
