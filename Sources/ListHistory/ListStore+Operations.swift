import ListState

/// One-operation transactions: `store.appendItems(...)` is
/// `store.transaction { try $0.appendItems(...) }` — one new version, undone as one step.
///
/// ```swift
/// try store.appendSections(["Inbox"])
/// try store.appendItems(["Milk", "Eggs"])
/// try store.undo()   // removes Milk and Eggs
/// ```
/// Each throws the model's ``ListError`` (the store unchanged), a ``HistoryError`` or the sink's error.
extension ListStore {
  public func appendSections(_ sections: [Section]) throws { try transaction { try $0.appendSections(sections) } }
  public func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws { try transaction { try $0.insertSections(sections, beforeSection: anchor) } }
  public func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws { try transaction { try $0.insertSections(sections, afterSection: anchor) } }
  public func insertSections(_ sections: [Section], at index: Int) throws { try transaction { try $0.insertSections(sections, at: index) } }
  public func deleteSections(_ ids: [Section.ID]) throws { try transaction { try $0.deleteSections(ids) } }
  public func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws { try transaction { try $0.moveSection(id, beforeSection: anchor) } }
  public func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws { try transaction { try $0.moveSection(id, afterSection: anchor) } }
  public func moveSection(_ id: Section.ID, toIndex index: Int) throws { try transaction { try $0.moveSection(id, toIndex: index) } }
  public func reloadSections(_ ids: [Section.ID]) throws { try transaction { try $0.reloadSections(ids) } }
  public func updateSection(_ section: Section) throws { try transaction { try $0.updateSection(section) } }
  public func replaceSection(_ id: Section.ID, with newSection: Section) throws { try transaction { try $0.replaceSection(id, with: newSection) } }
  public func appendItems(_ items: [Item], toSection section: Section.ID? = nil) throws { try transaction { try $0.appendItems(items, toSection: section) } }
  public func appendItems(_ items: [Item], underParent parent: Item.ID) throws { try transaction { try $0.appendItems(items, underParent: parent) } }
  public func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws { try transaction { try $0.insertItems(items, beforeItem: anchor) } }
  public func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws { try transaction { try $0.insertItems(items, afterItem: anchor) } }
  public func deleteItems(_ ids: [Item.ID]) throws { try transaction { try $0.deleteItems(ids) } }
  public func deleteItemsIfPresent(_ ids: [Item.ID]) throws { try transaction { $0.deleteItemsIfPresent(ids) } }
  public func deleteAllItems() throws { try transaction { $0.deleteAllItems() } }
  public func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws { try transaction { try $0.moveItem(id, beforeItem: anchor) } }
  public func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws { try transaction { try $0.moveItem(id, afterItem: anchor) } }
  public func moveItem(_ id: Item.ID, toSection section: Section.ID) throws { try transaction { try $0.moveItem(id, toSection: section) } }
  public func moveItem(_ id: Item.ID, underParent parent: Item.ID) throws { try transaction { try $0.moveItem(id, underParent: parent) } }
  public func moveItem(_ id: Item.ID, to location: ListItemLocation<Section.ID, Item.ID>) throws { try transaction { try $0.moveItem(id, to: location) } }
  public func reloadItems(_ ids: [Item.ID]) throws { try transaction { try $0.reloadItems(ids) } }
  public func reconfigureItems(_ ids: [Item.ID]) throws { try transaction { try $0.reconfigureItems(ids) } }
  public func updateItems(_ items: [Item]) throws { try transaction { try $0.updateItems(items) } }
  public func updateItem(_ item: Item) throws { try transaction { try $0.updateItem(item) } }
  public func replaceItem(_ id: Item.ID, with newItem: Item) throws { try transaction { try $0.replaceItem(id, with: newItem) } }
  public func expand(_ ids: [Item.ID]) throws { try transaction { try $0.expand(ids) } }
  public func collapse(_ ids: [Item.ID]) throws { try transaction { try $0.collapse(ids) } }
  public func replace(childrenOf parent: Item.ID, using outline: ListOutline<Item>) throws { try transaction { try $0.replace(childrenOf: parent, using: outline) } }
  public func insert(_ outline: ListOutline<Item>, beforeItem anchor: Item.ID) throws { try transaction { try $0.insert(outline, beforeItem: anchor) } }
  public func insert(_ outline: ListOutline<Item>, afterItem anchor: Item.ID) throws { try transaction { try $0.insert(outline, afterItem: anchor) } }
  public func append(_ outline: ListOutline<Item>, toSection section: Section.ID? = nil) throws { try transaction { try $0.append(outline, toSection: section) } }
  public func append(_ outline: ListOutline<Item>, underParent parent: Item.ID) throws { try transaction { try $0.append(outline, underParent: parent) } }
  public func insert(_ outline: ListOutline<Item>, at location: ListItemLocation<Section.ID, Item.ID>) throws { try transaction { try $0.insert(outline, at: location) } }
  public func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws {
    try transaction { _ = try $0.moveVisibleRow(from: source, to: destination) }
  }
}
