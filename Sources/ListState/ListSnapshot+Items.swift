import HashTreeCollections

// Validation order of the item operations (the first failing check throws):
// duplicates in the argument → unknown items, sections, anchors or parents (`.noSections` for a
// default section) → index range (inserts) → anchor or parent among the inserted items → items
// that already exist → relative to itself → under its own descendant → index range (moves).
extension ListSnapshot {
  /// Appends root items to `section` (default: the last section).
  ///
  /// ```swift
  /// try snapshot.appendItems(["Apple", "Pear"], toSection: "Fruit")
  /// ```
  /// - Throws: `.duplicateItems`, `.noSections`, `.sectionsNotFound`, `.itemsAlreadyExist`.
  /// - Complexity: O(k log n) for k items; appending to an empty section builds its sequence
  ///   bottom-up in O(k).
  @inlinable
  public mutating func appendItems(_ items: [Item], toSection section: Section.ID? = nil) throws(Failure) {
    let sortedHashes = try _validateNewItems(items.map(\.id)) { () throws(Failure) in
      _ = try _resolveAppendSection(section)
    }
    let target = try _resolveAppendSection(section)
    _insertNewItems(items, in: .section(target), at: _sectionRecords[target]!.roots.count, sortedHashes: sortedHashes)
    _checkInvariants()
  }

