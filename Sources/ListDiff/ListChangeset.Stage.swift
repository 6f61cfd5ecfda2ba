import ListState

extension ListChangeset {
  /// One `performBatchUpdates` batch.
  ///
  /// UIKit's rules, which every stage obeys: section deletes, section reloads, row deletes, row
  /// reloads and move sources are positions in the stage's before state; section inserts, row
  /// inserts and move destinations are positions in its after state; no position is both reloaded
  /// and moved (or deleted); rows inside inserted, deleted or reloaded sections are not listed;
  /// every other section's row count after equals its count before minus deletes and moves out
  /// plus inserts and moves in. Rows of a moved section are never listed (a conservative rule:
  /// the changeset splits instead).
  ///
  /// Next to each position list, the identifiers involved (same order), so a changeset can be
  /// rendered without the snapshots.
  ///
  /// ```swift
  /// tableView.performBatchUpdates {
  ///     dataSource.rows = stage.after ?? target
  ///     tableView.deleteRows(at: stage.itemDeletes.map(IndexPath.init), with: .fade)
  ///     …
  /// }
  /// ```
  public struct Stage: Equatable, Sendable {
    public var sectionDeletes: [Int] = []
    public var sectionInserts: [Int] = []
    public var sectionMoves: [ListMove<Int>] = []
    public var sectionReloads: [Int] = []
    public var itemDeletes: [ListIndexPath] = []
    public var itemInserts: [ListIndexPath] = []
    public var itemMoves: [ListMove<ListIndexPath>] = []
    public var itemReloads: [ListIndexPath] = []

    /// `deletedSections[k]` is the section at `sectionDeletes[k]`; likewise for the others.
    public var deletedSections: [SectionID] = []
    public var insertedSections: [SectionID] = []
    public var movedSections: [SectionID] = []
    public var reloadedSections: [SectionID] = []
    /// `deletedItems[k]` is the row at `itemDeletes[k]`; likewise for the others.
    public var deletedItems: [ItemID] = []
    public var insertedItems: [ItemID] = []
    public var movedItems: [ItemID] = []
    public var reloadedItems: [ItemID] = []

    /// The rows the data source must show once this batch runs, when they are not the
    /// changeset's target (an intermediate state of a split changeset); nil: the target.
    public var after: Rows?

    public init(after: Rows? = nil) { self.after = after }

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
      sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
        && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty && itemReloads.isEmpty
    }
  }
}
