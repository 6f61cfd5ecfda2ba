import ListState

extension ListChangeset {
  /// One `performBatchUpdates` batch.
  ///
  /// UIKit's rules, which every stage obeys: section deletes, section reloads, row deletes, row
  /// reloads and move sources are positions in ``before``; section inserts, row inserts and move
  /// destinations are positions in ``after``; no position is both reloaded and moved (or deleted);
  /// rows inside inserted, deleted or reloaded sections are not listed; every other section's
  /// row count after equals its count before minus deletes and moves out plus inserts and moves in.
  /// Rows of a moved section are never listed (a conservative rule: the changeset splits instead).
  ///
  /// ```swift
  /// tableView.performBatchUpdates {
  ///     dataSource.rows = stage.after
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
    /// The visible rows before this batch (what the data source shows until the batch runs).
    public var before: Rows
    /// The visible rows after this batch (what the data source must show once it runs).
    public var after: Rows

    public init(before: Rows, after: Rows) {
      self.before = before
      self.after = after
    }

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
      sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
        && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty && itemReloads.isEmpty
    }
  }
}
