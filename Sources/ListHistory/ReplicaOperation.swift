import ListState

/// One change of a replicated list, by identifier: what replicas exchange and merge.
///
/// A replica records each ``ListEvent`` of a local transaction as an operation whose positions
/// are anchors (``ReplicaAnchor``: "after this item, in this container") instead of indices, so
/// that it keeps its meaning on a replica with other changes. Operations keep what undo needs
/// (the deleted subtree, the old content, where a moved item came from), like events do.
/// Reload and reconfigure markers are not replicated: they change nothing.
///
/// ```swift
/// let operation = ReplicaOperation<String, String>.moveItem(
///     "Pear", from: .init(.section("Fruit"), after: "Apple"), to: .init(.section("Fruit"), after: nil))
/// ```
public enum ReplicaOperation<Section: ListElement, Item: ListElement>: Sendable, Equatable {
  public typealias Anchor = ReplicaAnchor<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>

  // MARK: Sections
  /// A section (with its items) was inserted after a section (first when nil).
  case insertSection(Section, items: Outline, after: Section.ID?)
  /// A section was deleted with its items (kept for undo); it followed `after`.
  case deleteSection(Section, items: Outline, after: Section.ID?)
  /// A section moved from after one section to after another.
  case moveSection(Section.ID, from: Section.ID?, to: Section.ID?)
  /// A section's content changed.
  case updateSection(old: Section, new: Section)
  /// A section was replaced by another, possibly with a new identifier, keeping its items.
  case replaceSection(old: Section, new: Section)

  // MARK: Items
  /// Consecutive siblings (with their subtrees) were inserted, the first at `at`.
  case insertItems(Outline, at: Anchor)
  /// Consecutive siblings were deleted with their subtrees (kept for undo); the first was at `from`.
  case deleteItems(Outline, from: Anchor)
  /// An item (with its subtree) moved.
  case moveItem(Item.ID, from: Anchor, to: Anchor)
  /// An item's content changed.
  case updateItem(old: Item, new: Item)
  /// An item was replaced in place by another, possibly with a new identifier.
  case replaceItem(old: Item, new: Item)
  /// An item was expanded (true) or collapsed (false); `was` is its state before.
  case setExpanded(Item.ID, Bool, was: Bool)
}

extension ReplicaOperation {
  /// A short name of the operation kind, for logs and the CLI (`"moveItem"`).
  @inlinable
  public var kindName: String {
    switch self {
    case .insertSection: "insertSection"
    case .deleteSection: "deleteSection"
    case .moveSection: "moveSection"
    case .updateSection: "updateSection"
    case .replaceSection: "replaceSection"
    case .insertItems: "insertItems"
    case .deleteItems: "deleteItems"
    case .moveItem: "moveItem"
    case .updateItem: "updateItem"
    case .replaceItem: "replaceItem"
    case .setExpanded(_, let expanded, _): expanded ? "expand" : "collapse"
    }
  }
}
