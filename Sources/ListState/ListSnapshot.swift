/// The whole state of a list: ordered sections, each holding an ordered forest of items with
/// expanded/collapsed flags — UIKit's `NSDiffableDataSourceSnapshot` and
/// `NSDiffableDataSourceSectionSnapshot` in one portable value.
///
/// Identifiers are unique per kind across the whole list (no item in two sections). Identity
/// (`id`) is kept apart from content (`==`): ``updateItem(_:)`` keeps an item's identity,
/// position, children and expansion and marks it reloaded.
///
/// A snapshot is a value with copy-on-write, persistent storage: copying one is O(1) and
/// mutating a copy costs O(log n) per operation, not O(n).
///
/// ```swift
/// var snapshot = ListSnapshot<String, String>()
/// try snapshot.appendSections(["Fruit"])
/// try snapshot.appendItems(["Apple", "Pear"])
/// try snapshot.appendItems(["Granny Smith"], underParent: "Apple")
/// try snapshot.expand(["Apple"])
/// snapshot.visibleItems(inSection: "Fruit")   // ["Apple", "Granny Smith", "Pear"]
/// ```
///
/// Every mutating operation throws a ``ListError`` instead of crashing and, when it throws,
/// leaves the snapshot exactly as it was.
public struct ListSnapshot<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Failure = ListError<Section.ID, Item.ID>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>

  /// An empty list.
  public init() { fatalError("unimplemented") }
}

// MARK: - Queries (ListSnapshot+Queries.swift)
extension ListSnapshot {
  public var numberOfSections: Int { fatalError("unimplemented") }
  /// All items at every level.
  public var numberOfItems: Int { fatalError("unimplemented") }
  public func numberOfItems(inSection section: Section.ID) -> Int? { fatalError("unimplemented") }
  public var sectionIdentifiers: [Section.ID] { fatalError("unimplemented") }
  public var sections: [Section] { fatalError("unimplemented") }
  /// All item identifiers in list order (sections in order, each in pre-order).
  public var itemIdentifiers: [Item.ID] { fatalError("unimplemented") }
  /// The section's item identifiers in pre-order; nil when the section is unknown.
  public func itemIdentifiersIfPresent(inSection section: Section.ID) -> [Item.ID]? { fatalError("unimplemented") }
  /// The section's item identifiers in pre-order; empty when the section is unknown.
  public func itemIdentifiers(inSection section: Section.ID) -> [Item.ID] { fatalError("unimplemented") }
  public func section(_ id: Section.ID) -> Section? { fatalError("unimplemented") }
  public func item(_ id: Item.ID) -> Item? { fatalError("unimplemented") }
  public func contains(item id: Item.ID) -> Bool { fatalError("unimplemented") }
  public func contains(section id: Section.ID) -> Bool { fatalError("unimplemented") }
  public func sectionIdentifier(containingItem id: Item.ID) -> Section.ID? { fatalError("unimplemented") }
  /// Index in `itemIdentifiers` (across all sections), as UIKit's `indexOfItem`.
  public func index(ofItem id: Item.ID) -> Int? { fatalError("unimplemented") }
  public func index(ofSection id: Section.ID) -> Int? { fatalError("unimplemented") }
  /// Where the item hangs and its index among its siblings.
  public func location(ofItem id: Item.ID) -> Location? { fatalError("unimplemented") }
  public func parent(of id: Item.ID) -> Item.ID? { fatalError("unimplemented") }
  /// 0 for root items.
  public func level(of id: Item.ID) -> Int? { fatalError("unimplemented") }
  public func isExpanded(_ id: Item.ID) -> Bool { fatalError("unimplemented") }
  /// True when every ancestor is expanded.
  public func isVisible(_ id: Item.ID) -> Bool { fatalError("unimplemented") }
  public func children(of id: Item.ID) -> [Item.ID] { fatalError("unimplemented") }
  public func rootItems(inSection section: Section.ID) -> [Item.ID] { fatalError("unimplemented") }
  /// The rows a UI shows for the section: items whose ancestors are all expanded, pre-order.
  public func visibleItems(inSection section: Section.ID) -> [Item.ID] { fatalError("unimplemented") }
  /// Visible items of every section, in list order.
  public var visibleItems: [Item.ID] { fatalError("unimplemented") }
  public func numberOfVisibleItems(inSection section: Section.ID) -> Int? { fatalError("unimplemented") }
  /// The item shown at a visible index path.
  public func visibleItem(at indexPath: ListIndexPath) -> Item.ID? { fatalError("unimplemented") }
  /// The visible index path of an item; nil when unknown or hidden under a collapsed ancestor.
  public func visibleIndexPath(ofItem id: Item.ID) -> ListIndexPath? { fatalError("unimplemented") }
  /// The sub-outline under `parent` (with `parent` as its single root when `includingParent`).
  public func outline(of parent: Item.ID, includingParent: Bool = false) -> Outline? { fatalError("unimplemented") }
  /// The section's whole forest.
  public func outline(ofSection section: Section.ID) -> Outline? { fatalError("unimplemented") }
  /// Items marked by `reloadItems` or content updates since the last `clearMarkers()`.
  public var reloadedItemIdentifiers: Set<Item.ID> { fatalError("unimplemented") }
  public var reconfiguredItemIdentifiers: Set<Item.ID> { fatalError("unimplemented") }
  public var reloadedSectionIdentifiers: Set<Section.ID> { fatalError("unimplemented") }
  public mutating func clearMarkers() { fatalError("unimplemented") }
  /// A readable multi-line drawing of the list (sections, indentation per level, `▸`/`▾`).
  public func visualDescription() -> String { fatalError("unimplemented") }
}

