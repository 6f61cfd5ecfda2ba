// Storage primitives shared by the operations: container access, weight propagation, placing
// and removing entries, building records for new items. None of them validates its input: the
// public operations validate everything first, then call these.
//
// Section-of strategy: only root items store their section (`container == .section(id)`); a
// nested item stores its parent and finds its section by walking up, O(depth). Moving a subtree
// between sections therefore rewrites one record (the moved root), never the k records below it.
//
// Cost discipline: reads go through `peek` (the record in place, no copy of its fields), and a
// mutation touches each record once: the owner of a sibling sequence is changed in the same
// `modify` that hands back what the next step up needs (`_Owner`), so propagating a weight
// change costs one descent of the record map per level.

/// Who owns a sibling sequence, with what propagating a change of its totals needs: the
/// section's label in the section order, or the parent item's label, container and expansion.
@usableFromInline
enum _Owner<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable> {
  case section(label: UInt64)
  case item(label: UInt64, container: ListItemContainer<SectionID, ItemID>, isExpanded: Bool)
}

extension ListSnapshot {
  @usableFromInline
  typealias Owner = _Owner<Section.ID, Item.ID>
  @usableFromInline
  typealias ItemMap = _HashTree<Item.ID, ItemRecord>
  @usableFromInline
  typealias SectionMap = _HashTree<Section.ID, SectionRecord>
  @usableFromInline
  typealias NewRecords = _NewRecords<Item.ID, ItemRecord>

  /// The hash the record maps order an item by; computed once per operation and passed to
  /// every lookup of the same item (hashing a `String` costs more than a descent).
  @inlinable
  @inline(__always)
  static func _hash(_ id: Item.ID) -> UInt64 { _HashOrder.hash(id) }

  /// The hash of the key of `container`'s owner when it is a parent item; nil for a section
  /// (the section map hashes only when it is too large to search by comparing identifiers).
  @inlinable
  @inline(__always)
  static func _hash(_ container: Container) -> UInt64? {
    switch container {
    case .section: return nil
    case .parent(let parent): return _HashOrder.hash(parent)
    }
  }

  // MARK: - Reading

  /// The sibling sequence of `container`; nil when the section or parent is unknown.
  @inlinable
  func _tree(of container: Container) -> ItemTree? {
    // (Records reached by address here and below: a closure passed to the map is a call, and
    // a function of its own that looks up the record type's metadata, in unspecialized code.)
    switch container {
    case .section(let section): return _sectionRecords.find(section, hash: nil)?.pointee.roots
    case .parent(let parent): return _itemRecords.find(parent, hash: Self._hash(parent))?.pointee.children
    }
  }

  /// The number of entries in `container`'s sibling sequence; nil when it is unknown.
  @inlinable
  func _count(of container: Container) -> Int? { _count(of: container, hash: Self._hash(container)) }

  /// Like ``_count(of:)`` with the owner's hash (``_hash(_:)``) already computed.
  @inlinable
  func _count(of container: Container, hash: UInt64?) -> Int? {
    switch container {
    case .section(let section): return _sectionRecords.find(section, hash: hash)?.pointee.roots.count
    case .parent(let parent): return _itemRecords.find(parent, hash: hash)?.pointee.children.count
    }
  }

  /// The container of an item; nil when unknown.
  @inlinable
  func _container(of id: Item.ID) -> Container? { _itemRecords.find(id, hash: Self._hash(id))?.pointee.container }

  /// The section an existing item is in: walks up to its root.
  ///
  /// - Complexity: O(depth).
  @inlinable
  func _sectionOfItem(_ id: Item.ID) -> Section.ID? {
    var next: Item.ID
    switch _itemRecords.find(id, hash: Self._hash(id))?.pointee.container {
    case nil: return nil
    case .section(let section)?: return section
    case .parent(let parent)?: next = parent
    }
    while true {
      switch _itemRecords.find(next, hash: Self._hash(next))!.pointee.container {
      case .section(let section): return section
      case .parent(let parent): next = parent
      }
    }
  }

  /// Whether `candidate` is a strict descendant of `ancestor`.
  ///
  /// - Complexity: O(depth of `candidate`).
  @inlinable
  func _isDescendant(_ candidate: Item.ID, of ancestor: Item.ID) -> Bool {
    guard var container = _container(of: candidate) else { return false }
    while case .parent(let parent) = container {
      if parent == ancestor { return true }
      container = _container(of: parent)!
    }
    return false
  }

  /// Appends the pre-order identifiers of the forest `tree` (all items, or only visible rows).
  @inlinable
  func _appendPreorder(of tree: ItemTree, visibleOnly: Bool, into result: inout [Item.ID]) {
    tree.forEach { entry in
      result.append(entry.id)
      // An entry with weight > 1 has (visible) descendants; leaves need no lookup.
      if (visibleOnly ? entry.w2 : entry.w1) > 1 {
        _appendPreorder(of: _itemRecords.peek(entry.id) { $0.children }!, visibleOnly: visibleOnly, into: &result)
      }
    }
  }

  /// The nested outline value of the forest `tree`.
  @inlinable
  func _outlineNodes(of tree: ItemTree) -> [Outline.Node] {
    var nodes: [Outline.Node] = []
    nodes.reserveCapacity(tree.count)
    tree.forEach { entry in
      let (value, isExpanded, children) = _itemRecords.peek(entry.id) { ($0.value, $0.isExpanded, $0.children) }!
      nodes.append(Outline.Node(value, isExpanded: isExpanded, children: entry.w1 > 1 ? _outlineNodes(of: children) : []))
    }
    return nodes
  }

