import ListState

// Each operation runs the model's own operation (so validation and errors are exactly the
// model's) and derives exact positions from O(log n) queries before and after it.
extension ListStore.Transaction {
  @inlinable
  public mutating func appendItems(_ items: [Item], toSection section: Section.ID? = nil) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Append", items.count), since: _mark) }
    recordInserted(items, at: try _snapshot._appendItems(items, toSection: section))
  }

  @inlinable
  public mutating func appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Append", items.count), since: _mark) }
    recordInserted(items, at: try _snapshot._appendItems(items, underParent: parent))
  }

  @inlinable
  public mutating func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", items.count), since: _mark) }
    recordInserted(items, at: try _snapshot._insertItems(items, nextTo: anchor, after: false))
  }

  @inlinable
  public mutating func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", items.count), since: _mark) }
    recordInserted(items, at: try _snapshot._insertItems(items, nextTo: anchor, after: true))
  }

  /// Records inserted leaves at the location the model reported for the first one.
  @inlinable
  mutating func recordInserted(_ items: [Item], at location: Location) {
    guard !items.isEmpty else { return }
    record(.insertItems(ListOutline(items: items), at: location))
  }

  @inlinable
  mutating func recordInserted(_ outline: Outline) {
    guard let first = outline.roots.first else { return }
    record(.insertItems(outline, at: placed(first.item.id)))
  }

  /// Deletes items with their subtrees; recorded as one event per deleted root, in order.
  ///
  /// - Complexity: O(k log n + deleted subtrees).
  @inlinable
  public mutating func deleteItems(_ ids: [Item.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Delete", ids.count), since: _mark) }
    if ids.count == 1 {
      // One item: the model's delete is all-or-nothing, so no scratch copy (which would make
      // the working snapshot's nodes shared and the delete copy its whole path); it reports
      // the location and sub-outline from the record it takes out.
      guard let (location, outline) = _snapshot._deleteItemReporting(ids[0]) else {
        try _snapshot.deleteItems(ids)  // throws the model's error naming the identifier
        preconditionFailure("ListSnapshot deleted unknown item \(ids[0])")
      }
      record(.deleteItems(outline, from: location))
      return
    }
    var scratch = snapshot
    var recorded: [Event] = []
    recorded.reserveCapacity(ids.count)
    // Duplicates or ids that vanish with an earlier subtree: let the model decide (and name the error).
    var needsModelValidation = ids.count > 1 && Set(ids).count != ids.count
    for id in ids {
      guard let location = scratch.location(ofItem: id), let outline = scratch.outline(of: id, includingParent: true)
      else {
        needsModelValidation = true
        continue
      }
      try scratch.deleteItems([id])
      recorded.append(.deleteItems(outline, from: location))
    }
    if needsModelValidation {
      var check = snapshot
      try check.deleteItems(ids)
    }
    _snapshot = scratch
    _events.append(contentsOf: recorded)
  }

  /// Like ``deleteItems(_:)`` but skips unknown identifiers.
  @inlinable
  public mutating func deleteItemsIfPresent(_ ids: [Item.ID]) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Delete", _events.count - _mark), since: _mark) }
    for id in ids {
      guard let location = snapshot.location(ofItem: id), let outline = snapshot.outline(of: id, includingParent: true)
      else { continue }
      _snapshot.deleteItemsIfPresent([id])
      record(.deleteItems(outline, from: location))
    }
  }

  /// Deletes every item and section; recorded as one `deleteSection` per section (each at 0).
  @inlinable
  public mutating func deleteAllItems() {
    let _mark = _events.count
    defer { _noteLabel(.fixed("Delete All"), since: _mark) }
    for section in snapshot.sections {
      let outline = snapshot.outline(ofSection: section.id) ?? ListOutline()
      record(.deleteSection(section, items: outline, at: 0))
    }
    _snapshot.deleteAllItems()
  }

  @inlinable
  public mutating func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move"), since: _mark) }
    try moveItem(id, nextTo: anchor, after: false)
  }

  @inlinable
  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move"), since: _mark) }
    try moveItem(id, nextTo: anchor, after: true)
  }

  /// The model's move reports both locations itself (no lookups before and after it).
  @inlinable
  mutating func moveItem(_ id: Item.ID, nextTo anchor: Item.ID, after: Bool) throws(Failure) {
    guard let (from, to) = try _snapshot._moveItem(id, nextTo: anchor, after: after, reportingMove: true) else {
      preconditionFailure("ListSnapshot moved item \(id) without reporting where")
    }
    snapshot._checkInvariants()
    if from != to { record(.moveItem(id, from: from, to: to)) }
  }

  @inlinable
  public mutating func moveItem(_ id: Item.ID, toSection section: Section.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move"), since: _mark) }
    let from = snapshot.location(ofItem: id)
    try _snapshot.moveItem(id, toSection: section)
    recordMove(id, from: from)
  }

  @inlinable
  public mutating func moveItem(_ id: Item.ID, underParent parent: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move"), since: _mark) }
    let from = snapshot.location(ofItem: id)
    try _snapshot.moveItem(id, underParent: parent)
    recordMove(id, from: from)
  }

  @inlinable
  public mutating func moveItem(_ id: Item.ID, to location: Location) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move"), since: _mark) }
    let from = snapshot.location(ofItem: id)
    try _snapshot.moveItem(id, to: location)
    recordMove(id, from: from)
  }

  @inlinable
  mutating func recordMove(_ id: Item.ID, from: Location?) {
    guard let from else { preconditionFailure("ListSnapshot moved unknown item \(id)") }
    let to = placed(id)
    if from != to { record(.moveItem(id, from: from, to: to)) }
  }

  /// What a drag does (see ``ListSnapshot/moveVisibleRow(from:to:)``); recorded as a move.
  @inlinable
  @discardableResult
  public mutating func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure)
    -> ListTransaction<Section, Item>
  {
    let _mark = _events.count
    defer { _noteLabel(.fixed("Reorder"), since: _mark) }
    let id = snapshot.visibleItem(at: source)
    let from = id.flatMap { snapshot.location(ofItem: $0) }
    let result = try _snapshot.moveVisibleRow(from: source, to: destination)
    if let id { recordMove(id, from: from) }
    return result
  }

  @inlinable
  public mutating func reloadItems(_ ids: [Item.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Reload", ids.count), since: _mark) }
    try _snapshot.reloadItems(ids)
    if !ids.isEmpty { record(.reloadItems(ids)) }
  }

  @inlinable
  public mutating func reconfigureItems(_ ids: [Item.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Reconfigure", ids.count), since: _mark) }
    try _snapshot.reconfigureItems(ids)
    if !ids.isEmpty { record(.reconfigureItems(ids)) }
  }

  @inlinable
  public mutating func updateItems(_ items: [Item]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Edit", items.count), since: _mark) }
    // The old contents are read first: a copy of the snapshot kept across the model operation
    // would make the working storage shared, and the operation would copy its paths.
    let olds = items.map { snapshot.item($0.id) }
    // Every content already as given: nothing changes, so nothing is marked or recorded.
    if zip(items, olds).allSatisfy({ $0 == $1 }), Set(items.map(\.id)).count == items.count { return }
    try _snapshot.updateItems(items)
    var latest: [Item.ID: Item] = [:]
    for (item, old) in zip(items, olds) {
      guard let old = latest[item.id] ?? old else { continue }
      if items.count > 1 { latest[item.id] = item }
      record(.updateItem(old: old, new: item))
    }
  }

  @inlinable
  public mutating func updateItem(_ item: Item) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Edit"), since: _mark) }
    if snapshot.item(item.id) == item { return }  // the same content: nothing changes
    let old = try _snapshot._updateItem(item)
    record(.updateItem(old: old, new: item))
  }

  @inlinable
  public mutating func replaceItem(_ id: Item.ID, with newItem: Item) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Replace"), since: _mark) }
    let old = snapshot.item(id)
    if let old, old == newItem, newItem.id == id { return }  // the same item and content: nothing changes
    try _snapshot.replaceItem(id, with: newItem)
    if let old { record(.replaceItem(old: old, new: newItem)) }
  }
}
