import ListState

/// One positional edit of a ``ListSnapshot``: what ``ListSnapshot/operations(toReach:expansion:)``
/// produces so a store can record a whole-snapshot apply as a few minimal events.
///
/// Positions are those of the snapshot at the moment the operation runs (operations apply in
/// order). Inserted outlines hold only new items; surviving items are moved under them by later
/// operations.
///
/// ```swift
/// var snapshot = current
/// for operation in current.operations(toReach: target) { try operation.apply(to: &snapshot) }
/// ```
public enum ListSnapshotOperation<Section: ListElement, Item: ListElement>: Equatable, Sendable {
  public typealias Location = ListItemLocation<Section.ID, Item.ID>

  /// Inserts a new, empty section at `index` (0...numberOfSections).
  case insertSection(Section, at: Int)
  /// Moves a section so that it ends at `index`.
  case moveSection(Section.ID, toIndex: Int)
  /// Replaces the content of a section present in both states (same identifier).
  case updateSection(Section)
  /// Deletes sections (which are empty by then).
  case deleteSections([Section.ID])
  /// Inserts new items (consecutive siblings, the first at `location`) with their new
  /// descendants and expansion flags.
  case insertItems(ListOutline<Item>, at: Location)
  /// Moves an item (with its subtree) so that it ends at `location`.
  case moveItem(Item.ID, to: Location)
  /// Replaces the content of items present in both states.
  case updateItems([Item])
  /// Deletes items with their subtrees.
  case deleteItems([Item.ID])
  /// Expands items (to match the target, or per the expansion policy).
  case expand([Item.ID])
  /// Collapses items (to match the target, or per the expansion policy).
  case collapse([Item.ID])
  /// Markers the target carried: reload / reconfigure requests.
  case reloadItems([Item.ID])
  /// Items the target marks reconfigured.
  case reconfigureItems([Item.ID])
  /// Sections the target marks reloaded.
  case reloadSections([Section.ID])

  /// Performs the operation on `snapshot`.
  ///
  /// - Throws: the snapshot's ``ListError`` when the operation does not fit `snapshot`; the
  ///   snapshot is then unchanged.
  /// - Complexity: O(k log n) for k identifiers.
  @inlinable
  public func apply(to snapshot: inout ListSnapshot<Section, Item>) throws(ListError<Section.ID, Item.ID>) {
    switch self {
    case .insertSection(let section, let index): try snapshot.insertSections([section], at: index)
    case .moveSection(let id, let index): try snapshot.moveSection(id, toIndex: index)
    case .updateSection(let section): try snapshot.updateSection(section)
    case .deleteSections(let ids): try snapshot.deleteSections(ids)
    case .insertItems(let outline, let location): try snapshot.insert(outline, at: location)
    case .moveItem(let id, let location): try snapshot.moveItem(id, to: location)
    case .updateItems(let items): try snapshot.updateItems(items)
    case .deleteItems(let ids): try snapshot.deleteItems(ids)
    case .expand(let ids): try snapshot.expand(ids)
    case .collapse(let ids): try snapshot.collapse(ids)
    case .reloadItems(let ids): try snapshot.reloadItems(ids)
    case .reconfigureItems(let ids): try snapshot.reconfigureItems(ids)
    case .reloadSections(let ids): try snapshot.reloadSections(ids)
    }
  }
}