  /// The number of root items of `section`; nil when the section is unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  package func _rootItemCount(inSection section: Section.ID) -> Int? {
    _sectionRecords.peek(section) { $0.roots.count }
  }

  /// Calls `body` with every item of `section` in pre-order, with its expansion flag and number
  /// of children, without building an outline value (one record lookup per item, no node
  /// arrays); false when the section is unknown. What a serializer that writes an outline in
  /// pre-order needs (the history codec's checkpoints).
  ///
  /// `depth` is 0 for the section's roots; `body` may throw to stop the walk (say, past a
  /// nesting limit) before it descends further.
  ///
  /// ```swift
  /// _ = snapshot._forEachPreorderItem(ofSection: "Inbox") { item, isExpanded, childCount, depth in
  ///     print(String(repeating: " ", count: depth), item.id, childCount)
  /// }
  /// ```
  /// - Complexity: O(k log n) for k items in the section.
  @inlinable
  package func _forEachPreorderItem(
    ofSection section: Section.ID, _ body: (_ item: Item, _ isExpanded: Bool, _ childCount: Int, _ depth: Int) throws -> Void
  ) rethrows -> Bool {
    guard let roots = _sectionRecords.peek(section, { $0.roots }) else { return false }
    try _forEachPreorderItem(of: roots, depth: 0, body)
    return true
  }

  @inlinable
  func _forEachPreorderItem(
    of tree: ItemTree, depth: Int, _ body: (_ item: Item, _ isExpanded: Bool, _ childCount: Int, _ depth: Int) throws -> Void
  ) rethrows {
    try tree.forEach { entry in
      let (value, isExpanded, children) = _itemRecords.peek(entry.id) { ($0.value, $0.isExpanded, $0.children) }!
      // An entry with weight 1 is a leaf: no children to count or visit.
      let hasChildren = entry.w1 > 1
      try body(value, isExpanded, hasChildren ? children.count : 0, depth)
      if hasChildren { try _forEachPreorderItem(of: children, depth: depth + 1, body) }
    }
  }

  /// The index and prefix weights of the entry with `label` in an existing `container`.
  @_transparent
  @usableFromInline
  func _rank(ofLabel label: UInt64, in container: Container) -> (index: Int, w1: Int, w2: Int) {
    switch container {
    case .section(let section): return _sectionRecords.find(section, hash: nil)!.pointee.roots.rank(ofLabel: label)!
    case .parent(let parent): return _itemRecords.find(parent, hash: Self._hash(parent))!.pointee.children.rank(ofLabel: label)!
    }
  }

  // MARK: - Writing

  /// Calls `body` with the sibling sequence of an existing `container`, in place; returns its
  /// result and the sequence's owner (for ``_propagate(_:w1:w2:)``).
  @inlinable
  mutating func _withTree<R>(of container: Container, _ body: (inout ItemTree) -> R) -> (R, Owner) {
    _withTree(of: container, hash: Self._hash(container), body)
  }

  /// Like ``_withTree(of:_:)`` with the owner's hash (``_hash(_:)``) already computed.
  @inlinable
  mutating func _withTree<R>(of container: Container, hash: UInt64?, _ body: (inout ItemTree) -> R) -> (R, Owner) {
    switch container {
    case .section(let section):
      return _sectionRecords.modify(section, hash: hash) { record in (body(&record.roots), .section(label: record.label)) }
    case .parent(let parent):
      return _itemRecords.modify(parent, hash: hash) { record in
        (body(&record.children), .item(label: record.label, container: record.container, isExpanded: record.isExpanded))
      }
    }
  }

  /// The contents owned by `owner` grew by `w1` items and `w2` visible rows (negative:
  /// shrank): updates the weights of its entry and of every ancestor's up to the section's.
  ///
  /// - Complexity: O(depth · log n).
  @_transparent
  @usableFromInline
  mutating func _propagate(_ owner: Owner, w1: Int, w2: Int) {
    var owner = owner
    var w2 = w2
    while true {
      switch owner {
      case .section(let label):
        if w1 != 0 || w2 != 0 { _sectionOrder.adjustWeights(label: label, w1: w1, w2: w2) }
        return
      case .item(let label, let container, let isExpanded):
        if !isExpanded { w2 = 0 }
        if w1 == 0 && w2 == 0 { return }
        switch container {
        case .section(let section):
          let record = _sectionRecords.uniqueEntry(section, hash: nil)!
          record.pointee.roots.adjustWeights(label: label, w1: w1, w2: w2)
          owner = .section(label: record.pointee.label)
        case .parent(let parent):
          let record = _itemRecords.uniqueEntry(parent, hash: Self._hash(parent))!
          record.pointee.children.adjustWeights(label: label, w1: w1, w2: w2)
          owner = .item(label: record.pointee.label, container: record.pointee.container, isExpanded: record.pointee.isExpanded)
        }
      }
    }
  }

  /// The contents of `container` grew by `w1` items and `w2` visible rows (negative: shrank).
  @inlinable
  mutating func _propagate(changeIn container: Container, w1: Int, w2: Int) {
    guard w1 != 0 || w2 != 0 else { return }
    let owner: Owner
    switch container {
    case .section(let section): owner = .section(label: _sectionRecords.peek(section) { $0.label }!)
    case .parent(let parent):
      owner = _itemRecords.peek(parent) {
        .item(label: $0.label, container: $0.container, isExpanded: $0.isExpanded)
      }!
    }
    _propagate(owner, w1: w1, w2: w2)
  }

  /// Gives relabeled items their new labels.
  @inlinable
  mutating func _applyRelabels(_ relabeled: [(Item.ID, UInt64)]) {
    for (id, label) in relabeled { _itemRecords.uniqueEntry(id, hash: Self._hash(id))!.pointee.label = label }
  }

  /// Inserts one entry (its label assigned here) into `container` at `index`, updates the labels
  /// of any relabeled siblings' records and the ancestors' weights. The caller creates or
  /// updates the entry's record with the returned label.
  ///
  /// - Complexity: O(log n + depth · log n), plus amortised relabeling.
  @_transparent
  @usableFromInline
  mutating func _placeEntry(
    _ id: Item.ID, w1: Int, w2: Int, in container: Container, hash: UInt64?, at index: Int
  ) -> UInt64 {
    var relabeled: [(Item.ID, UInt64)] = []
    let label: UInt64
    let owner: Owner
    switch container {
    case .section(let section):
      let record = _sectionRecords.uniqueEntry(section, hash: hash)!
      label = record.pointee.roots.insert(id, w1: w1, w2: w2, at: index, relabeled: &relabeled)
      owner = .section(label: record.pointee.label)
    case .parent(let parent):
      let record = _itemRecords.uniqueEntry(parent, hash: hash)!
      label = record.pointee.children.insert(id, w1: w1, w2: w2, at: index, relabeled: &relabeled)
      owner = .item(label: record.pointee.label, container: record.pointee.container, isExpanded: record.pointee.isExpanded)
    }
    if !relabeled.isEmpty { _applyRelabels(relabeled) }
    _propagate(owner, w1: w1, w2: w2)
    return label
  }

  /// Inserts entries (labels assigned here) into `container` at `index`, updates the labels of
  /// any relabeled siblings' records and the ancestors' weights. The caller creates or updates
  /// the records of the new entries with the returned labels.
  ///
  /// - Complexity: O(k log n + depth · log n), plus amortised relabeling.
  @inlinable
  mutating func _placeEntries(_ entries: [ItemEntry], in container: Container, at index: Int) -> [UInt64] {
    if entries.count == 1 {
      return [
        _placeEntry(
          entries[0].id, w1: entries[0].w1, w2: entries[0].w2, in: container, hash: Self._hash(container), at: index)
      ]
    }
    var relabeled: [(Item.ID, UInt64)] = []
    let (labels, owner) = _withTree(of: container) { $0.insert(contentsOf: entries, at: index, relabeled: &relabeled) }
    if !relabeled.isEmpty { _applyRelabels(relabeled) }
    var w1 = 0
    var w2 = 0
    for entry in entries {
      w1 += entry.w1
      w2 += entry.w2
    }
    _propagate(owner, w1: w1, w2: w2)
    return labels
  }

  /// Inserts sections (no items yet) at `index` of the section order.
  @inlinable
  mutating func _placeNewSections(_ sections: [Section], at index: Int) {
    if sections.count == 1 {
      // One section (the common append): no entry or label arrays.
      let id = sections[0].id
      var relabeled: [(Section.ID, UInt64)] = []
      let label = _sectionOrder.insert(id, w1: 0, w2: 0, at: index, relabeled: &relabeled)
      for (id, label) in relabeled { _sectionRecords.uniqueEntry(id, hash: nil)!.pointee.label = label }
      _sectionRecords.insertAbsent(id, hash: _HashOrder.hash(id)).initialize(
        to: SectionRecord(value: sections[0], label: label, roots: ItemTree()))
      return
    }
    let entries = sections.map { _OrderedEntry(id: $0.id, w1: 0, w2: 0) }
    var relabeled: [(Section.ID, UInt64)] = []
    let labels = _sectionOrder.insert(contentsOf: entries, at: index, relabeled: &relabeled)
    for (id, label) in relabeled { _sectionRecords.modify(id) { $0.label = label } }
    for (section, label) in zip(sections, labels) {
      _sectionRecords.updateValue(SectionRecord(value: section, label: label, roots: ItemTree()), forKey: section.id)
    }
  }

  /// Takes an existing item (with its subtree) with `label` out of `container`; its records
  /// stay.
  ///
  /// - Returns: Its entry (with its weights).
  /// - Complexity: O(depth · log n).
  @_transparent
  @usableFromInline
  mutating func _detachItem(label: UInt64, from container: Container) -> ItemEntry {
    let entry: ItemEntry
    let owner: Owner
    switch container {
    case .section(let section):
      let record = _sectionRecords.uniqueEntry(section, hash: nil)!
      entry = record.pointee.roots.remove(label: label)!
      owner = .section(label: record.pointee.label)
    case .parent(let parent):
      let record = _itemRecords.uniqueEntry(parent, hash: Self._hash(parent))!
      entry = record.pointee.children.remove(label: label)!
      owner = .item(label: record.pointee.label, container: record.pointee.container, isExpanded: record.pointee.isExpanded)
    }
    _propagate(owner, w1: -entry.w1, w2: -entry.w2)
    return entry
  }

  /// Takes an existing item (with its subtree) out of its container; its records stay.
  @inlinable
  mutating func _detachItem(_ id: Item.ID) -> ItemEntry {
    let record = _itemRecords.find(id, hash: Self._hash(id))!
    return _detachItem(label: record.pointee.label, from: record.pointee.container)
  }

  /// Puts a detached item (whose record still exists) into `container` at `index`.
  ///
  /// - Complexity: O(depth · log n), plus amortised relabeling.
  @inlinable
  mutating func _attachItem(_ entry: ItemEntry, in container: Container, at index: Int) {
    _attachItem(entry, hash: Self._hash(entry.id), in: container, containerHash: Self._hash(container), at: index)
  }

  /// Like ``_attachItem(_:in:at:)`` with the item's and the container owner's hashes.
  @_transparent
  @usableFromInline
  mutating func _attachItem(
    _ entry: ItemEntry, hash: UInt64, in container: Container, containerHash: UInt64?, at index: Int
  ) {
    let label = _placeEntry(entry.id, w1: entry.w1, w2: entry.w2, in: container, hash: containerHash, at: index)
    let record = _itemRecords.uniqueEntry(entry.id, hash: hash)!
    record.pointee.label = label
    record.pointee.container = container
  }

  /// Removes the records and markers of `id` and all its descendants (the item must already be
  /// detached, or its container be discarded).
  ///
  /// - Complexity: O(k) for k removed items.
  @inlinable
  mutating func _removeRecords(ofSubtree id: Item.ID) {
    _removeRecords(ofSubtree: id, hash: Self._hash(id))
  }

  /// Like ``_removeRecords(ofSubtree:)`` with the item's hash already computed.
  @inlinable
  mutating func _removeRecords(ofSubtree id: Item.ID, hash: UInt64) {
    _dropRecords(ofSubtree: id, hash: hash, record: _itemRecords.takeValue(forKey: id, hash: hash)!)
  }

  /// Removes the markers of `id`, whose `record` was already taken out of the record map, and
  /// the records and markers of its descendants.
  ///
  /// - Complexity: O(k) for k removed items.
  @inlinable
  mutating func _dropRecords(ofSubtree id: Item.ID, hash: UInt64, record: ItemRecord) {
    let hasMarkers = !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty
    if hasMarkers {
      if Self._isStamped(record, _markerEpoch) { _reloadedItems.remove(id, hash: hash) }
      _reconfiguredItems.remove(id, hash: hash)
    }
    // A leaf (the common delete) needs no stack.
    guard !record.children.isEmpty else { return }
    var stack: [Item.ID] = []
    record.children.forEach { stack.append($0.id) }
    while let next = stack.popLast() {
      let nextHash = Self._hash(next)
      let record = _itemRecords.takeValue(forKey: next, hash: nextHash)!
      if !record.children.isEmpty { record.children.forEach { stack.append($0.id) } }
      if hasMarkers {
        if Self._isStamped(record, _markerEpoch) { _reloadedItems.remove(next, hash: nextHash) }
        _reconfiguredItems.remove(next, hash: nextHash)
      }
    }
  }

  /// Deletes an existing item with its subtree.
  @inlinable
  mutating func _deleteItem(_ id: Item.ID) {
    _ = _deleteItemIfPresent(id, hash: Self._hash(id))
  }

  /// Deletes the item with its subtree; false (and no observable change) when it is unknown.
  /// The record is taken out first, in the descent that finds it: its label and container say
  /// where its entry is, so the record map is descended once for the item.
  ///
  /// - Complexity: O(k + depth · log n) for k deleted items.
  @inlinable
  mutating func _deleteItemIfPresent(_ id: Item.ID, hash: UInt64) -> Bool {
    guard let record = _itemRecords.takeValue(forKey: id, hash: hash) else { return false }
    _ = _detachItem(label: record.label, from: record.container)
    _dropRecords(ofSubtree: id, hash: hash, record: record)
    return true
  }

  /// Deletes `id` with its subtree, like ``_deleteItemIfPresent(_:hash:)``, and returns where it
  /// was and the deleted sub-outline (with `id` as its root) — what a history records for the
  /// delete — from the record the deletion takes out anyway (``location(ofItem:)`` and
  /// ``outline(of:includingParent:)`` first cost two more lookups). Nil, and no change, when
  /// the item is unknown.
  ///
  /// - Complexity: O(k + depth · log n) for k deleted items.
  @inlinable
  package mutating func _deleteItemReporting(_ id: Item.ID) -> (location: Location, outline: Outline)? {
    let hash = Self._hash(id)
    guard let record = _itemRecords.takeValue(forKey: id, hash: hash) else { return nil }
    let location = Location(record.container, index: _rank(ofLabel: record.label, in: record.container).index)
    // The descendants' records are still there: the outline is read before they are dropped.
    let children = record.children.isEmpty ? [] : _outlineNodes(of: record.children)
    let outline = Outline([Outline.Node(record.value, isExpanded: record.isExpanded, children: children)])
    _ = _detachItem(label: record.label, from: record.container)
    _dropRecords(ofSubtree: id, hash: hash, record: record)
    _checkInvariants()
    return (location, outline)
  }

  /// Creates the record of a new leaf item and places it in `container` at `index`.
  ///
  /// - Complexity: O(log n + depth · log n).
  @inlinable
  mutating func _insertNewItem(_ item: Item, isExpanded: Bool, in container: Container, at index: Int) {
    _insertNewItem(
      item, hash: Self._hash(item.id), isExpanded: isExpanded, in: container, containerHash: Self._hash(container),
      at: index)
  }

  /// Like ``_insertNewItem(_:isExpanded:in:at:)`` with the item's and the container owner's
  /// hashes already computed.
  @_transparent
  @usableFromInline
  mutating func _insertNewItem(
    _ item: Item, hash: UInt64, isExpanded: Bool, in container: Container, containerHash: UInt64?, at index: Int
  ) {
    let label = _placeEntry(item.id, w1: 1, w2: 1, in: container, hash: containerHash, at: index)
    _itemRecords.insertIfAbsent(
      ItemRecord(value: item, label: label, children: ItemTree(), container: container, isExpanded: isExpanded),
      forKey: item.id, hash: hash)
  }

  /// Creates the record of a new leaf item and places it in an existing `container` at a valid
  /// `index`, unless an item with its identifier exists: then returns false and changes
  /// nothing observable. The record is inserted first, in the descent that checks for the
  /// identifier, and gets its label (known once the entry is placed) through its address.
  ///
  /// - Complexity: O(log n + depth · log n).
  @inlinable
  mutating func _insertNewItemIfAbsent(
    _ item: Item, hash: UInt64, isExpanded: Bool, in container: Container, containerHash: UInt64?, at index: Int
  ) -> Bool {
    guard
      let record = _itemRecords.insertIfAbsent(
        ItemRecord(value: item, label: 0, children: ItemTree(), container: container, isExpanded: isExpanded),
        forKey: item.id, hash: hash)
    else { return false }
    // Placing the entry changes other records only in place (owners' sequences, relabeled
    // siblings), which keeps `record` valid.
    record.pointee.label = _placeEntry(item.id, w1: 1, w2: 1, in: container, hash: containerHash, at: index)
    return true
  }

  /// Creates records for new leaf items (with identifiers `ids`, validated except for items
  /// that already exist: this checks that) and places them in `container` at `index`.
  /// `sortedHashes` (what ``_validateNewItems(_:anchor:checkingExisting:resolve:)`` returns:
  /// sorted by hash when the map is empty) may be passed when validation computed them.
  ///
  /// - Throws: `.itemsAlreadyExist`, with nothing changed.
  /// - Complexity: O(k log n); O(k) tree and map work when the list is empty (bulk build).
  @inlinable
  mutating func _insertNewItems(
    _ items: [Item], ids: [Item.ID], in container: Container, at index: Int,
    sortedHashes: [(hash: UInt64, index: Int)]? = nil
  ) throws(Failure) {
    guard !items.isEmpty else { return }
    if items.count == 1 {
      // (The validation checked a single identifier for all of it.)
      _insertNewItem(items[0], isExpanded: false, in: container, at: index)
      return
    }
    let k = ids.count
    // (Sorted when the map is empty: the validation sorts them then, see `_validateNewItems`.)
    let hashes = sortedHashes ?? ItemMap.hashes(of: ids, sorted: _itemRecords.isEmpty)
    if _itemRecords.count >= k * 4, let run = _labels(in: container, at: index, count: k) {
      // Into a larger list, with labels that need no relabelling (an append, as a list is
      // built): the records go in first, one top-down descent each that is also the check
      // for an existing item — a separate lookup per item cost as much again. An existing
      // one stops the batch; the records inserted before it are taken out again.
      var inserted = 0
      withUnsafePointer(to: container) { container in
        items.withUnsafeBufferPointer { items in
          let values = items.baseAddress!
          let offsets = ItemRecord.fieldOffsets
          while inserted < k {
            guard
              let value = ItemMap.insertIfAbsent(ids[inserted], hash: hashes[inserted].hash, in: &_itemRecords.root)
            else { return }
            ItemRecord.initialize(
              value, copying: values + inserted, label: run.first &+ run.step &* UInt64(inserted), container: container,
              offsets: offsets)
            inserted += 1
          }
        }
      }
      guard inserted == k else {
        var i = 0
        while i < inserted {
          _ = _itemRecords.takeValue(forKey: ids[i], hash: hashes[i].hash)
          i += 1
        }
        throw .itemsAlreadyExist(_existingItems(ids))
      }
      let owner: Owner
      switch container {
      case .section(let section):
        let record = _sectionRecords.uniqueEntry(section, hash: nil)!
        ids.withUnsafeBufferPointer { record.pointee.roots.insert(leaves: $0, labels: run) }
        owner = .section(label: record.pointee.label)
      case .parent(let parent):
        let record = _itemRecords.uniqueEntry(parent, hash: Self._hash(parent))!
        ids.withUnsafeBufferPointer { record.pointee.children.insert(leaves: $0, labels: run) }
        owner = .item(label: record.pointee.label, container: record.pointee.container, isExpanded: record.pointee.isExpanded)
      }
      _propagate(owner, w1: k, w2: k)
      return
    }
    if _itemRecords.containsAny(ids, hashes: hashes) { throw .itemsAlreadyExist(_existingItems(ids)) }
    // The entries: one run of labels for all of them, and (into an empty container) a
    // sequence built bottom-up from the identifiers.
    var relabeled: [(Item.ID, UInt64)] = []
    var run: (first: UInt64, step: UInt64) = (0, 0)
    let owner: Owner
    switch container {
    case .section(let section):
      let record = _sectionRecords.uniqueEntry(section, hash: nil)!
      ids.withUnsafeBufferPointer { run = record.pointee.roots.insert(leaves: $0, at: index, relabeled: &relabeled) }
      owner = .section(label: record.pointee.label)
    case .parent(let parent):
      let record = _itemRecords.uniqueEntry(parent, hash: Self._hash(parent))!
      ids.withUnsafeBufferPointer { run = record.pointee.children.insert(leaves: $0, at: index, relabeled: &relabeled) }
      owner = .item(label: record.pointee.label, container: record.pointee.container, isExpanded: record.pointee.isExpanded)
    }
    if !relabeled.isEmpty { _applyRelabels(relabeled) }
    _propagate(owner, w1: k, w2: k)
    // The records, each built where it is stored, in loops of this function: a closure per
    // record (and a call of the record's initializer) looked up the record's and the
    // container's metadata once per item in unspecialized code; here it is once per call.
    let first = run.first
    let step = run.step
    withUnsafePointer(to: container) { container in
      items.withUnsafeBufferPointer { items in
        let values = items.baseAddress!
        let offsets = ItemRecord.fieldOffsets
        if _itemRecords.isEmpty {
          var builder = _HashTreeBuilder<Item.ID, ItemRecord>()
          var i = 0
          while i < k {
            let (hash, index) = hashes[i]
            ItemRecord.initialize(
              builder.append(hash: hash, key: ids[index]), copying: values + index,
              label: first &+ step &* UInt64(index), container: container, offsets: offsets)
            i += 1
          }
          _itemRecords.root = builder.finish()
        } else if _itemRecords.count >= k * 4 {
          var i = 0
          while i < k {
            let (hash, index) = hashes[i]
            ItemRecord.initialize(
              ItemMap.insertAbsent(ids[index], hash: hash, in: &_itemRecords.root), copying: values + index,
              label: first &+ step &* UInt64(index), container: container, offsets: offsets)
            i += 1
          }
        } else {
          // A map not much larger than the insertion is rebuilt with it, in hash order.
          var sortedHashes = hashes
          _HashOrder.sort(&sortedHashes)
          _itemRecords.insertNew(keys: ids, sortedHashes: sortedHashes) { index in
            ItemRecord(
              value: values[index], label: first &+ step &* UInt64(index), children: ItemTree(), container: container.pointee,
              isExpanded: false)
          }
        }
      }
    }
  }

  /// The labels new entries at `index` of `container`'s sequence get without relabelling
  /// (``_OrderedTree/labels(at:count:)``); nil when they would need it.
  @inlinable
  func _labels(in container: Container, at index: Int, count k: Int) -> (first: UInt64, step: UInt64)? {
    switch container {
    case .section(let section): return _sectionRecords.find(section, hash: nil)!.pointee.roots.labels(at: index, count: k)
    case .parent(let parent):
      return _itemRecords.find(parent, hash: Self._hash(parent))!.pointee.children.labels(at: index, count: k)
    }
  }

  /// Creates records for the nodes of `nodes` (at every level) and places the roots in
  /// `container` at `index`.
  ///
  /// - Complexity: O(k log n) for k nodes.
  @inlinable
  mutating func _insertNewOutline(_ nodes: [Outline.Node], in container: Container, at index: Int) {
    if nodes.count == 1, nodes[0].children.isEmpty {
      _insertNewItem(nodes[0].item, isExpanded: nodes[0].isExpanded, in: container, at: index)
      return
    }
    var newRecords = NewRecords()
    _insertNewOutline(nodes, in: container, at: index, deferringRecordsInto: &newRecords)
    _insertNewRecords(consume newRecords)
  }

  /// Like ``_insertNewOutline(_:in:at:)`` but leaves the new records in `newRecords` for the
  /// caller to add in one bulk insertion (see `init(_:)`).
  @inlinable
  mutating func _insertNewOutline(
    _ nodes: [Outline.Node], in container: Container, at index: Int,
    deferringRecordsInto newRecords: inout NewRecords
  ) {
    guard !nodes.isEmpty else { return }
    var childTrees: [ItemTree] = []
    childTrees.reserveCapacity(nodes.count)
    var entries: [ItemEntry] = []
    entries.reserveCapacity(nodes.count)
    for node in nodes {
      let children = Self._buildChildren(node.children, parent: node.item.id, into: &newRecords)
      childTrees.append(children)
      entries.append(
        ItemEntry(id: node.item.id, w1: 1 + children.w1, w2: 1 + (node.isExpanded ? children.w2 : 0)))
    }
    let labels = _placeEntries(entries, in: container, at: index)
    for i in nodes.indices {
      newRecords.append(
        nodes[i].item.id,
        ItemRecord(
          value: nodes[i].item, label: labels[i], children: childTrees[i], container: container,
          isExpanded: nodes[i].isExpanded))
    }
  }

  /// Adds records for new items (distinct and absent identifiers), in bulk; `sortedHashes`
  /// are the keys' (``_HashTree/sortedHashes(of:)``) when the caller has them already.
  @inlinable
  mutating func _insertNewRecords(_ newRecords: consuming NewRecords, sortedHashes: [(hash: UInt64, index: Int)]? = nil) {
    if newRecords.count == 1 {
      _itemRecords.updateValue(newRecords.take(0), forKey: newRecords.keys[0])
      return
    }
    let keys = newRecords.keys
    _itemRecords.insertNew(keys: keys, sortedHashes: sortedHashes ?? ItemMap.sortedHashes(of: keys)) {
      newRecords.take($0)
    }
  }

  /// Makes records for `nodes` (and below) as children of `parent`, appending them to
  /// `newRecords`, and returns their sequence, built bottom-up with evenly spread labels.
  @inlinable
  static func _buildChildren(
    _ nodes: [Outline.Node], parent: Item.ID, into newRecords: inout NewRecords
  ) -> ItemTree {
    guard !nodes.isEmpty else { return ItemTree() }
    let step = Swift.min(ItemTree.labelGap, UInt64.max / UInt64(nodes.count + 1))
    var entries: [ItemEntry] = []
    entries.reserveCapacity(nodes.count)
    for (position, node) in nodes.enumerated() {
      let children = _buildChildren(node.children, parent: node.item.id, into: &newRecords)
      let record = ItemRecord(
        value: node.item, label: step * UInt64(position + 1), children: children, container: .parent(parent),
        isExpanded: node.isExpanded)
      entries.append(ItemEntry(label: record.label, id: node.item.id, w1: record.subtreeCount, w2: record.visibleCount))
      newRecords.append(node.item.id, record)
    }
    return ItemTree(sortedEntries: entries)
  }

  /// Changes the weights of an existing item's own entry (after its children or expansion
  /// changed) and of its ancestors.
  @inlinable
  mutating func _adjustEntry(of id: Item.ID, w1: Int, w2: Int) {
    guard w1 != 0 || w2 != 0 else { return }
    let record = _itemRecords.find(id, hash: Self._hash(id))!
    _adjustEntry(label: record.pointee.label, in: record.pointee.container, w1: w1, w2: w2)
  }

  /// Changes the weights of the entry with `label` in `container`, and of its ancestors.
  @_transparent
  @usableFromInline
  mutating func _adjustEntry(label: UInt64, in container: Container, w1: Int, w2: Int) {
    // The entry's owner, expanded as far as this change goes: the entry itself is adjusted
    // whatever its own expansion, then its ancestors as `_propagate` goes on.
    _propagate(.item(label: label, container: container, isExpanded: true), w1: w1, w2: w2)
  }

  /// Marks an existing item reloaded.
  @inlinable
  mutating func _markReloaded(_ id: Item.ID) {
    _markReloaded(id, hash: Self._hash(id))
  }

  /// Like ``_markReloaded(_:)`` with the item's hash already computed.
  @inlinable
  mutating func _markReloaded(_ id: Item.ID, hash: UInt64) {
    let epoch = _markerEpoch
    if _itemRecords.modify(id, hash: hash, { Self._stamp(&$0, epoch) }) { _reloadedItems.insert(id, hash: hash) }
  }

  /// The epoch after `epoch`; 0 (stamps off) once 48 bits are used up, and for ever after.
  @inlinable
  static func _nextMarkerEpoch(after epoch: UInt64) -> UInt64 {
    epoch == 0 || epoch >= (1 << 48) - 1 ? 0 : epoch + 1
  }

  // MARK: - Validation helpers

  /// The identifiers that occur more than once in `ids`, each once, in order of first occurrence.
  @inlinable
  static func _duplicates<ID: Hashable>(in ids: some Collection<ID>) -> [ID] {
    guard ids.count > 1 else { return [] }
    if ids.count == 2 {
      let first = ids.first!
      return first == ids[ids.index(after: ids.startIndex)] ? [first] : []
    }
    var seen = Set<ID>()
    var reported = Set<ID>()
    var result: [ID] = []
    for id in ids where !seen.insert(id).inserted {
      if reported.insert(id).inserted { result.append(id) }
    }
    return result
  }

  /// Deduplicated, in argument order.
  @inlinable
  static func _unique<ID: Hashable>(_ ids: some Sequence<ID>) -> [ID] {
    var seen = Set<ID>()
    return ids.filter { seen.insert($0).inserted }
  }

  @inlinable
  func _missingItems(_ ids: some Sequence<Item.ID>) -> [Item.ID] {
    Self._unique(ids.lazy.filter { !_itemRecords.contains($0) })
  }

  @inlinable
  func _existingItems(_ ids: some Sequence<Item.ID>) -> [Item.ID] {
    Self._unique(ids.lazy.filter { _itemRecords.contains($0) })
  }

  @inlinable
  func _missingSections(_ ids: some Sequence<Section.ID>) -> [Section.ID] {
    Self._unique(ids.lazy.filter { !_sectionRecords.contains($0) })
  }

  @inlinable
  func _existingSections(_ ids: some Sequence<Section.ID>) -> [Section.ID] {
    Self._unique(ids.lazy.filter { _sectionRecords.contains($0) })
  }

  /// Throws `.itemsNotFound` naming the unknown identifiers, if any.
  @inlinable
  func _requireItems(_ ids: [Item.ID]) throws(Failure) {
    if ids.count == 1 {
      if !_itemRecords.contains(ids[0]) { throw .itemsNotFound(ids) }
      return
    }
    let missing = _missingItems(ids)
    if !missing.isEmpty { throw .itemsNotFound(missing) }
  }

  /// Throws `.itemsNotFound([id])` when `id` is unknown.
  @inlinable
  func _requireItem(_ id: Item.ID) throws(Failure) {
    if !_itemRecords.contains(id) { throw .itemsNotFound([id]) }
  }

  /// Throws `.sectionsNotFound` naming the unknown identifiers, if any.
  @inlinable
  func _requireSections(_ ids: [Section.ID]) throws(Failure) {
    if ids.count == 1 {
      if !_sectionRecords.contains(ids[0]) { throw .sectionsNotFound(ids) }
      return
    }
    let missing = _missingSections(ids)
    if !missing.isEmpty { throw .sectionsNotFound(missing) }
  }

  /// Throws `.sectionsNotFound([id])` when `id` is unknown.
  @inlinable
  func _requireSection(_ id: Section.ID) throws(Failure) {
    if !_sectionRecords.contains(id) { throw .sectionsNotFound([id]) }
  }

  /// Throws `.itemsNotFound`/`.sectionsNotFound` when `container` does not exist.
  @inlinable
  func _requireContainer(_ container: Container) throws(Failure) {
    switch container {
    case .section(let section): try _requireSection(section)
    case .parent(let parent): try _requireItem(parent)
    }
  }

  /// The section that `toSection: nil` means (the last one), or the named section after
  /// checking it exists.
  @inlinable
  func _resolveAppendSection(_ section: Section.ID?) throws(Failure) -> Section.ID {
    if let section {
      try _requireSection(section)
      return section
    }
    guard _sectionOrder.count > 0 else { throw .noSections }
    return _sectionOrder.entry(at: _sectionOrder.count - 1).id
  }

  // MARK: - Operations built on the primitives above

  // (Here, next to them: the primitives are transparent, and an operation that inlines them
  // looks up the metadata of the record, container and tree types once, not once per step.)

  /// Moves an item (with its subtree) next to `anchor`, validating as ``_validateMove(_:relativeTo:)``.
  ///
  /// Both records are found by one paired descent (``_HashTree/peekPair(_:hash:_:hash:)``): on a
  /// list too large for the cache the two lookups' misses overlap instead of adding up.
  ///
  /// With `reportingMove`, it also returns where the item was and where it is now — what a
  /// history records for the move — from the records and ranks it reaches anyway: asking
  /// ``location(ofItem:)`` before and after cost two more lookups and a rank walk per move.
  @inlinable
  @discardableResult
  package mutating func _moveItem(_ id: Item.ID, nextTo anchor: Item.ID, after: Bool, reportingMove: Bool = false)
    throws(Failure) -> (from: Location, to: Location)?
  {
    let hash = Self._hash(id)
    let (moved, target) = _itemRecords.peekPair(id, hash: hash, anchor, hash: Self._hash(anchor))
    guard let moved, let target else {
      try _requireItems([id, anchor])
      preconditionFailure("unreachable: an item was missing")
    }
    if id == anchor { throw .itemRelativeToItself(id) }
    // Read before the map changes (the addresses are valid until then).
    let (label, container) = (moved.pointee.label, moved.pointee.container)
    let (anchorLabel, anchorContainer) = (target.pointee.label, target.pointee.container)
    if case .parent = anchorContainer, _isDescendant(anchor, of: id) {
      throw .itemUnderOwnDescendant(item: id, destination: anchor)
    }
    let from = reportingMove ? Location(container, index: _rank(ofLabel: label, in: container).index) : nil
    let entry = _detachItem(label: label, from: container)
    let index = _rank(ofLabel: anchorLabel, in: anchorContainer).index
    let destination = after ? index + 1 : index
    _attachItem(entry, hash: hash, in: anchorContainer, containerHash: Self._hash(anchorContainer), at: destination)
    // The index counts the final siblings (the item was detached before the anchor was ranked).
    return from.map { ($0, Location(anchorContainer, index: destination)) }
  }
}

