// The AppKit adapter: applies a ListChangeset to an NSCollectionView, stage by stage. Compiled only
// where AppKit exists (not Mac Catalyst, which has UIKit); elsewhere this file is empty.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ListJournal

extension NSCollectionView {
  /// Applies `changeset` as one `performBatchUpdates` per stage; inside each batch `setData` is
  /// handed the rows the stage ends with (nil: the changeset's target, the new state).
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
          if !stage.itemDeletes.isEmpty { deleteItems(at: Set(stage.itemDeletes.map(Self.indexPath))) }
          if !stage.itemInserts.isEmpty { insertItems(at: Set(stage.itemInserts.map(Self.indexPath))) }
          for move in stage.itemMoves { moveItem(at: Self.indexPath(move.from), to: Self.indexPath(move.to)) }
          if !stage.itemReloads.isEmpty { reloadItems(at: Set(stage.itemReloads.map(Self.indexPath))) }
        }, completionHandler: isLast ? completion : nil)
      }
    }
  }

  private static func indexPath(_ path: ListIndexPath) -> IndexPath { IndexPath(item: path.row, section: path.section) }
}
#endif
