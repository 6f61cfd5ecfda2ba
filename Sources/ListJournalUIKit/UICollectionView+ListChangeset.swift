// The UIKit adapters: apply a ListChangeset to a UICollectionView or a UITableView. Compiled
// only where UIKit has them (not watchOS, whose UIKit has no table or collection views);
// elsewhere this file is empty and the target builds to nothing. Every decision (the stages,
// their order, the data set inside each batch) is ListDiff's
// `ListChangeset.apply(to:setData:completion:)`; these types only forward to the view.
#if canImport(UIKit) && !os(watchOS)
import UIKit
import ListJournal

extension UICollectionView {
  /// Applies `changeset` as one `performBatchUpdates` per stage. Inside each batch `setData` is
  /// handed the rows the stage ends with — nil meaning the changeset's target (the new state) —
  /// and the data source must show exactly those from then on.
  ///
  /// ```swift
  /// collectionView.apply(ListChangeset(from: shown, to: next)) { rows in dataSource.rows = rows ?? target }
  /// ```
  ///
  /// Off screen (no window) the animation is pointless and UIKit may not have loaded any cell:
  /// the final rows are set and the view reloaded.
  ///
  /// - Complexity: O(operations) plus UIKit's own work.
  @MainActor
  public func apply<SectionID, ItemID>(
    _ changeset: ListChangeset<SectionID, ItemID>,
    setData: (ListVisibleRows<SectionID, ItemID>?) -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    changeset.apply(to: _CollectionViewBatches(view: self), setData: setData, completion: completion)
  }
}

extension UITableView {
  /// Applies `changeset` as one `performBatchUpdates` per stage, rows animated with
  /// `animation`; see ``UICollectionView/apply(_:setData:completion:)``.
  ///
  /// ```swift
  /// tableView.apply(changeset, animation: .fade) { rows in dataSource.rows = rows ?? target }
  /// ```
  @MainActor
  public func apply<SectionID, ItemID>(
    _ changeset: ListChangeset<SectionID, ItemID>,
    animation: UITableView.RowAnimation = .automatic,
    setData: (ListVisibleRows<SectionID, ItemID>?) -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    changeset.apply(to: _TableViewBatches(view: self, animation: animation), setData: setData, completion: completion)
  }
}

@MainActor
struct _CollectionViewBatches: ListBatchUpdateTarget {
  let view: UICollectionView

  var isShowingRows: Bool { view.window != nil }
  func reloadAllRows() { view.reloadData() }
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    // performBatchUpdates runs its block before returning: `updates` does not really escape.
    withoutActuallyEscaping(updates) { view.performBatchUpdates($0, completion: completion) }
  }
  func deleteSections(_ sections: [Int]) { view.deleteSections(IndexSet(sections)) }
  func insertSections(_ sections: [Int]) { view.insertSections(IndexSet(sections)) }
  func moveSection(_ section: Int, to destination: Int) { view.moveSection(section, toSection: destination) }
  func reloadSections(_ sections: [Int]) { view.reloadSections(IndexSet(sections)) }
  func deleteRows(_ rows: [ListIndexPath]) { view.deleteItems(at: rows.map { IndexPath($0) }) }
  func insertRows(_ rows: [ListIndexPath]) { view.insertItems(at: rows.map { IndexPath($0) }) }
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) {
    view.moveItem(at: IndexPath(row), to: IndexPath(destination))
  }
  func reloadRows(_ rows: [ListIndexPath]) { view.reloadItems(at: rows.map { IndexPath($0) }) }
  func reconfigureRows(_ rows: [ListIndexPath]) { view.reconfigureItems(at: rows.map { IndexPath($0) }) }
}

@MainActor
struct _TableViewBatches: ListBatchUpdateTarget {
  let view: UITableView
  let animation: UITableView.RowAnimation

  var isShowingRows: Bool { view.window != nil }
  func reloadAllRows() { view.reloadData() }
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    withoutActuallyEscaping(updates) { view.performBatchUpdates($0, completion: completion) }
  }
  func deleteSections(_ sections: [Int]) { view.deleteSections(IndexSet(sections), with: animation) }
  func insertSections(_ sections: [Int]) { view.insertSections(IndexSet(sections), with: animation) }
  func moveSection(_ section: Int, to destination: Int) { view.moveSection(section, toSection: destination) }
  func reloadSections(_ sections: [Int]) { view.reloadSections(IndexSet(sections), with: animation) }
  func deleteRows(_ rows: [ListIndexPath]) { view.deleteRows(at: rows.map { IndexPath($0) }, with: animation) }
  func insertRows(_ rows: [ListIndexPath]) { view.insertRows(at: rows.map { IndexPath($0) }, with: animation) }
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) {
    view.moveRow(at: IndexPath(row), to: IndexPath(destination))
  }
  func reloadRows(_ rows: [ListIndexPath]) { view.reloadRows(at: rows.map { IndexPath($0) }, with: animation) }
  func reconfigureRows(_ rows: [ListIndexPath]) { view.reconfigureRows(at: rows.map { IndexPath($0) }) }
}

extension IndexPath {
  /// The UIKit index path of a visible row.
  init(_ path: ListIndexPath) { self.init(item: path.row, section: path.section) }
}
#endif