/// The byte offsets of an ``_ItemRecord``'s fields after its value, computed once per batch of
/// records (see `_ItemRecord.initialize(_:copying:label:container:offsets:)`).
@usableFromInline
struct _ItemRecordOffsets {
  /// The record's stride (read with the offsets: see `_ItemRecord.fieldOffsets`).
  @usableFromInline var stride: Int
  @usableFromInline var label: Int
  @usableFromInline var children: Int
  @usableFromInline var container: Int
  @usableFromInline var isExpanded: Int
  @usableFromInline var stampHigh: Int
  @usableFromInline var stampLow: Int

  @_transparent
  @usableFromInline
  init(stride: Int, label: Int, children: Int, container: Int, isExpanded: Int, stampHigh: Int, stampLow: Int) {
    self.stride = stride
    self.label = label
    self.children = children
    self.container = container
    self.isExpanded = isExpanded
    self.stampHigh = stampHigh
    self.stampLow = stampLow
  }
}

extension _ItemRecord {
  /// The field offsets, computed from the fields' layouts (a struct's stored properties are laid
  /// out in order, each aligned): the bulk insertions above initialize each record field by
  /// field where it is stored. Built as a value and passed to `initialize(to:)`, a record was
  /// copied two or three times in unspecialized code (a value-witness call per field each).
  ///
  /// Computed right before a batch's loop: it reads the record's and the container's layouts,
  /// so their metadata is looked up once there (in unspecialized code, a lookup first made
  /// inside a loop is made again on every iteration).
  @_transparent
  @usableFromInline
  static var fieldOffsets: _ItemRecordOffsets {
    let label = (MemoryLayout<Item>.size &+ MemoryLayout<UInt64>.alignment &- 1) & (0 &- MemoryLayout<UInt64>.alignment)
    let children = label &+ MemoryLayout<UInt64>.size
    let containerAlignment = MemoryLayout<ListItemContainer<SectionID, Item.ID>>.alignment
    let container =
      (children &+ MemoryLayout<_OrderedTree<Item.ID>>.size &+ containerAlignment &- 1) & (0 &- containerAlignment)
    let isExpanded = container &+ MemoryLayout<ListItemContainer<SectionID, Item.ID>>.size
    let stampHigh = (isExpanded &+ 1 &+ 1) & ~1
    return _ItemRecordOffsets(
      stride: MemoryLayout<Self>.stride, label: label, children: children, container: container, isExpanded: isExpanded, stampHigh: stampHigh,
      stampLow: (stampHigh &+ 2 &+ 3) & ~3)
  }

