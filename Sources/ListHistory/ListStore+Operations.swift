import ListState

/// One-operation transactions: `store.appendItems(...)` is
/// `store.transaction { try $0.appendItems(...) }` — one new version, undone as one step.
///
/// Each version is labelled for an undo menu with the operation's own words ("Append 2 Items",
/// "Move Item", "Expand Item": ``ListStore/Transaction/defaultLabel``) unless `label:` says
/// otherwise; an operation that changes nothing creates no version.
///
/// ```swift
/// try store.appendSections(["Inbox"])
/// try store.appendItems(["Milk", "Eggs"])
/// try store.undo()   // removes Milk and Eggs
/// ```
/// Each throws the model's ``ListError`` (the store unchanged), a ``HistoryError`` or the sink's error.
extension ListStore {
  @inlinable
  public func appendSections(_ sections: [Section], label: String? = nil) throws { try transaction(label: label) { try $0.appendSections(sections) } }
  @inlinable
  public func insertSections(_ sections: [Section], beforeSection anchor: Section.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insertSections(sections, beforeSection: anchor) } }
  @inlinable
  public func insertSections(_ sections: [Section], afterSection anchor: Section.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insertSections(sections, afterSection: anchor) } }
  @inlinable
  public func insertSections(_ sections: [Section], at index: Int, label: String? = nil) throws { try transaction(label: label) { try $0.insertSections(sections, at: index) } }
  @inlinable
  public func deleteSections(_ ids: [Section.ID], label: String? = nil) throws { try transaction(label: label) { try $0.deleteSections(ids) } }
  @inlinable
  public func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveSection(id, beforeSection: anchor) } }
  @inlinable
  public func moveSection(_ id: Section.ID, afterSection anchor: Section.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveSection(id, afterSection: anchor) } }
  @inlinable
  public func moveSection(_ id: Section.ID, toIndex index: Int, label: String? = nil) throws { try transaction(label: label) { try $0.moveSection(id, toIndex: index) } }
  @inlinable
  public func reloadSections(_ ids: [Section.ID], label: String? = nil) throws { try transaction(label: label) { try $0.reloadSections(ids) } }
  @inlinable
  public func updateSection(_ section: Section, label: String? = nil) throws { try transaction(label: label) { try $0.updateSection(section) } }
  @inlinable
  public func replaceSection(_ id: Section.ID, with newSection: Section, label: String? = nil) throws { try transaction(label: label) { try $0.replaceSection(id, with: newSection) } }
  @inlinable
  public func appendItems(_ items: [Item], toSection section: Section.ID? = nil, label: String? = nil) throws { try transaction(label: label) { try $0.appendItems(items, toSection: section) } }
  @inlinable
  public func appendItems(_ items: [Item], underParent parent: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.appendItems(items, underParent: parent) } }
  @inlinable
  public func insertItems(_ items: [Item], beforeItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insertItems(items, beforeItem: anchor) } }
  @inlinable
  public func insertItems(_ items: [Item], afterItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insertItems(items, afterItem: anchor) } }
  @inlinable
  public func deleteItems(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { try $0.deleteItems(ids) } }
  @inlinable
  public func deleteItemsIfPresent(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { $0.deleteItemsIfPresent(ids) } }
  @inlinable
  public func deleteAllItems(label: String? = nil) throws { try transaction(label: label) { $0.deleteAllItems() } }
  @inlinable
  public func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveItem(id, beforeItem: anchor) } }
  @inlinable
  public func moveItem(_ id: Item.ID, afterItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveItem(id, afterItem: anchor) } }
  @inlinable
  public func moveItem(_ id: Item.ID, toSection section: Section.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveItem(id, toSection: section) } }
  @inlinable
  public func moveItem(_ id: Item.ID, underParent parent: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.moveItem(id, underParent: parent) } }
  @inlinable
  public func moveItem(_ id: Item.ID, to location: ListItemLocation<Section.ID, Item.ID>, label: String? = nil) throws { try transaction(label: label) { try $0.moveItem(id, to: location) } }
  @inlinable
  public func reloadItems(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { try $0.reloadItems(ids) } }
  @inlinable
  public func reconfigureItems(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { try $0.reconfigureItems(ids) } }
  @inlinable
  public func updateItems(_ items: [Item], label: String? = nil) throws { try transaction(label: label) { try $0.updateItems(items) } }
  @inlinable
  public func updateItem(_ item: Item, label: String? = nil) throws { try transaction(label: label) { try $0.updateItem(item) } }
  @inlinable
  public func replaceItem(_ id: Item.ID, with newItem: Item, label: String? = nil) throws { try transaction(label: label) { try $0.replaceItem(id, with: newItem) } }
  @inlinable
  public func expand(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { try $0.expand(ids) } }
  @inlinable
  public func collapse(_ ids: [Item.ID], label: String? = nil) throws { try transaction(label: label) { try $0.collapse(ids) } }
  @inlinable
  public func replace(childrenOf parent: Item.ID, using outline: ListOutline<Item>, label: String? = nil) throws { try transaction(label: label) { try $0.replace(childrenOf: parent, using: outline) } }
  @inlinable
  public func insert(_ outline: ListOutline<Item>, beforeItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insert(outline, beforeItem: anchor) } }
  @inlinable
  public func insert(_ outline: ListOutline<Item>, afterItem anchor: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.insert(outline, afterItem: anchor) } }
  @inlinable
  public func append(_ outline: ListOutline<Item>, toSection section: Section.ID? = nil, label: String? = nil) throws { try transaction(label: label) { try $0.append(outline, toSection: section) } }
  @inlinable
  public func append(_ outline: ListOutline<Item>, underParent parent: Item.ID, label: String? = nil) throws { try transaction(label: label) { try $0.append(outline, underParent: parent) } }
  @inlinable
  public func insert(_ outline: ListOutline<Item>, at location: ListItemLocation<Section.ID, Item.ID>, label: String? = nil) throws { try transaction(label: label) { try $0.insert(outline, at: location) } }
  @inlinable
  public func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath, label: String? = nil) throws {
    try transaction(label: label) { _ = try $0.moveVisibleRow(from: source, to: destination) }
  }
}
