import ListState

/// A change between two list states as ordered batch updates over visible rows: apply each
/// ``Stage`` as one `performBatchUpdates` batch, in order.
///
/// Each stage obeys UIKit's batch rules (see ``Stage``); most changes need one stage. Stages split
/// only where one batch cannot say it:
/// - a moved row whose content changed is moved in its batch and reloaded (at its final index
///   path) in a trailing reload-only stage — UIKit refuses an index both moved and reloaded;
/// - rows of a *moved* section that are inserted, deleted, moved or reloaded: all row changes go in
///   a first stage over the old section order, the section changes in a second;
/// - a reloaded section takes its new rows wholesale (UIKit reloads a section as delete + insert),
///   so rows inside it are not listed; a section both moved and changed is deleted and inserted.
///
/// A changeset holds positions and the identifiers involved, not whole states (so a changeset
/// derived from a few events costs a few operations, whatever the list's size); only an
/// intermediate stage of a split changeset carries the rows it ends with (``Stage/after``).
///
/// ```swift
/// let changeset = ListChangeset(from: old, to: new)
/// for stage in changeset { print(stage.itemMoves) }
/// print(changeset.jsonDescription)
/// ```
public struct ListChangeset<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Equatable, Sendable,
  RandomAccessCollection
{
  /// The visible rows a changeset goes between.
  public typealias Rows = ListVisibleRows<SectionID, ItemID>

  /// The batches, in the order to apply them. Empty when nothing changed.
  public var stages: [Stage]

  /// A changeset of the given batches (no stage: nothing changed). Normally a changeset comes
  /// from a diff (``init(from:to:)``); this is for building or decoding one by hand.
  public init(stages: [Stage] = []) {
    self.stages = stages
  }

  public var startIndex: Int { stages.startIndex }
  public var endIndex: Int { stages.endIndex }
  public subscript(position: Int) -> Stage { stages[position] }

  /// Row moves over all stages (a cross-section move counts once).
  public var numberOfItemMoves: Int { stages.reduce(0) { $0 + $1.itemMoves.count } }
  /// Section moves over all stages.
  public var numberOfSectionMoves: Int { stages.reduce(0) { $0 + $1.sectionMoves.count } }

  /// True when some stage inserts, deletes or moves sections or rows, or reloads a section; false
  /// when the changeset only reloads or reconfigures rows (every row keeps its index path).
  ///
  /// ```swift
  /// if !changeset.hasStructuralChanges { /* refresh the visible cells in place */ }
  /// ```
  ///
  /// - Complexity: O(stages).
  public var hasStructuralChanges: Bool { stages.contains { $0.hasStructuralChanges } }
}