  /// Initializes the record of a new collapsed leaf item at `record` (uninitialized), copying
  /// its value from `value` and its container from `container`; `offsets` are ``fieldOffsets``.
  @_transparent
  @usableFromInline
  static func initialize(
    _ record: UnsafeMutablePointer<Self>, copying value: UnsafePointer<Item>, label: UInt64,
    container: UnsafePointer<ListItemContainer<SectionID, Item.ID>>, offsets: _ItemRecordOffsets
  ) {
    let raw = UnsafeMutableRawPointer(record)
    raw.assumingMemoryBound(to: Item.self).initialize(from: value, count: 1)
    (raw + offsets.label).assumingMemoryBound(to: UInt64.self).pointee = label
    // An empty sequence: a nil root, all zero bits.
    (raw + offsets.children).assumingMemoryBound(to: UInt.self).pointee = 0
    (raw + offsets.container).assumingMemoryBound(to: ListItemContainer<SectionID, Item.ID>.self)
      .initialize(from: container, count: 1)
    (raw + offsets.isExpanded).assumingMemoryBound(to: Bool.self).pointee = false
    (raw + offsets.stampHigh).assumingMemoryBound(to: UInt16.self).pointee = 0
    (raw + offsets.stampLow).assumingMemoryBound(to: UInt32.self).pointee = 0
  }
}
