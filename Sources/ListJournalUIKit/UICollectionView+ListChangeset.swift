// The UIKit adapter: applies a ListChangeset to a UICollectionView, stage by stage. Compiled only
// where UIKit exists; elsewhere this file is empty and the target builds to nothing.
#if canImport(UIKit)
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
    guard !changeset.isEmpty else {
      completion?(true)
      return
    }
    guard window != nil else {
      setData(nil)
      reloadData()
      completion?(true)
      return
    }
    // performBatchUpdates runs its block before returning: `setData` does not really escape.
    withoutActuallyEscaping(setData) { setData in
      for (index, stage) in changeset.stages.enumerated() {
        let isLast = index == changeset.stages.count - 1
        performBatchUpdates({
          setData(stage.after)
          if !stage.sectionDeletes.isEmpty { deleteSections(IndexSet(stage.sectionDeletes)) }
          if !stage.sectionInserts.isEmpty { insertSections(IndexSet(stage.sectionInserts)) }
          for move in stage.sectionMoves { moveSection(move.from, toSection: move.to) }
          if !stage.sectionReloads.isEmpty { reloadSections(IndexSet(stage.sectionReloads)) }
          if !stage.itemDeletes.isEmpty { deleteItems(at: stage.itemDeletes.map(Self.indexPath)) }
          if !stage.itemInserts.isEmpty { insertItems(at: stage.itemInserts.map(Self.indexPath)) }
          for move in stage.itemMoves { moveItem(at: Self.indexPath(move.from), to: Self.indexPath(move.to)) }
          if !stage.itemReloads.isEmpty { reloadItems(at: stage.itemReloads.map(Self.indexPath)) }
        }, completion: isLast ? completion : nil)
      }
    }
  }

  private static func indexPath(_ path: ListIndexPath) -> IndexPath { IndexPath(item: path.row, section: path.section) }
}

extension UITableView {
  /// Applies `changeset` as one `performBatchUpdates` per stage; see
  /// ``UICollectionView/apply(_:setData:completion:)``.
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
    guard !changeset.isEmpty else {
      completion?(true)
      return
    }
    guard window != nil else {
      setData(nil)
      reloadData()
      completion?(true)
      return
    }
    // performBatchUpdates runs its block before returning: `setData` does not really escape.
    withoutActuallyEscaping(setData) { setData in
      for (index, stage) in changeset.stages.enumerated() {
        let isLast = index == changeset.stages.count - 1
        performBatchUpdates({
          setData(stage.after)
          if !stage.sectionDeletes.isEmpty { deleteSections(IndexSet(stage.sectionDeletes), with: animation) }
          if !stage.sectionInserts.isEmpty { insertSections(IndexSet(stage.sectionInserts), with: animation) }
          for move in stage.sectionMoves { moveSection(move.from, toSection: move.to) }
          if !stage.sectionReloads.isEmpty { reloadSections(IndexSet(stage.sectionReloads), with: animation) }
          if !stage.itemDeletes.isEmpty { deleteRows(at: stage.itemDeletes.map(Self.indexPath), with: animation) }
          if !stage.itemInserts.isEmpty { insertRows(at: stage.itemInserts.map(Self.indexPath), with: animation) }
          for move in stage.itemMoves { moveRow(at: Self.indexPath(move.from), to: Self.indexPath(move.to)) }
          if !stage.itemReloads.isEmpty { reloadRows(at: stage.itemReloads.map(Self.indexPath), with: animation) }
        }, completion: isLast ? completion : nil)
      }
    }
  }

  private static func indexPath(_ path: ListIndexPath) -> IndexPath { IndexPath(row: path.row, section: path.section) }
}
#endif