  /// Appends items as the last children of `parent`.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([parent])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) {
    let sortedHashes = try _validateNewItems(items.map(\.id), anchor: parent)
    _insertNewItems(items, in: .parent(parent), at: _itemRecords[parent]!.children.count, sortedHashes: sortedHashes)
    _checkInvariants()
  }

  /// Inserts items as siblings before `anchor`.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([anchor])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws(Failure) {
    let sortedHashes = try _validateNewItems(items.map(\.id), anchor: anchor)
    let location = location(ofItem: anchor)!
    _insertNewItems(items, in: location.container, at: location.index, sortedHashes: sortedHashes)
    _checkInvariants()
  }

  /// Inserts items as siblings after `anchor`.
  ///
  /// - Throws: as ``insertItems(_:beforeItem:)``.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws(Failure) {
    let sortedHashes = try _validateNewItems(items.map(\.id), anchor: anchor)
    let location = location(ofItem: anchor)!
    _insertNewItems(items, in: location.container, at: location.index + 1, sortedHashes: sortedHashes)
    _checkInvariants()
  }

  /// Checks new identifiers: duplicates, then `resolve` (unknown containers), then the anchor
  /// (must exist and not be among the new ones), then already existing identifiers.
  ///
  /// - Returns: The identifiers' hashes sorted (reused by the bulk insertion).
  @inlinable
  @discardableResult
  func _validateNewItems(
    _ ids: [Item.ID], anchor: Item.ID? = nil, resolve: () throws(Failure) -> Void = {}
  ) throws(Failure) -> [(hash: UInt64, index: Int)] {
    if ids.count <= 1 {
      // One item (the common edit): the same checks in the same order without the hash sort
      // and the small arrays (the caller needs sorted hashes only for bulk insertion).
      try resolve()
      if let anchor {
        if _itemRecords[anchor] == nil { throw .itemsNotFound([anchor]) }
        if ids.first == anchor { throw .anchorAmongInsertedItems(anchor) }
      }
      if let id = ids.first, _itemRecords[id] != nil { throw .itemsAlreadyExist([id]) }
      return []
    }
    let sortedHashes = _HashTree<Item.ID, ItemRecord>.sortedHashes(of: ids)
    let duplicates = _HashTree<Item.ID, ItemRecord>.duplicateKeys(ids, sortedHashes: sortedHashes)
    if !duplicates.isEmpty { throw .duplicateItems(Self._unique(ids.filter { duplicates.contains($0) })) }
    try resolve()
    if let anchor {
      try _requireItems([anchor])
      if ids.contains(anchor) { throw .anchorAmongInsertedItems(anchor) }
    }
    if !_itemRecords.isEmpty {
      let existing = _existingItems(ids)
      if !existing.isEmpty { throw .itemsAlreadyExist(existing) }
    }
    return sortedHashes
  }

  /// Deletes items with their subtrees.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k + d · depth · log n) for k deleted items (at every level) and d
  ///   identifiers.
  @inlinable
  public mutating func deleteItems(_ ids: [Item.ID]) throws(Failure) {
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems(ids)
    // An identifier may already be gone as part of an earlier identifier's subtree.
    for id in ids where _itemRecords[id] != nil { _deleteItem(id) }
    _checkInvariants()
  }

  /// Like ``deleteItems(_:)`` but skips unknown (and repeated) identifiers instead of throwing.
  ///
  /// - Complexity: as ``deleteItems(_:)``.
  @inlinable
  public mutating func deleteItemsIfPresent(_ ids: [Item.ID]) {
    for id in ids where _itemRecords[id] != nil { _deleteItem(id) }
    _checkInvariants()
  }

  /// Deletes every item and every section, like UIKit's `deleteAllItems`.
  ///
  /// - Complexity: O(1) (the old storage is released, or kept by other snapshots).
  @inlinable
  public mutating func deleteAllItems() {
    self = ListSnapshot()
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the sibling before `anchor`.
  ///
  /// - Throws: `.itemsNotFound`, `.itemRelativeToItself`, `.itemUnderOwnDescendant`.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws(Failure) {
    try _validateMove(id, relativeTo: anchor)
    let entry = _detachItem(id)
    let location = location(ofItem: anchor)!
    _attachItem(entry, in: location.container, at: location.index)
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the sibling after `anchor`.
  ///
  /// - Throws: as ``moveItem(_:beforeItem:)``.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(Failure) {
    try _validateMove(id, relativeTo: anchor)
    let entry = _detachItem(id)
    let location = location(ofItem: anchor)!
    _attachItem(entry, in: location.container, at: location.index + 1)
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the last root item of `section`.
  ///
  /// - Throws: `.itemsNotFound`, `.sectionsNotFound`.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, toSection section: Section.ID) throws(Failure) {
    try _requireItems([id])
    try _requireSections([section])
    let entry = _detachItem(id)
    _attachItem(entry, in: .section(section), at: _sectionRecords[section]!.roots.count)
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the last child of `parent`.
  ///
  /// - Throws: `.itemsNotFound`, `.itemRelativeToItself`, `.itemUnderOwnDescendant`.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, underParent parent: Item.ID) throws(Failure) {
    try _validateMove(id, relativeTo: parent)
    let entry = _detachItem(id)
    _attachItem(entry, in: .parent(parent), at: _itemRecords[parent]!.children.count)
    _checkInvariants()
  }

  /// Positional move: the item ends at `location` (index counted after removing the item,
  /// `0...count`).
  ///
  /// ```swift
  /// try snapshot.moveItem("Pear", to: .init(.section("Fruit"), index: 0))
  /// ```
  /// - Throws: `.itemsNotFound`, `.sectionsNotFound`, `.itemRelativeToItself`,
  ///   `.itemUnderOwnDescendant`, `.indexOutOfRange`.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, to location: Location) throws(Failure) {
    switch location.container {
    case .section(let section):
      try _requireItems([id])
      try _requireSections([section])
    case .parent(let parent):
      try _validateMove(id, relativeTo: parent)
    }
    let record = _itemRecords[id]!
    let available = _tree(of: location.container)!.count - (record.container == location.container ? 1 : 0)
    guard location.index >= 0, location.index <= available else {
      throw .indexOutOfRange(index: location.index, count: available)
    }
    let entry = _detachItem(id)
    _attachItem(entry, in: location.container, at: location.index)
    _checkInvariants()
  }

  /// Checks a move of `id` next to or under `destination`: both exist, differ, and
  /// `destination` is not inside `id`'s subtree.
  @inlinable
  func _validateMove(_ id: Item.ID, relativeTo destination: Item.ID) throws(Failure) {
    if _itemRecords[id] == nil || _itemRecords[destination] == nil { try _requireItems([id, destination]) }
    if id == destination { throw .itemRelativeToItself(id) }
    if _isDescendant(destination, of: id) { throw .itemUnderOwnDescendant(item: id, destination: destination) }
  }

  /// Marks items reloaded.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func reloadItems(_ ids: [Item.ID]) throws(Failure) {
    try _validateExistingItems(ids)
    for id in ids { _reloadedItems.insert(id) }
    _checkInvariants()
  }

  /// Marks items reconfigured.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func reconfigureItems(_ ids: [Item.ID]) throws(Failure) {
    try _validateExistingItems(ids)
    for id in ids { _reconfiguredItems.insert(id) }
    _checkInvariants()
  }

  /// Content update of existing items (matched by id); keeps position, children, expansion;
  /// marks reloaded.
  ///
  /// ```swift
  /// try snapshot.updateItems([Contact(id: id, name: "Ada Lovelace")])
  /// ```
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func updateItems(_ items: [Item]) throws(Failure) {
    try _validateExistingItems(items.map(\.id))
    for item in items {
      _itemRecords.modify(item.id) { $0.value = item }
      _reloadedItems.insert(item.id)
    }
    _checkInvariants()
  }

  /// Content update of one existing item; see ``updateItems(_:)``.
  @inlinable
  public mutating func updateItem(_ item: Item) throws(Failure) {
    try updateItems([item])
  }

  /// Replace header: `newItem` takes `id`'s place, children and expansion; `id` is gone (with
  /// its markers) and `newItem` is marked reloaded. `newItem.id` may equal `id`.
  ///
  /// ```swift
  /// try snapshot.replaceItem("Fruit", with: "Fruit (3)")   // children stay, now under "Fruit (3)"
  /// ```
  /// - Throws: `.itemsNotFound([id])`, `.itemsAlreadyExist([newItem.id])`.
  /// - Complexity: O(c + log n) for c children (each child names its parent).
  @inlinable
  public mutating func replaceItem(_ id: Item.ID, with newItem: Item) throws(Failure) {
    try _requireItems([id])
    if newItem.id == id {
      _itemRecords.modify(id) { $0.value = newItem }
      _reloadedItems.insert(id)
      _checkInvariants()
      return
    }
    if _itemRecords[newItem.id] != nil { throw .itemsAlreadyExist([newItem.id]) }
    var record = _itemRecords.removeValue(forKey: id)!
    record.value = newItem
    let label = record.label
    _withTree(of: record.container) { $0.replaceID(label: label, with: newItem.id) }
    record.children.forEach { _itemRecords.modify($0.id) { $0.container = .parent(newItem.id) } }
    _itemRecords.updateValue(record, forKey: newItem.id)
    _reloadedItems.remove(id)
    _reconfiguredItems.remove(id)
    _reloadedItems.insert(newItem.id)
    _checkInvariants()
  }

  @inlinable
  func _validateExistingItems(_ ids: [Item.ID]) throws(Failure) {
    if ids.count == 1, _itemRecords[ids[0]] != nil { return }  // no duplicates, present
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems(ids)
  }
}