// MARK: - Sections (ListSnapshot+Sections.swift)
extension ListSnapshot {
  public mutating func appendSections(_ sections: [Section]) throws(Failure) { fatalError("unimplemented") }
  public mutating func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws(Failure) { fatalError("unimplemented") }
  public mutating func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws(Failure) { fatalError("unimplemented") }
  /// Positional insert: the first new section lands at `index` (0...numberOfSections).
  public mutating func insertSections(_ sections: [Section], at index: Int) throws(Failure) { fatalError("unimplemented") }
  /// Deletes the sections and every item in them.
  public mutating func deleteSections(_ ids: [Section.ID]) throws(Failure) { fatalError("unimplemented") }
  public mutating func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws(Failure) { fatalError("unimplemented") }
  public mutating func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws(Failure) { fatalError("unimplemented") }
  /// Positional move: the section ends at `index` of the final order (0..<numberOfSections).
  public mutating func moveSection(_ id: Section.ID, toIndex index: Int) throws(Failure) { fatalError("unimplemented") }
  public mutating func reloadSections(_ ids: [Section.ID]) throws(Failure) { fatalError("unimplemented") }
  /// Content update of an existing section (matched by id); marks it reloaded.
  public mutating func updateSection(_ section: Section) throws(Failure) { fatalError("unimplemented") }
  /// Replace header: `newSection` takes `id`'s place and all its items. `newSection.id` may equal `id`.
  public mutating func replaceSection(_ id: Section.ID, with newSection: Section) throws(Failure) { fatalError("unimplemented") }
}

// MARK: - Items (ListSnapshot+Items.swift)
extension ListSnapshot {
  /// Appends root items to `section` (default: the last section).
  public mutating func appendItems(_ items: [Item], toSection section: Section.ID? = nil) throws(Failure) { fatalError("unimplemented") }
  /// Appends items as the last children of `parent`.
  public mutating func appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Inserts items as siblings before `anchor`.
  public mutating func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  public mutating func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Deletes items with their subtrees.
  public mutating func deleteItems(_ ids: [Item.ID]) throws(Failure) { fatalError("unimplemented") }
  /// Like ``deleteItems(_:)`` but skips unknown identifiers instead of throwing.
  public mutating func deleteItemsIfPresent(_ ids: [Item.ID]) { fatalError("unimplemented") }
  /// Deletes every item and every section, like UIKit's `deleteAllItems`.
  public mutating func deleteAllItems() { fatalError("unimplemented") }
  /// Moves an item (with its subtree) to become the sibling before `anchor`.
  public mutating func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Moves an item (with its subtree) to become the last root item of `section`.
  public mutating func moveItem(_ id: Item.ID, toSection section: Section.ID) throws(Failure) { fatalError("unimplemented") }
  /// Moves an item (with its subtree) to become the last child of `parent`.
  public mutating func moveItem(_ id: Item.ID, underParent parent: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Positional move: the item ends at `location` (index counted after removing the item).
  public mutating func moveItem(_ id: Item.ID, to location: Location) throws(Failure) { fatalError("unimplemented") }
  public mutating func reloadItems(_ ids: [Item.ID]) throws(Failure) { fatalError("unimplemented") }
  public mutating func reconfigureItems(_ ids: [Item.ID]) throws(Failure) { fatalError("unimplemented") }
  /// Content update of existing items (matched by id); keeps position, children, expansion; marks reloaded.
  public mutating func updateItems(_ items: [Item]) throws(Failure) { fatalError("unimplemented") }
  public mutating func updateItem(_ item: Item) throws(Failure) { fatalError("unimplemented") }
  /// Replace header: `newItem` takes `id`'s place, children and expansion. `newItem.id` may equal `id`.
  public mutating func replaceItem(_ id: Item.ID, with newItem: Item) throws(Failure) { fatalError("unimplemented") }
}

// MARK: - Outline (ListSnapshot+Outline.swift)
extension ListSnapshot {
  public mutating func expand(_ ids: [Item.ID]) throws(Failure) { fatalError("unimplemented") }
  public mutating func collapse(_ ids: [Item.ID]) throws(Failure) { fatalError("unimplemented") }
  /// Replaces all children of `parent` (their subtrees are deleted) with `outline`.
  public mutating func replace(childrenOf parent: Item.ID, using outline: Outline) throws(Failure) { fatalError("unimplemented") }
  /// Inserts a whole sub-outline as siblings before `anchor`.
  public mutating func insert(_ outline: Outline, beforeItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  public mutating func insert(_ outline: Outline, afterItem anchor: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Appends a whole sub-outline as root items of `section` (default: the last section).
  public mutating func append(_ outline: Outline, toSection section: Section.ID? = nil) throws(Failure) { fatalError("unimplemented") }
  public mutating func append(_ outline: Outline, underParent parent: Item.ID) throws(Failure) { fatalError("unimplemented") }
  /// Positional insert of a sub-outline: its first root lands at `location`.
  public mutating func insert(_ outline: Outline, at location: Location) throws(Failure) { fatalError("unimplemented") }
}

// MARK: - Reorder (ListSnapshot+Reorder.swift)
extension ListSnapshot {
  /// What a drag does: the visible row at `source` (with its subtree) moves so that it lands at
  /// `destination` of the final layout — before the row now there, as its sibling — or, when
  /// `destination.row` equals the section's final row count, as the section's last root item.
  @discardableResult
  public mutating func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure)
    -> ListTransaction<Section, Item>
  { fatalError("unimplemented") }
}

// MARK: - Invariants (ListSnapshot+Invariants.swift)
extension ListSnapshot {
  /// Checks every structural invariant; traps on violation. Real only with `LISTJOURNAL_INVARIANTS`.
  public func _checkInvariants() {}
}
