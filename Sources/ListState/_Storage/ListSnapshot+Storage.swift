import HashTreeCollections

// Storage primitives shared by the operations: container access, weight propagation, placing
// and removing entries, building records for new items. None of them validates its input: the
// public operations validate everything first, then call these.
//
// Section-of strategy: only root items store their section (`container == .section(id)`); a
// nested item stores its parent and finds its section by walking up, O(depth). Moving a subtree
// between sections therefore rewrites one record (the moved root), never the k records below it.
extension ListSnapshot {
  // MARK: - Reading

  /// The sibling sequence of `container`; nil when the section or parent is unknown.
  @inlinable
  func _tree(of container: Container) -> ItemTree? {
    switch container {
    case .section(let section): return _sectionRecords[section]?.roots
    case .parent(let parent): return _itemRecords[parent]?.children
    }
  }

  /// Whether the section or parent item exists.
  @inlinable
  func _containerExists(_ container: Container) -> Bool {
    switch container {
    case .section(let section): return _sectionRecords[section] != nil
    case .parent(let parent): return _itemRecords[parent] != nil
    }
  }

  /// The section an existing item is in: walks up to its root.
  ///
  /// - Complexity: O(depth).
  @inlinable
  func _sectionOfItem(_ id: Item.ID) -> Section.ID? {
    guard var container = _itemRecords[id]?.container else { return nil }
    while true {
      switch container {
      case .section(let section): return section
      case .parent(let parent): container = _itemRecords[parent]!.container
      }
    }
  }

