import ListState

/// A view that shows visible rows and animates their changes in batches, as
/// `UICollectionView`, `UITableView` and `NSCollectionView` do: what
/// ``ListChangeset/apply(to:setData:completion:)`` drives.
///
/// The platform adapters (ListJournalUIKit) wrap the real views in it, and tests simulate one, so
/// the order in which a changeset reaches a view — the data set inside each batch, then the
/// batch's operations in UIKit's order — is decided once, here, where the Linux tests reach it.
///
/// ```swift
/// struct Recorder: ListBatchUpdateTarget { … }        // every requirement, forwarded to a view
/// changeset.apply(to: recorder) { rows in dataSource.rows = rows ?? target }
/// ```
@MainActor
public protocol ListBatchUpdateTarget {
  /// Whether the view is on screen. Off screen, animating is pointless and the view may not have
  /// loaded any row: a changeset sets the final rows and reloads everything instead.
  var isShowingRows: Bool { get }
  /// Reloads every row from the data source, without animation.
  func reloadAllRows()
  /// Runs `updates` as one animated batch (`performBatchUpdates`), then `completion`, if any,
  /// once the batch's animations end (with whether they finished).
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?)
  /// Deletes sections, by index in the batch's before state.
  func deleteSections(_ sections: [Int])
  /// Inserts sections, by index in the batch's after state.
  func insertSections(_ sections: [Int])
  /// Moves a section from an index of the before state to one of the after state.
  func moveSection(_ section: Int, to destination: Int)
  /// Reloads sections, by index in the before state.
  func reloadSections(_ sections: [Int])
  /// Deletes rows of the before state.
  func deleteRows(_ rows: [ListIndexPath])
  /// Inserts rows of the after state.
  func insertRows(_ rows: [ListIndexPath])
  /// Moves a row from the before state to the after state.
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath)
  /// Reloads rows of the before state.
  func reloadRows(_ rows: [ListIndexPath])
  /// Reconfigures rows — keeps their cells and configures them again — at positions the batch
  /// does not change. Defaults to ``reloadRows(_:)`` for views that cannot reconfigure.
  func reconfigureRows(_ rows: [ListIndexPath])
}

extension ListBatchUpdateTarget {
  /// Reloads the rows: what a view without reconfiguring does instead.
  @inlinable
  public func reconfigureRows(_ rows: [ListIndexPath]) { reloadRows(rows) }
}

extension ListChangeset {
  /// Applies the changeset to `view`: one batch per stage, and inside each batch first
  /// `setData` — handed the rows the stage ends with, nil meaning the changeset's target (the
  /// new state) — then the stage's operations. The data source must show exactly the rows it was
  /// handed from then on. An empty changeset only calls `completion`; off screen the final rows
  /// are set and the view reloaded.
  ///
  /// ```swift
  /// changeset.apply(to: view) { rows in dataSource.rows = rows ?? target }
  /// ```
  /// - Parameter completion: called once, after the last batch (with whether its animations
  ///   finished), or at once when there was nothing to animate.
  /// - Complexity: O(operations) plus the view's own work.
  @MainActor
  @inlinable
  public func apply(
    to view: some ListBatchUpdateTarget, setData: (Rows?) -> Void, completion: ((Bool) -> Void)? = nil
  ) {
    guard !isEmpty else {
      completion?(true)
      return
    }
    guard view.isShowingRows else {
      setData(nil)
      view.reloadAllRows()
      completion?(true)
      return
    }
    for (index, stage) in stages.enumerated() {
      view.performBatch(
        {
          setData(stage.after)
          stage.perform(on: view)
        }, completion: index == stages.count - 1 ? completion : nil)
    }
  }
}

extension ListChangeset.Stage {
  /// Hands the stage's operations to `view`, sections before rows, deletes before inserts.
  @MainActor
  @inlinable
  func perform(on view: some ListBatchUpdateTarget) {
    if !sectionDeletes.isEmpty { view.deleteSections(sectionDeletes) }
    if !sectionInserts.isEmpty { view.insertSections(sectionInserts) }
    for move in sectionMoves { view.moveSection(move.from, to: move.to) }
    if !sectionReloads.isEmpty { view.reloadSections(sectionReloads) }
    if !itemDeletes.isEmpty { view.deleteRows(itemDeletes) }
    if !itemInserts.isEmpty { view.insertRows(itemInserts) }
    for move in itemMoves { view.moveRow(move.from, to: move.to) }
    if !itemReloads.isEmpty { view.reloadRows(itemReloads) }
    if !itemReconfigures.isEmpty { view.reconfigureRows(itemReconfigures) }
  }
}
