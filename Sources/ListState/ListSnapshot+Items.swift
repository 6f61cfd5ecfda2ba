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
    try _appendItems(items, toSection: section)
  }

  /// ``appendItems(_:toSection:)`` that returns where the first item went (what a history
  /// records for the insert; asking ``location(ofItem:)`` afterwards cost a lookup and a rank).
  @inlinable
  @discardableResult
  package mutating func _appendItems(_ items: [Item], toSection section: Section.ID?) throws(Failure) -> Location {
    let ids = Self._identifiers(of: items)
    let sortedHashes = try _validateNewItems(ids, checkingExisting: false) { () throws(Failure) in
      _ = try _resolveAppendSection(section)
    }
    let target = try _resolveAppendSection(section)
    let location = Location(.section(target), index: _count(of: .section(target))!)
    // (Checks for items that already exist: the last check, and for a batch part of its
    // insertion.)
    try _insertNewItems(items, ids: ids, in: location.container, at: location.index, sortedHashes: sortedHashes)
    _checkInvariants()
    return location
  }

  /// Appends items as the last children of `parent`.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([parent])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) {
    try _appendItems(items, underParent: parent)
  }

  /// ``appendItems(_:underParent:)`` that returns where the first item went.
  @inlinable
  @discardableResult
  package mutating func _appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) -> Location {
    let ids = Self._identifiers(of: items)
    let sortedHashes = try _validateNewItems(ids, anchor: parent, checkingExisting: false)
    let location = Location(.parent(parent), index: _count(of: .parent(parent))!)
    try _insertNewItems(items, ids: ids, in: location.container, at: location.index, sortedHashes: sortedHashes)
    _checkInvariants()
    return location
  }

  /// Inserts items as siblings before `anchor`.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([anchor])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws(Failure) {
    try _insertItems(items, nextTo: anchor, after: false)
  }

  /// Inserts items as siblings after `anchor`.
  ///
  /// - Throws: as ``insertItems(_:beforeItem:)``.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws(Failure) {
    try _insertItems(items, nextTo: anchor, after: true)
  }

  /// Inserts items as siblings before or after `anchor`; returns where the first one went.
  @inlinable
  @discardableResult
  package mutating func _insertItems(_ items: [Item], nextTo anchor: Item.ID, after: Bool) throws(Failure) -> Location {
    if items.count == 1 {
      // One item (the common edit): the checks of `_validateNewItems` in
      // the same order, and the anchor's record, from one paired descent; no arrays.
      let id = items[0].id
      let hash = Self._hash(id)
      let (anchorRecord, existing) = _itemRecords.peekPair(anchor, hash: Self._hash(anchor), id, hash: hash)
      guard let anchorRecord else { throw .itemsNotFound([anchor]) }
      if id == anchor { throw .anchorAmongInsertedItems(anchor) }
      if existing != nil { throw .itemsAlreadyExist([id]) }
      let container = anchorRecord.pointee.container
      let index = _rank(ofLabel: anchorRecord.pointee.label, in: container).index + (after ? 1 : 0)
      _insertNewItem(items[0], hash: hash, isExpanded: false, in: container, containerHash: Self._hash(container), at: index)
      _checkInvariants()
      return Location(container, index: index)
    }
    let ids = Self._identifiers(of: items)
    let sortedHashes = try _validateNewItems(ids, anchor: anchor, checkingExisting: false)
    let anchorLocation = location(ofItem: anchor)!
    let location = Location(anchorLocation.container, index: after ? anchorLocation.index + 1 : anchorLocation.index)
    try _insertNewItems(items, ids: ids, in: location.container, at: location.index, sortedHashes: sortedHashes)
    _checkInvariants()
    return location
  }

  /// The identifiers of `items`, in one pass (no key path, no closure per element).
  @inlinable
  static func _identifiers(of items: [Item]) -> [Item.ID] {
    items.withUnsafeBufferPointer { items in
      [Item.ID](unsafeUninitializedCapacity: items.count) { ids, count in
        guard let source = items.baseAddress, let target = ids.baseAddress else { return }
        var i = 0
        while i < items.count {
          (target + i).initialize(to: source[i].id)
          i += 1
        }
        count = items.count
      }
    }
  }

  /// Checks new identifiers: duplicates, then `resolve` (unknown containers), then the anchor
  /// (must exist and not be among the new ones), then (unless `checkingExisting` is false:
  /// ``_insertNewItems(_:ids:in:at:sortedHashes:)`` checks it then) already existing
  /// identifiers. One identifier is always checked for all of it.
  ///
  /// - Returns: The identifiers' hashes with their positions (reused by the bulk insertion):
  ///   sorted by hash when the list has no items yet, else in the identifiers' order.
  @inlinable
  @discardableResult
  func _validateNewItems(
    _ ids: [Item.ID], anchor: Item.ID? = nil, checkingExisting: Bool = true, resolve: () throws(Failure) -> Void = {}
  ) throws(Failure) -> [(hash: UInt64, index: Int)] {
    if ids.count <= 1 {
      // One item (the common edit): the same checks in the same order without the hash sort
      // and the small arrays (the caller needs sorted hashes only for bulk insertion).
      try resolve()
      if let anchor, let id = ids.first {
        // Both lookups in one paired descent: their cache misses overlap.
        let (anchorEntry, existing) = _itemRecords.peekPair(anchor, hash: Self._hash(anchor), id, hash: Self._hash(id))
        if anchorEntry == nil { throw .itemsNotFound([anchor]) }
        if id == anchor { throw .anchorAmongInsertedItems(anchor) }
        if existing != nil { throw .itemsAlreadyExist([id]) }
        return []
      }
      if let anchor {
        if !_itemRecords.contains(anchor) { throw .itemsNotFound([anchor]) }
      }
      if let id = ids.first, _itemRecords.contains(id) { throw .itemsAlreadyExist([id]) }
      return []
    }
    // Sorted only for a bulk build into an empty map (which needs the order); otherwise in the
    // items' order, with equal hashes (the only way two keys can be equal) found in a table.
    let sorted = _itemRecords.isEmpty
    let hashes = ItemMap.hashes(of: ids, sorted: sorted)
    if sorted ? _HashOrder.hasEqualNeighbours(hashes) : _HashOrder.hasEqualHashes(hashes) {
      let duplicates = ItemMap.duplicateKeys(ids, sortedHashes: sorted ? hashes : ItemMap.sortedHashes(of: ids))
      if !duplicates.isEmpty { throw .duplicateItems(Self._unique(ids.filter { duplicates.contains($0) })) }
    }
    try resolve()
    if let anchor {
      try _requireItems([anchor])
      if ids.contains(anchor) { throw .anchorAmongInsertedItems(anchor) }
    }
    if checkingExisting, _itemRecords.containsAny(ids, hashes: hashes) {
      throw .itemsAlreadyExist(_existingItems(ids))
    }
    return hashes
  }

  /// Deletes items with their subtrees.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k + d · depth · log n) for k deleted items (at every level) and d
  ///   identifiers.
  @inlinable
  public mutating func deleteItems(_ ids: [Item.ID]) throws(Failure) {
    if ids.count == 1 {
      // One item (the common edit): no duplicate scan, the item hashed once and its record
      // found once (taken out by the lookup that checks it exists).
      guard _deleteItemIfPresent(ids[0], hash: Self._hash(ids[0])) else { throw .itemsNotFound(ids) }
      _checkInvariants()
      return
    }
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems(ids)
    // An identifier may already be gone as part of an earlier identifier's subtree.
    for id in ids { _ = _deleteItemIfPresent(id, hash: Self._hash(id)) }
    _checkInvariants()
  }

  /// Like ``deleteItems(_:)`` but skips unknown (and repeated) identifiers instead of throwing.
  ///
  /// - Complexity: as ``deleteItems(_:)``.
  @inlinable
  public mutating func deleteItemsIfPresent(_ ids: [Item.ID]) {
    for id in ids where _itemRecords.contains(id) { _deleteItem(id) }
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
    try _moveItem(id, nextTo: anchor, after: false)
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the sibling after `anchor`.
  ///
  /// - Throws: as ``moveItem(_:beforeItem:)``.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(Failure) {
    try _moveItem(id, nextTo: anchor, after: true)
    _checkInvariants()
  }

  /// Moves an item (with its subtree) to become the last root item of `section`.
  ///
  /// - Throws: `.itemsNotFound`, `.sectionsNotFound`.
  /// - Complexity: O(depth · log n).
  @inlinable
  public mutating func moveItem(_ id: Item.ID, toSection section: Section.ID) throws(Failure) {
    try _requireItem(id)
    try _requireSection(section)
    let entry = _detachItem(id)
    _attachItem(entry, in: .section(section), at: _count(of: .section(section))!)
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
    _attachItem(entry, in: .parent(parent), at: _count(of: .parent(parent))!)
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
    // Validation in the documented order, each lookup done once (and each key hashed once).
    let hash = Self._hash(id)
    let destinationHash = Self._hash(location.container)
    // The record is reached once: the descent that finds it makes its path unique, and its new
    // label and container are written through its address at the end (detaching and attaching
    // change other records only in place, which keeps the address valid).
    let record = _itemRecords.uniqueEntry(id, hash: hash)
    let found = record.map { ($0.pointee.label, $0.pointee.container) }
    let count: Int
    switch location.container {
    case .section(let section):
      guard found != nil else { throw .itemsNotFound([id]) }
      guard let sectionCount = _count(of: location.container, hash: destinationHash) else {
        throw .sectionsNotFound([section])
      }
      count = sectionCount
    case .parent(let parent):
      guard found != nil, let childCount = _count(of: location.container, hash: destinationHash) else {
        try _requireItems([id, parent])
        preconditionFailure("unreachable: an item was missing")
      }
      if id == parent { throw .itemRelativeToItself(id) }
      if _isDescendant(parent, of: id) { throw .itemUnderOwnDescendant(item: id, destination: parent) }
      count = childCount
    }
    let (label, container) = found!
    let available = count - (container == location.container ? 1 : 0)
    guard location.index >= 0, location.index <= available else {
      throw .indexOutOfRange(index: location.index, count: available)
    }
    let entry = _detachItem(label: label, from: container)
    let newLabel = _placeEntry(
      entry.id, w1: entry.w1, w2: entry.w2, in: location.container, hash: destinationHash, at: location.index)
    record!.pointee.label = newLabel
    record!.pointee.container = location.container
    _checkInvariants()
  }

  /// Checks a move of `id` next to or under `destination`: both exist, differ, and
  /// `destination` is not inside `id`'s subtree.
  @inlinable
  func _validateMove(_ id: Item.ID, relativeTo destination: Item.ID) throws(Failure) {
    if !_itemRecords.contains(id) || !_itemRecords.contains(destination) { try _requireItems([id, destination]) }
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
    for id in ids { _markReloaded(id) }
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
    if items.count == 1 { return try updateItem(items[0]) }
    try _validateExistingItems(items.map(\.id))
    for item in items {
      let hash = Self._hash(item.id)
      let record = _itemRecords.uniqueEntry(item.id, hash: hash)!
      record.pointee.value = item
      _markUpdated(record, item.id, hash: hash)
    }
    _checkInvariants()
  }

  /// Content update of one existing item; see ``updateItems(_:)``.
  @inlinable
  public mutating func updateItem(_ item: Item) throws(Failure) {
    // One descent: the record is updated where it is found; nothing changes when it is not.
    // (Not through `_updateItem(_:)`: copying out the old value is a call per field of the
    // item in unspecialized code.)
    let hash = Self._hash(item.id)
    guard let record = _itemRecords.uniqueEntry(item.id, hash: hash) else { throw .itemsNotFound([item.id]) }
    record.pointee.value = item
    _markUpdated(record, item.id, hash: hash)
    _checkInvariants()
  }

  /// ``updateItem(_:)`` that returns the item's previous value (what a history records), read
  /// in the same descent — a lookup before the update cost a second one.
  ///
  /// - Complexity: O(log n).
  @inlinable
  package mutating func _updateItem(_ item: Item) throws(Failure) -> Item {
    let hash = Self._hash(item.id)
    guard let record = _itemRecords.uniqueEntry(item.id, hash: hash) else { throw .itemsNotFound([item.id]) }
    let old = record.pointee.value
    record.pointee.value = item
    _markUpdated(record, item.id, hash: hash)
    _checkInvariants()
    return old
  }

  /// Marks the item of `record` (whose content just changed) reloaded: the marker set is
  /// touched only for an item not stamped in this epoch yet.
  @_transparent
  @usableFromInline
  mutating func _markUpdated(_ record: UnsafeMutablePointer<ItemRecord>, _ id: Item.ID, hash: UInt64) {
    if Self._stamp(&record.pointee, _markerEpoch) { _reloadedItems.insert(id, hash: hash) }
  }

  /// Whether the reloaded set may hold the item of `record`: it does when the record carries
  /// the current stamp; with stamps off (epoch 0), only the set knows.
  @_transparent
  @usableFromInline
  static func _isStamped(_ record: ItemRecord, _ epoch: UInt64) -> Bool {
    epoch == 0 || record.reloadStamp == epoch
  }

  /// Stamps `record` as marked in `epoch`; returns whether its item must be added to the
  /// reloaded set (false when it already carries the stamp).
  @_transparent
  @usableFromInline
  static func _stamp(_ record: inout ItemRecord, _ epoch: UInt64) -> Bool {
    guard epoch != 0 else { return true }
    if record.reloadStamp == epoch { return false }
    record.reloadStamp = epoch
    return true
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
    try _requireItem(id)
    if newItem.id == id {
      _itemRecords.modify(id) { $0.value = newItem }
      _markReloaded(id)
      _checkInvariants()
      return
    }
    if _itemRecords.contains(newItem.id) { throw .itemsAlreadyExist([newItem.id]) }
    var record = _itemRecords.removeValue(forKey: id)!
    if Self._isStamped(record, _markerEpoch) { _reloadedItems.remove(id) }
    record.value = newItem
    _ = Self._stamp(&record, _markerEpoch)
    let label = record.label
    _ = _withTree(of: record.container) { $0.replaceID(label: label, with: newItem.id) }
    record.children.forEach { _itemRecords.modify($0.id) { $0.container = .parent(newItem.id) } }
    _itemRecords.updateValue(record, forKey: newItem.id)
    _reconfiguredItems.remove(id)
    _reloadedItems.insert(newItem.id)
    _checkInvariants()
  }

  @inlinable
  func _validateExistingItems(_ ids: [Item.ID]) throws(Failure) {
    if ids.count == 1 {  // no duplicates
      if !_itemRecords.contains(ids[0]) { throw .itemsNotFound(ids) }
      return
    }
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems(ids)
  }
}