  /// Whether `candidate` is a strict descendant of `ancestor`.
  ///
  /// - Complexity: O(depth of `candidate`).
  @inlinable
  func _isDescendant(_ candidate: Item.ID, of ancestor: Item.ID) -> Bool {
    guard var container = _itemRecords[candidate]?.container else { return false }
    while case .parent(let parent) = container {
      if parent == ancestor { return true }
      container = _itemRecords[parent]!.container
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
        _appendPreorder(of: _itemRecords[entry.id]!.children, visibleOnly: visibleOnly, into: &result)
      }
    }
  }

  /// The nested outline value of the forest `tree`.
  @inlinable
  func _outlineNodes(of tree: ItemTree) -> [Outline.Node] {
    var nodes: [Outline.Node] = []
    nodes.reserveCapacity(tree.count)
    tree.forEach { entry in
      let record = _itemRecords[entry.id]!
      nodes.append(Outline.Node(record.value, isExpanded: record.isExpanded, children: _outlineNodes(of: record.children)))
    }
    return nodes
  }

  // MARK: - Writing

  /// Calls `body` with the sibling sequence of an existing `container`, in place.
  @discardableResult
  @inlinable
  mutating func _withTree<R>(of container: Container, _ body: (inout ItemTree) -> R) -> R {
    switch container {
    case .section(let section): return body(&_sectionRecords[section]!.roots)
    case .parent(let parent): return _itemRecords.modify(parent) { body(&$0.children) }
    }
  }

  /// The contents of `container` grew by `w1` items and `w2` visible rows (negative: shrank):
  /// updates the weights of its owner and of every ancestor up to the section's entry.
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  mutating func _propagate(changeIn container: Container, w1: Int, w2: Int) {
    var container = container
    let w1 = w1
    var w2 = w2
    while w1 != 0 || w2 != 0 {
      switch container {
      case .section(let section):
        _sectionOrder.adjustWeights(label: _sectionRecords[section]!.label, w1: w1, w2: w2)
        return
      case .parent(let parent):
        let record = _itemRecords[parent]!
        if !record.isExpanded { w2 = 0 }
        if w1 == 0 && w2 == 0 { return }
        let (label, dw1, dw2) = (record.label, w1, w2)
        _withTree(of: record.container) { $0.adjustWeights(label: label, w1: dw1, w2: dw2) }
        container = record.container
      }
    }
  }

  /// Inserts entries (labels assigned here) into `container` at `index`, updates the labels of
  /// any relabeled siblings' records and the ancestors' weights. The caller creates or updates
  /// the records of the new entries with the returned labels.
  ///
  /// - Complexity: O(k log n + depth · log n), plus amortised relabeling.
  @inlinable
  mutating func _placeEntries(_ entries: [ItemEntry], in container: Container, at index: Int) -> [UInt64] {
    var relabeled: [(Item.ID, UInt64)] = []
    let labels = _withTree(of: container) { $0.insert(contentsOf: entries, at: index, relabeled: &relabeled) }
    for (id, label) in relabeled { _itemRecords.modify(id) { $0.label = label } }
    var w1 = 0
    var w2 = 0
    for entry in entries {
      w1 += entry.w1
      w2 += entry.w2
    }
    _propagate(changeIn: container, w1: w1, w2: w2)
    return labels
  }

  /// Inserts sections (no items yet) at `index` of the section order.
  @inlinable
  mutating func _placeNewSections(_ sections: [Section], at index: Int) {
    let entries = sections.map { _OrderedEntry(id: $0.id, w1: 0, w2: 0) }
    var relabeled: [(Section.ID, UInt64)] = []
    let labels = _sectionOrder.insert(contentsOf: entries, at: index, relabeled: &relabeled)
    for (id, label) in relabeled { _sectionRecords[id]!.label = label }
    for (section, label) in zip(sections, labels) {
      _sectionRecords[section.id] = SectionRecord(value: section, label: label, roots: ItemTree())
    }
  }

  /// Takes an existing item (with its subtree) out of its container; its records stay.
  ///
  /// - Returns: Its entry (with its weights).
  /// - Complexity: O(depth · log n).
  @inlinable
  mutating func _detachItem(_ id: Item.ID) -> ItemEntry {
    let record = _itemRecords[id]!
    let label = record.label
    let entry = _withTree(of: record.container) { $0.remove(label: label)! }
    _propagate(changeIn: record.container, w1: -entry.w1, w2: -entry.w2)
    return entry
  }

  /// Puts a detached item (whose record still exists) into `container` at `index`.
  ///
  /// - Complexity: O(depth · log n), plus amortised relabeling.
  @inlinable
  mutating func _attachItem(_ entry: ItemEntry, in container: Container, at index: Int) {
    let label = _placeEntries([entry], in: container, at: index)[0]
    _itemRecords.modify(entry.id) {
      $0.label = label
      $0.container = container
    }
  }

  /// Removes the records and markers of `id` and all its descendants (the item must already be
  /// detached, or its container be discarded).
  ///
  /// - Complexity: O(k) for k removed items.
  @inlinable
  mutating func _removeRecords(ofSubtree id: Item.ID) {
    var stack = [id]
    let hasMarkers = !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty
    while let next = stack.popLast() {
      let record = _itemRecords.removeValue(forKey: next)!
      if !record.children.isEmpty { record.children.forEach { stack.append($0.id) } }
      if hasMarkers {
        _reloadedItems.remove(next)
        _reconfiguredItems.remove(next)
      }
    }
  }

  /// Deletes an existing item with its subtree.
  @inlinable
  mutating func _deleteItem(_ id: Item.ID) {
    _ = _detachItem(id)
    _removeRecords(ofSubtree: id)
  }

  /// Creates records for new leaf items and places them in `container` at `index`.
  /// `sortedHashes` (from ``_HashTree/sortedHashes(of:)`` over the items' identifiers) may be
  /// passed when validation already computed it.
  ///
  /// - Complexity: O(k log n); O(k log k) tree and map work when the list is empty (bulk build).
  @inlinable
  mutating func _insertNewItems(
    _ items: [Item], in container: Container, at index: Int, sortedHashes: [(hash: UInt64, index: Int)]? = nil
  ) {
    guard !items.isEmpty else { return }
    let entries = items.map { ItemEntry(id: $0.id, w1: 1, w2: 1) }
    let labels = _placeEntries(entries, in: container, at: index)
    if items.count == 1 {
      _itemRecords.updateValue(
        ItemRecord(value: items[0], label: labels[0], children: ItemTree(), container: container, isExpanded: false),
        forKey: items[0].id)
      return
    }
    let keys = items.map(\.id)
    _itemRecords.insertNew(
      keys: keys, sortedHashes: sortedHashes ?? _HashTree<Item.ID, ItemRecord>.sortedHashes(of: keys)
    ) { i in
      ItemRecord(value: items[i], label: labels[i], children: ItemTree(), container: container, isExpanded: false)
    }
  }

  /// Creates records for the nodes of `nodes` (at every level) and places the roots in
  /// `container` at `index`.
  ///
  /// - Complexity: O(k log n) for k nodes.
  @inlinable
  mutating func _insertNewOutline(_ nodes: [Outline.Node], in container: Container, at index: Int) {
    var newRecords: [(Item.ID, ItemRecord)] = []
    _insertNewOutline(nodes, in: container, at: index, deferringRecordsInto: &newRecords)
    _insertNewRecords(newRecords)
  }

  /// Like ``_insertNewOutline(_:in:at:)`` but leaves the new records in `newRecords` for the
  /// caller to add in one bulk insertion (see `init(_:)`).
  @inlinable
  mutating func _insertNewOutline(
    _ nodes: [Outline.Node], in container: Container, at index: Int,
    deferringRecordsInto newRecords: inout [(Item.ID, ItemRecord)]
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
        (nodes[i].item.id,
         ItemRecord(
          value: nodes[i].item, label: labels[i], children: childTrees[i], container: container,
          isExpanded: nodes[i].isExpanded)))
    }
  }

  /// Adds records for new items (distinct and absent identifiers), in bulk.
  @inlinable
  mutating func _insertNewRecords(_ newRecords: [(Item.ID, ItemRecord)]) {
    let keys = newRecords.map(\.0)
    _itemRecords.insertNew(keys: keys, sortedHashes: _HashTree<Item.ID, ItemRecord>.sortedHashes(of: keys)) {
      newRecords[$0].1
    }
  }

  /// Makes records for `nodes` (and below) as children of `parent`, appending them to
  /// `newRecords`, and returns their sequence, built bottom-up with evenly spread labels.
  @inlinable
  static func _buildChildren(
    _ nodes: [Outline.Node], parent: Item.ID, into newRecords: inout [(Item.ID, ItemRecord)]
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
      newRecords.append((node.item.id, record))
      entries.append(ItemEntry(label: record.label, id: node.item.id, w1: record.subtreeCount, w2: record.visibleCount))
    }
    return ItemTree(sortedEntries: entries)
  }

  /// Changes the weights of an existing item's own entry (after its children or expansion
  /// changed) and of its ancestors.
  @inlinable
  mutating func _adjustEntry(of id: Item.ID, w1: Int, w2: Int) {
    guard w1 != 0 || w2 != 0 else { return }
    let record = _itemRecords[id]!
    let label = record.label
    _withTree(of: record.container) { $0.adjustWeights(label: label, w1: w1, w2: w2) }
    _propagate(changeIn: record.container, w1: w1, w2: w2)
  }

  // MARK: - Validation helpers

  /// The identifiers that occur more than once in `ids`, each once, in order of first occurrence.
  @inlinable
  static func _duplicates<ID: Hashable>(in ids: some Sequence<ID>) -> [ID] {
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
    Self._unique(ids.lazy.filter { _itemRecords[$0] == nil })
  }

  @inlinable
  func _existingItems(_ ids: some Sequence<Item.ID>) -> [Item.ID] {
    Self._unique(ids.lazy.filter { _itemRecords[$0] != nil })
  }

  @inlinable
  func _missingSections(_ ids: some Sequence<Section.ID>) -> [Section.ID] {
    Self._unique(ids.lazy.filter { _sectionRecords[$0] == nil })
  }

  @inlinable
  func _existingSections(_ ids: some Sequence<Section.ID>) -> [Section.ID] {
    Self._unique(ids.lazy.filter { _sectionRecords[$0] != nil })
  }

  /// Throws `.itemsNotFound` naming the unknown identifiers, if any.
  @inlinable
  func _requireItems(_ ids: some Sequence<Item.ID>) throws(Failure) {
    let missing = _missingItems(ids)
    if !missing.isEmpty { throw .itemsNotFound(missing) }
  }

  /// Throws `.sectionsNotFound` naming the unknown identifiers, if any.
  @inlinable
  func _requireSections(_ ids: some Sequence<Section.ID>) throws(Failure) {
    let missing = _missingSections(ids)
    if !missing.isEmpty { throw .sectionsNotFound(missing) }
  }

  /// Throws `.itemsNotFound`/`.sectionsNotFound` when `container` does not exist.
  @inlinable
  func _requireContainer(_ container: Container) throws(Failure) {
    switch container {
    case .section(let section): try _requireSections([section])
    case .parent(let parent): try _requireItems([parent])
    }
  }

  /// The section that `toSection: nil` means (the last one), or the named section after
  /// checking it exists.
  @inlinable
  func _resolveAppendSection(_ section: Section.ID?) throws(Failure) -> Section.ID {
    if let section {
      try _requireSections([section])
      return section
    }
    guard _sectionOrder.count > 0 else { throw .noSections }
    return _sectionOrder.entry(at: _sectionOrder.count - 1).id
  }
}
