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
    /// Indexes of deleted sections, in the before state.
    public var sectionDeletes: [Int] = []
    /// Indexes of inserted sections, in the after state.
    public var sectionInserts: [Int] = []
    /// Section moves: from an index in the before state to one in the after state.
    public var sectionMoves: [ListMove<Int>] = []
    /// Indexes of reloaded sections, in the before state.
    public var sectionReloads: [Int] = []
    /// Deleted rows, in the before state.
    public var itemDeletes: [ListIndexPath] = []
    /// Inserted rows, in the after state.
    public var itemInserts: [ListIndexPath] = []
    /// Row moves: from a row of the before state to one of the after state.
    public var itemMoves: [ListMove<ListIndexPath>] = []
    /// Reloaded rows, in the before state.
    public var itemReloads: [ListIndexPath] = []

    /// `deletedSections[k]` is the section at `sectionDeletes[k]`; likewise for the others.
    public var deletedSections: [SectionID] = []
    /// `insertedSections[k]` is the section at `sectionInserts[k]`.
    public var insertedSections: [SectionID] = []
    /// `movedSections[k]` is the section of `sectionMoves[k]`.
    public var movedSections: [SectionID] = []
    /// `reloadedSections[k]` is the section at `sectionReloads[k]`.
    public var reloadedSections: [SectionID] = []
    /// `deletedItems[k]` is the row at `itemDeletes[k]`; likewise for the others.
    public var deletedItems: [ItemID] = []
    /// `insertedItems[k]` is the row at `itemInserts[k]`.
    public var insertedItems: [ItemID] = []
    /// `movedItems[k]` is the row of `itemMoves[k]`.
    public var movedItems: [ItemID] = []
    /// `reloadedItems[k]` is the row at `itemReloads[k]`.
    public var reloadedItems: [ItemID] = []

    /// The rows the data source must show once this batch runs, when they are not the
    /// changeset's target (an intermediate state of a split changeset); nil: the target.
    public var after: Rows?

    /// An empty batch (fill in its fields); `after` as for ``after``.
    public init(after: Rows? = nil) { self.after = after }

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
      sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
        && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty && itemReloads.isEmpty
    }
  }
}
