import ListDiff
import ListPresenter
import ListState
import TestSupport

/// A simulated collection view whose data source is a presenter: as UIKit does, it reads the
/// data source's rows when the batch's operations reach it (and when it reloads), so a
/// presenter that sets its rows late, or not at all, fails the view's batch checks.
@MainActor
final class PresentedView: ListBatchUpdateTarget {
  typealias Rows = ListVisibleRows<String, String>

  let view: SimulatedListView<String, String>
  var presenter: ListPresenter<TestSection, TestItem>?
  /// Runs inside every batch, after the data source was read: a store change made from there
  /// must wait for the update in progress.
  var duringBatch: (() -> Void)?

  init(showing rows: Rows) {
    view = SimulatedListView(showing: rows)
  }

  private func readDataSource() {
    if let presenter { view.dataSource = presenter.rows }
  }

  var isShowingRows: Bool { view.isShowingRows }
  func reloadAllRows() {
    readDataSource()
    view.reloadAllRows()
  }
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    view.performBatch(
      {
        updates()
        duringBatch?()
      }, completion: completion)
  }
  func deleteSections(_ sections: [Int]) { readDataSource(); view.deleteSections(sections) }
  func insertSections(_ sections: [Int]) { readDataSource(); view.insertSections(sections) }
  func moveSection(_ section: Int, to destination: Int) { readDataSource(); view.moveSection(section, to: destination) }
  func reloadSections(_ sections: [Int]) { readDataSource(); view.reloadSections(sections) }
  func deleteRows(_ rows: [ListIndexPath]) { readDataSource(); view.deleteRows(rows) }
  func insertRows(_ rows: [ListIndexPath]) { readDataSource(); view.insertRows(rows) }
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) { readDataSource(); view.moveRow(row, to: destination) }
  func reloadRows(_ rows: [ListIndexPath]) { readDataSource(); view.reloadRows(rows) }
  func reconfigureRows(_ rows: [ListIndexPath]) { readDataSource(); view.reconfigureRows(rows) }
}
