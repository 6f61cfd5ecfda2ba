import ListState

extension ListChangeset {
  /// One `performBatchUpdates` batch.
  ///
  /// UIKit's rules, which every stage obeys: section deletes, section reloads, row deletes, row
  /// reloads, row reconfigures and move sources are positions in the stage's before state; section inserts, row
  /// inserts and move destinations are positions in its after state; no position is both reloaded
  /// and moved (or deleted); rows inside inserted, deleted or reloaded sections are not listed;
  /// every other section's row count after equals its count before minus deletes and moves out
  /// plus inserts and moves in. Rows of a moved section are never listed (a conservative rule:
  /// the changeset splits instead).
  ///
  /// Next to each position list, the identifiers involved (same order), so a changeset can be
  /// rendered without the snapshots.
  ///
  /// Reconfigured rows (``itemReconfigures``) are listed apart from reloaded ones, so an adapter can
  /// use UIKit's `reconfigureItems(at:)`, which keeps the cell. They appear only in a stage with no
  /// structural change (``hasStructuralChanges`` false), where a row's position before and after
  /// the batch is the same — UIKit does not say which of the two a reconfigure inside a moving
  /// batch refers to.
  ///
  /// Index order, safe for applying the positions one by one to arrays: deletes (of sections and
  /// of rows) come in descending order, inserts in ascending order, moves by ascending destination,
  /// reloads and reconfigures ascending. To apply a stage without moves to per-section arrays,
  /// remove at each of ``itemDeletes`` in turn, then insert at each of ``itemInserts`` in turn;
  /// with moves, remove the move sources together with the deletes (highest first), then insert
  /// the move destinations together with the inserts (lowest first).
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
    /// Reloaded rows, in the before state: their cells are replaced.
    public var itemReloads: [ListIndexPath] = []
    /// Reconfigured rows, in the before state (the same as in the after state: see above): their
    /// cells are kept and configured again (`reconfigureItems(at:)`).
    public var itemReconfigures: [ListIndexPath] = []

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
    /// `reconfiguredItems[k]` is the row at `itemReconfigures[k]`.
    public var reconfiguredItems: [ItemID] = []

    /// The rows the data source must show once this batch runs, when they are not the
    /// changeset's target (an intermediate state of a split changeset); nil: the target.
    public var after: Rows?

    /// An empty batch (fill in its fields); `after` as for ``after``.
    public init(after: Rows? = nil) { self.after = after }

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
      !hasStructuralChanges && itemReloads.isEmpty && itemReconfigures.isEmpty
    }

    /// True when the batch inserts, deletes or moves sections or rows, or reloads sections (which
    /// replaces their rows); false when it only reloads or reconfigures rows, so every row keeps
    /// its index path.
    ///
    /// ```swift
    /// if !stage.hasStructuralChanges { /* only refresh the cells at stage.itemReloads */ }
    /// ```
    ///
    /// - Complexity: O(1).
    public var hasStructuralChanges: Bool {
      !(sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
        && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty)
    }
  }
}
