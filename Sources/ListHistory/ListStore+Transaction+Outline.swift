import ListState

extension ListStore.Transaction {
  // The old flags are read before the model operation: a copy of the snapshot kept across it
  // would make the working storage shared, and the operation would copy its paths.

  // An item already expanded (collapsed) records nothing: an operation that leaves the state as
  // it was records no event, so a transaction of only such operations creates no version.

  @inlinable
  public mutating func expand(_ ids: [Item.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Expand", _events.count - _mark), since: _mark) }
    if ids.count == 1 {
      // One item: the model reports its previous flag from the descent that sets it.
      guard let was = _snapshot._setExpandedReporting(ids[0], true) else { return try _snapshot.expand(ids) }
      snapshot._checkInvariants()
      if !was { record(.expand(ids[0], wasExpanded: was)) }
      return
    }
    let was = expansionFlags(ids, repeatedAs: true)
    try _snapshot.expand(ids)
    for (id, flag) in zip(ids, was) where !flag { record(.expand(id, wasExpanded: flag)) }
  }

  @inlinable
  public mutating func collapse(_ ids: [Item.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Collapse", _events.count - _mark), since: _mark) }
    if ids.count == 1 {
      guard let was = _snapshot._setExpandedReporting(ids[0], false) else { return try _snapshot.collapse(ids) }
      snapshot._checkInvariants()
      if was { record(.collapse(ids[0], wasExpanded: was)) }
      return
    }
    let was = expansionFlags(ids, repeatedAs: false)
    try _snapshot.collapse(ids)
    for (id, flag) in zip(ids, was) where flag { record(.collapse(id, wasExpanded: flag)) }
  }

  /// Each item's expansion flag just before its own step of an expand/collapse of `ids`: a
  /// repeated identifier finds what its first occurrence left (`repeated`).
  @inlinable
  func expansionFlags(_ ids: [Item.ID], repeatedAs repeated: Bool) -> [Bool] {
    if ids.count == 1 { return [snapshot.isExpanded(ids[0])] }
    var seen = Set<Item.ID>()
    return ids.map { id in seen.insert(id).inserted ? snapshot.isExpanded(id) : repeated }
  }

  /// Replaces all children of `parent`; recorded as one delete per old child, then one insert.
  @inlinable
  public mutating func replace(childrenOf parent: Item.ID, using outline: Outline) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(.fixed("Replace Children"), since: _mark) }
    let old = snapshot.outline(of: parent)
    if let old, old == outline { return }  // the same children, contents and expansion: nothing changes
    try _snapshot.replace(childrenOf: parent, using: outline)
    let location = Location(.parent(parent), index: 0)
    for root in old?.roots ?? [] { record(.deleteItems(ListOutline([root]), from: location)) }
    if !outline.roots.isEmpty { record(.insertItems(outline, at: location)) }
  }

  @inlinable
  public mutating func insert(_ outline: Outline, beforeItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", outline.itemIdentifiers.count), since: _mark) }
    try _snapshot.insert(outline, beforeItem: anchor)
    recordInserted(outline)
  }

  @inlinable
  public mutating func insert(_ outline: Outline, afterItem anchor: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", outline.itemIdentifiers.count), since: _mark) }
    try _snapshot.insert(outline, afterItem: anchor)
    recordInserted(outline)
  }

  @inlinable
  public mutating func append(_ outline: Outline, toSection section: Section.ID? = nil) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Append", outline.itemIdentifiers.count), since: _mark) }
    try _snapshot.append(outline, toSection: section)
    recordInserted(outline)
  }

  @inlinable
  public mutating func append(_ outline: Outline, underParent parent: Item.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Append", outline.itemIdentifiers.count), since: _mark) }
    try _snapshot.append(outline, underParent: parent)
    recordInserted(outline)
  }

  @inlinable
  public mutating func insert(_ outline: Outline, at location: Location) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", outline.itemIdentifiers.count), since: _mark) }
    try _snapshot.insert(outline, at: location)
    recordInserted(outline)
  }
}
