// The AppKit adapter: applies a ListChangeset to an NSCollectionView. Compiled only where AppKit
// exists (not Mac Catalyst, which has UIKit); elsewhere this file is empty. Every decision is
// ListDiff's `ListChangeset.apply(to:setData:completion:)`; this type only forwards to the view.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ListJournal

extension NSCollectionView {
  /// Applies `changeset` as one `performBatchUpdates` per stage; inside each batch `setData` is
  /// handed the rows the stage ends with (nil: the changeset's target, the new state). Off
  /// screen (no window) the final rows are set and the view reloaded.
  ///
  /// ```swift
  /// collectionView.apply(changeset) { rows in dataSource.rows = rows ?? target }
  /// ```
  @MainActor
  public func apply<SectionID, ItemID>(
    _ changeset: ListChangeset<SectionID, ItemID>,
    setData: (ListVisibleRows<SectionID, ItemID>?) -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    changeset.apply(to: _NSCollectionViewBatches(view: self), setData: setData, completion: completion)
  }
}

@MainActor
struct _NSCollectionViewBatches: ListBatchUpdateTarget {
  let view: NSCollectionView

  var isShowingRows: Bool { view.window != nil }
  func reloadAllRows() { view.reloadData() }
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    // performBatchUpdates runs its block before returning: `updates` does not really escape.
    withoutActuallyEscaping(updates) { view.performBatchUpdates($0, completionHandler: completion) }
  }
  func deleteSections(_ sections: [Int]) { view.deleteSections(IndexSet(sections)) }
  func insertSections(_ sections: [Int]) { view.insertSections(IndexSet(sections)) }
  func moveSection(_ section: Int, to destination: Int) { view.moveSection(section, toSection: destination) }
  func reloadSections(_ sections: [Int]) { view.reloadSections(IndexSet(sections)) }
  func deleteRows(_ rows: [ListIndexPath]) { view.deleteItems(at: Set(rows.map(Self.indexPath))) }
  func insertRows(_ rows: [ListIndexPath]) { view.insertItems(at: Set(rows.map(Self.indexPath))) }
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) {
    view.moveItem(at: Self.indexPath(row), to: Self.indexPath(destination))
  }
  func reloadRows(_ rows: [ListIndexPath]) { view.reloadItems(at: Set(rows.map(Self.indexPath))) }

  static func indexPath(_ path: ListIndexPath) -> IndexPath { IndexPath(item: path.row, section: path.section) }
}
#endif
