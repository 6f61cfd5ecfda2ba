// Validation order, as for items: duplicates in the outline → unknown anchor, parent or section →
// index range → anchor or parent among the outline's items → items that already exist.
extension ListSnapshot {
  /// Expands items (leaves keep the flag too, and show their children once they get some).
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k · depth · log n).
  @inlinable
  public mutating func expand(_ ids: [Item.ID]) throws(Failure) {
    try _setExpanded(ids, true)
  }

  /// Collapses items.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(k · depth · log n).
  @inlinable
  public mutating func collapse(_ ids: [Item.ID]) throws(Failure) {
    try _setExpanded(ids, false)
  }

  @inlinable
  mutating func _setExpanded(_ ids: [Item.ID], _ expanded: Bool) throws(Failure) {
    if ids.count == 1 {
      guard _setExpandedIfPresent(ids[0], expanded) else { throw .itemsNotFound(ids) }
      _checkInvariants()
      return
    }
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems(ids)
    for id in ids { _setExpandedIfPresent(id, expanded) }
    _checkInvariants()
  }

  /// Sets the flag of an item and moves its children's rows in or out of the visible weights
  /// of its entry and its ancestors'. Returns false (changing nothing) when the item is unknown.
  @inlinable
  @discardableResult
  mutating func _setExpandedIfPresent(_ id: Item.ID, _ expanded: Bool) -> Bool {
    _setExpandedReporting(id, expanded) != nil
  }

  /// Like ``_setExpandedIfPresent(_:_:)``; returns the item's flag before (what a history
  /// records), nil when the item is unknown. One descent: asking ``isExpanded(_:)`` first cost
  /// another lookup. The caller checks the invariants.
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  @discardableResult
  package mutating func _setExpandedReporting(_ id: Item.ID, _ expanded: Bool) -> Bool? {
    // One descent finds the record (its path made unique) and flips the flag; its label and
    // container say where its entry is.
    guard let record = _itemRecords.uniqueEntry(id, hash: Self._hash(id)) else { return nil }
    guard record.pointee.isExpanded != expanded else { return expanded }  // already so
    record.pointee.isExpanded = expanded
    let hidden = record.pointee.children.w2
    if hidden != 0 {
      _adjustEntry(label: record.pointee.label, in: record.pointee.container, w1: 0, w2: expanded ? hidden : -hidden)
    }
    return !expanded
  }

  /// Replaces all children of `parent` (their subtrees are deleted) with `outline`. Items of the
  /// old children's subtrees may reappear in `outline` (a rebuilt outline): they are new items
  /// then, with the outline's expansion flags.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([parent])`, `.anchorAmongInsertedItems(parent)`,
  ///   `.itemsAlreadyExist` (items outside `parent`'s subtree).
  /// - Complexity: O(k_old + k_new · log n + depth · log n).
  @inlinable
  public mutating func replace(childrenOf parent: Item.ID, using outline: Outline) throws(Failure) {
    let ids = outline.itemIdentifiers
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateItems(duplicates) }
    try _requireItems([parent])
    if ids.contains(parent) { throw .anchorAmongInsertedItems(parent) }
    let existing = Self._unique(ids.filter { _itemRecords.contains($0) && !_isDescendant($0, of: parent) })
    if !existing.isEmpty { throw .itemsAlreadyExist(existing) }

    let old = _itemRecords[parent]!
    old.children.forEach { _removeRecords(ofSubtree: $0.id) }
    var newRecords = NewRecords()
    let children = Self._buildChildren(outline.roots, parent: parent, into: &newRecords)
    _itemRecords.modify(parent) { $0.children = children }
    _insertNewRecords(consume newRecords)
    _adjustEntry(
      of: parent, w1: children.w1 - old.children.w1,
      w2: old.isExpanded ? children.w2 - old.children.w2 : 0)
    _checkInvariants()
  }

  /// Inserts a whole sub-outline as siblings before `anchor`.
  ///
  /// ```swift
  /// try snapshot.insert(ListOutline([.init("Citrus", isExpanded: true, children: [.init("Lime")])]),
  ///                     beforeItem: "Pear")
  /// ```
  /// - Throws: `.duplicateItems`, `.itemsNotFound([anchor])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n) for k nodes.
  @inlinable
  public mutating func insert(_ outline: Outline, beforeItem anchor: Item.ID) throws(Failure) {
    let ids = outline.itemIdentifiers
    try _validateNewItems(ids, anchor: anchor)
    let location = location(ofItem: anchor)!
    _insertNewOutline(outline.roots, in: location.container, at: location.index)
    _checkInvariants()
  }

  /// Inserts a whole sub-outline as siblings after `anchor`.
  ///
  /// - Throws: as ``insert(_:beforeItem:)``.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insert(_ outline: Outline, afterItem anchor: Item.ID) throws(Failure) {
    let ids = outline.itemIdentifiers
    try _validateNewItems(ids, anchor: anchor)
    let location = location(ofItem: anchor)!
    _insertNewOutline(outline.roots, in: location.container, at: location.index + 1)
    _checkInvariants()
  }

  /// Appends a whole sub-outline as root items of `section` (default: the last section).
  ///
  /// - Throws: `.duplicateItems`, `.noSections`, `.sectionsNotFound`, `.itemsAlreadyExist`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func append(_ outline: Outline, toSection section: Section.ID? = nil) throws(Failure) {
    let ids = outline.itemIdentifiers
    try _validateNewItems(ids) { () throws(Failure) in _ = try _resolveAppendSection(section) }
    let target = try _resolveAppendSection(section)
    _insertNewOutline(outline.roots, in: .section(target), at: _count(of: .section(target))!)
    _checkInvariants()
  }

  /// Appends a whole sub-outline as the last children of `parent`.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound([parent])`, `.anchorAmongInsertedItems`,
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func append(_ outline: Outline, underParent parent: Item.ID) throws(Failure) {
    let ids = outline.itemIdentifiers
    try _validateNewItems(ids, anchor: parent)
    _insertNewOutline(outline.roots, in: .parent(parent), at: _count(of: .parent(parent))!)
    _checkInvariants()
  }

  /// Positional insert of a sub-outline: its first root lands at `location` (index in
  /// `0...count` of the container's children).
  ///
  /// - Throws: `.duplicateItems`, `.sectionsNotFound`/`.itemsNotFound` (container),
  ///   `.indexOutOfRange`, `.anchorAmongInsertedItems` (parent inside the outline),
  ///   `.itemsAlreadyExist`.
  /// - Complexity: O(k log n + depth · log n).
  @inlinable
  public mutating func insert(_ outline: Outline, at location: Location) throws(Failure) {
    if outline.roots.count == 1, outline.roots[0].children.isEmpty {
      // One leaf (what replaying an insert event usually is): the same checks in the same
      // order without the identifier array.
      // (Fields read in place: copying the node costs a generic value-witness call.)
      let containerHash = Self._hash(location.container)
      guard let count = _count(of: location.container, hash: containerHash) else {
        try _requireContainer(location.container)
        preconditionFailure("unreachable: the container was missing")
      }
      guard location.index >= 0, location.index <= count else {
        throw .indexOutOfRange(index: location.index, count: count)
      }
      let id = outline.roots[0].item.id
      if case .parent(let parent) = location.container, parent == id {
        throw .anchorAmongInsertedItems(parent)
      }
      // The existence check is the insertion's own descent.
      guard
        _insertNewItemIfAbsent(
          outline.roots[0].item, hash: Self._hash(id), isExpanded: outline.roots[0].isExpanded,
          in: location.container, containerHash: containerHash, at: location.index)
      else { throw .itemsAlreadyExist([id]) }
      _checkInvariants()
      return
    }
    let ids = outline.itemIdentifiers
    try _validateNewItems(ids) { () throws(Failure) in
      try _requireContainer(location.container)
      let count = _tree(of: location.container)!.count
      guard location.index >= 0, location.index <= count else {
        throw .indexOutOfRange(index: location.index, count: count)
      }
      if case .parent(let parent) = location.container, ids.contains(parent) {
        throw .anchorAmongInsertedItems(parent)
      }
    }
    _insertNewOutline(outline.roots, in: location.container, at: location.index)
    _checkInvariants()
  }
}
