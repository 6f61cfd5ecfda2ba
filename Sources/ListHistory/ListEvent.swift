import ListState

/// One primitive, exactly reversible change of a ``ListSnapshot``: the unit the history records,
/// replays, undoes and encodes.
///
/// Every case carries what replay *and* undo need, expressed with exact positions
/// (``ListItemLocation`` for items, an index for sections), so that ``apply(to:verifying:)`` and
/// ``revert(from:verifying:)`` each cost O(log n) per touched item — never a search or a diff.
/// High-level operations (for example `deleteItems([a, b, c])`) are recorded as one event per
/// primitive step; folding the events of a history from the empty list reproduces every state.
///
/// ```swift
/// var snapshot = ListSnapshot<String, String>()
/// let events: [ListEvent<String, String>] = [
///     .insertSection("Fruit", items: ListOutline(), at: 0),
///     .insertItems(ListOutline(items: ["Apple", "Pear"]), at: .init(.section("Fruit"), index: 0)),
///     .moveItem("Pear", from: .init(.section("Fruit"), index: 1), to: .init(.section("Fruit"), index: 0)),
/// ]
/// for event in events { try event.apply(to: &snapshot) }
/// snapshot.itemIdentifiers   // ["Pear", "Apple"]
/// ```
///
/// Each event has an ``inverse``: `revert(e)` is `apply(e.inverse)`.
public enum ListEvent<Section: ListElement, Item: ListElement>: Sendable, Equatable {
  public typealias Location = ListItemLocation<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>

  // MARK: Sections
  /// A section (with its items, usually none) was inserted so that it sits at `index`.
  case insertSection(Section, items: Outline, at: Int)
  /// The section at `index` was deleted together with its items (kept here for undo).
  case deleteSection(Section, items: Outline, at: Int)
  /// A section moved from index `from` to index `to` of the final order.
  case moveSection(Section.ID, from: Int, to: Int)
  /// A section's content changed; its identifier did not.
  case updateSection(old: Section, new: Section)
  /// A section header was replaced by another (possibly with a new identifier), keeping its items.
  case replaceSection(old: Section, new: Section)
  /// Sections were marked reloaded (a marker: it changes no structure or content).
  case reloadSections([Section.ID])

  // MARK: Items
  /// The outline's roots were inserted as consecutive siblings, the first at `location`.
  case insertItems(Outline, at: Location)
  /// The outline's roots (consecutive siblings, the first at `location`) were deleted with
  /// their subtrees, which the outline keeps for undo.
  case deleteItems(Outline, from: Location)
  /// An item (with its subtree) moved; `to.index` counts siblings after removing the item.
  case moveItem(Item.ID, from: Location, to: Location)
  /// An item's content changed; identity, position, children and expansion did not.
  case updateItem(old: Item, new: Item)
  /// An item was replaced by another (possibly with a new identifier) in place, keeping
  /// its children and expansion.
  case replaceItem(old: Item, new: Item)
  /// An item was expanded; `wasExpanded` tells whether it already was.
  case expand(Item.ID, wasExpanded: Bool)
  /// An item was collapsed; `wasExpanded` tells whether it was expanded before.
  case collapse(Item.ID, wasExpanded: Bool)
  /// Items were marked reloaded (a marker).
  case reloadItems([Item.ID])
  /// Items were marked reconfigured (a marker).
  case reconfigureItems([Item.ID])
}

extension ListEvent {
  /// The event that undoes this one: applying `inverse` to the state after this event gives
  /// the state before it. Markers are their own inverse (they are transient annotations).
  ///
  /// - Complexity: O(1).
  @inlinable
  public var inverse: ListEvent {
    switch self {
    case .insertSection(let section, let items, let index): .deleteSection(section, items: items, at: index)
    case .deleteSection(let section, let items, let index): .insertSection(section, items: items, at: index)
    case .moveSection(let id, let from, let to): .moveSection(id, from: to, to: from)
    case .updateSection(let old, let new): .updateSection(old: new, new: old)
    case .replaceSection(let old, let new): .replaceSection(old: new, new: old)
    case .reloadSections: self
    case .insertItems(let outline, let location): .deleteItems(outline, from: location)
    case .deleteItems(let outline, let location): .insertItems(outline, at: location)
    case .moveItem(let id, let from, let to): .moveItem(id, from: to, to: from)
    case .updateItem(let old, let new): .updateItem(old: new, new: old)
    case .replaceItem(let old, let new): .replaceItem(old: new, new: old)
    case .expand(let id, let wasExpanded): wasExpanded ? self : .collapse(id, wasExpanded: true)
    case .collapse(let id, let wasExpanded): wasExpanded ? .expand(id, wasExpanded: false) : self
    case .reloadItems, .reconfigureItems: self
    }
  }

  /// True for events that change neither structure nor content (markers and no-op expansion
  /// changes); they never move an identifier.
  @inlinable
  public var isIdentityNeutral: Bool {
    switch self {
    case .reloadSections, .reloadItems, .reconfigureItems, .expand, .collapse, .updateItem, .updateSection:
      true
    default: false
    }
  }

  /// The cost of applying the event, in units of one simple event: 1, plus the number of items
  /// an insert or delete carries (what checkpoint spacing counts).
  ///
  /// - Complexity: O(1) for simple events, O(k) for k carried items.
  @inlinable
  public var replayWeight: Int {
    // The case test first, without bindings: a `switch` that binds payloads copies the whole
    // event (an outlined copy and destroy of the enum) — for every event a commit adds to the
    // history, although most events (moves, updates) weigh 1.
    guard _carriesItems else { return 1 }
    switch self {
    case .insertItems(let outline, _), .deleteItems(let outline, _),
      .insertSection(_, let outline, _), .deleteSection(_, let outline, _):
      return outline.roots.count == 1 && outline.roots[0].children.isEmpty ? 1 : 1 + outline.count
    default: return 1
    }
  }

  /// Whether the event inserts or deletes items or a section (the cases that carry an outline).
  @inlinable
  var _carriesItems: Bool {
    switch self {
    case .insertItems, .deleteItems, .insertSection, .deleteSection: true
    default: false
    }
  }

  /// A short name of the event kind, for logs and the CLI (`"moveItem"`).
  @inlinable
  public var kindName: String {
    switch self {
    case .insertSection: "insertSection"
    case .deleteSection: "deleteSection"
    case .moveSection: "moveSection"
    case .updateSection: "updateSection"
    case .replaceSection: "replaceSection"
    case .reloadSections: "reloadSections"
    case .insertItems: "insertItems"
    case .deleteItems: "deleteItems"
    case .moveItem: "moveItem"
    case .updateItem: "updateItem"
    case .replaceItem: "replaceItem"
    case .expand: "expand"
    case .collapse: "collapse"
    case .reloadItems: "reloadItems"
    case .reconfigureItems: "reconfigureItems"
    }
  }
}
