// MARK: - Counts and identifiers

extension ListSnapshot {
  /// The number of sections.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var numberOfSections: Int { _sectionOrder.count }

  /// All items at every level.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var numberOfItems: Int { _itemRecords.count }

  /// The number of items (at every level) in `section`; nil when the section is unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func numberOfItems(inSection section: Section.ID) -> Int? {
    _sectionRecords.peek(section) { $0.roots.w1 }
  }

  /// The section identifiers in order.
  ///
  /// - Complexity: O(s) for s sections.
  @inlinable
  public var sectionIdentifiers: [Section.ID] { _sectionOrder.ids }

  /// The section values in order.
  ///
  /// - Complexity: O(s log s).
  @inlinable
  public var sections: [Section] { _sectionOrder.ids.map { _sectionRecords.peek($0) { $0.value }! } }

  /// All item identifiers in list order (sections in order, each in pre-order).
  ///
  /// ```swift
  /// snapshot.itemIdentifiers   // ["Apple", "Granny Smith", "Pear"]
  /// ```
  /// - Complexity: O(n) (one record lookup per item that has children).
  @inlinable
  public var itemIdentifiers: [Item.ID] {
    var result: [Item.ID] = []
    result.reserveCapacity(numberOfItems)
    _sectionOrder.forEach { entry in
      _appendPreorder(of: _sectionRecords.peek(entry.id) { $0.roots }!, visibleOnly: false, into: &result)
    }
    return result
  }

  /// The section's item identifiers in pre-order; nil when the section is unknown.
  ///
  /// - Complexity: O(k) for k items in the section.
  @inlinable
  public func itemIdentifiersIfPresent(inSection section: Section.ID) -> [Item.ID]? {
    guard let roots = _sectionRecords.peek(section, { $0.roots }) else { return nil }
    var result: [Item.ID] = []
    result.reserveCapacity(roots.w1)
    _appendPreorder(of: roots, visibleOnly: false, into: &result)
    return result
  }

  /// The section's item identifiers in pre-order; empty when the section is unknown.
  ///
  /// - Complexity: O(k) for k items in the section.
  @inlinable
  public func itemIdentifiers(inSection section: Section.ID) -> [Item.ID] {
    itemIdentifiersIfPresent(inSection: section) ?? []
  }

  /// The section's value; nil when unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func section(_ id: Section.ID) -> Section? { _sectionRecords.peek(id) { $0.value } }

  /// The item's value; nil when unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func item(_ id: Item.ID) -> Item? { _itemRecords.peek(id) { $0.value } }

  /// - Complexity: O(log n).
  @inlinable
  public func contains(item id: Item.ID) -> Bool { _itemRecords.contains(id) }

  /// - Complexity: O(log n).
  @inlinable
  public func contains(section id: Section.ID) -> Bool { _sectionRecords.contains(id) }
}

// MARK: - Positions

extension ListSnapshot {
  /// The section holding the item (at any level); nil when unknown.
  ///
  /// - Complexity: O(depth) record lookups (only root items store their section).
  @inlinable
  public func sectionIdentifier(containingItem id: Item.ID) -> Section.ID? { _sectionOfItem(id) }

  /// Index in `itemIdentifiers` (across all sections), as UIKit's `indexOfItem`.
  ///
  /// ```swift
  /// snapshot.index(ofItem: "Pear")   // 2: after "Apple" and its child
  /// ```
  /// - Complexity: O(depth · log n): the prefix item counts of each ancestor level, plus the
  ///   items of the sections before.
  @inlinable
  public func index(ofItem id: Item.ID) -> Int? {
    guard var (label, container) = _itemRecords.peek(id, { ($0.label, $0.container) }) else { return nil }
    var index = 0
    while true {
      switch container {
      case .section(let section):
        let itemLabel = label
        let (sectionLabel, before) = _sectionRecords.peek(section) { ($0.label, $0.roots.rank(ofLabel: itemLabel)!.w1) }!
        return index + before + _sectionOrder.rank(ofLabel: sectionLabel)!.w1
      case .parent(let parent):
        let itemLabel = label
        let before: Int
        (label, container, before) = _itemRecords.peek(parent) {
          ($0.label, $0.container, $0.children.rank(ofLabel: itemLabel)!.w1)
        }!
        index += before + 1
      }
    }
  }

  /// The section's index; nil when unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func index(ofSection id: Section.ID) -> Int? {
    guard let label = _sectionRecords.peek(id, { $0.label }) else { return nil }
    return _sectionOrder.rank(ofLabel: label)!.index
  }

  /// Where the item hangs and its index among its siblings.
  ///
  /// ```swift
  /// snapshot.location(ofItem: "Granny Smith")   // .init(.parent("Apple"), index: 0)
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  public func location(ofItem id: Item.ID) -> Location? {
    guard let record = _itemRecords.find(id, hash: Self._hash(id)) else { return nil }
    let container = record.pointee.container
    return Location(container, index: _rank(ofLabel: record.pointee.label, in: container).index)
  }

  /// The item at a location: the `index`-th child of a parent item, or root item of a section;
  /// nil when the container is unknown or the index is out of range.
  ///
  /// ```swift
  /// snapshot.itemIdentifier(at: .init(.section("Fruit"), index: 0))   // "Apple"
  /// ```
  /// - Complexity: O(log n).
  @inlinable
  public func itemIdentifier(at location: Location) -> Item.ID? {
    let index = location.index
    guard index >= 0 else { return nil }
    switch location.container {
    case .section(let section):
      return _sectionRecords.peek(section) { index < $0.roots.count ? $0.roots.entry(at: index).id : nil } ?? nil
    case .parent(let parent):
      return _itemRecords.peek(parent) { index < $0.children.count ? $0.children.entry(at: index).id : nil } ?? nil
    }
  }

  /// The item's parent; nil for root items and unknown items.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func parent(of id: Item.ID) -> Item.ID? {
    _itemRecords.peek(id) { record -> Item.ID? in
      guard case .parent(let parent) = record.container else { return nil }
      return parent
    } ?? nil
  }

  /// 0 for root items; nil when unknown.
  ///
  /// - Complexity: O(depth).
  @inlinable
  public func level(of id: Item.ID) -> Int? {
    guard var container = _container(of: id) else { return nil }
    var level = 0
    while case .parent(let parent) = container {
      level += 1
      container = _container(of: parent)!
    }
    return level
  }

  /// The item's expansion flag (false when unknown). Leaves keep their flag too.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func isExpanded(_ id: Item.ID) -> Bool { _itemRecords.peek(id) { $0.isExpanded } ?? false }

  /// True when every ancestor is expanded (root items are visible); false when unknown.
  ///
  /// - Complexity: O(depth).
  @inlinable
  public func isVisible(_ id: Item.ID) -> Bool {
    guard var container = _container(of: id) else { return false }
    while case .parent(let parent) = container {
      let (isExpanded, next) = _itemRecords.peek(parent) { ($0.isExpanded, $0.container) }!
      guard isExpanded else { return false }
      container = next
    }
    return true
  }

  /// The item's children in order; empty when unknown or a leaf.
  ///
  /// - Complexity: O(k) for k children.
  @inlinable
  public func children(of id: Item.ID) -> [Item.ID] { _itemRecords.peek(id) { $0.children.ids } ?? [] }

  /// The section's root items in order; empty when unknown.
  ///
  /// - Complexity: O(k) for k roots.
  @inlinable
  public func rootItems(inSection section: Section.ID) -> [Item.ID] { _sectionRecords.peek(section) { $0.roots.ids } ?? [] }
}

// MARK: - Visible rows

extension ListSnapshot {
  /// The rows a UI shows for the section: items whose ancestors are all expanded, pre-order.
  ///
  /// - Complexity: O(r) for r visible rows (hidden subtrees are skipped, not walked).
  @inlinable
  public func visibleItems(inSection section: Section.ID) -> [Item.ID] {
    guard let roots = _sectionRecords.peek(section, { $0.roots }) else { return [] }
    var result: [Item.ID] = []
    result.reserveCapacity(roots.w2)
    _appendPreorder(of: roots, visibleOnly: true, into: &result)
    return result
  }

  /// Visible items of every section, in list order.
  ///
  /// - Complexity: O(r) for r visible rows.
  @inlinable
  public var visibleItems: [Item.ID] {
    var result: [Item.ID] = []
    result.reserveCapacity(_sectionOrder.w2)
    _sectionOrder.forEach { entry in
      _appendPreorder(of: _sectionRecords.peek(entry.id) { $0.roots }!, visibleOnly: true, into: &result)
    }
    return result
  }

  /// The section's visible row count; nil when unknown.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func numberOfVisibleItems(inSection section: Section.ID) -> Int? { _sectionRecords.peek(section) { $0.roots.w2 } }

  /// The item shown at a visible index path; nil when there is no such row.
  ///
  /// - Complexity: O(depth · log n): descends by visible-row weights.
  @inlinable
  public func visibleItem(at indexPath: ListIndexPath) -> Item.ID? {
    guard indexPath.section >= 0, indexPath.section < _sectionOrder.count, indexPath.row >= 0 else { return nil }
    var tree = _sectionRecords.peek(_sectionOrder.entry(at: indexPath.section).id) { $0.roots }!
    guard indexPath.row < tree.w2 else { return nil }
    var row = indexPath.row
    while true {
      let (_, entry, remainder) = tree.entry(atW2Offset: row)
      if remainder == 0 { return entry.id }
      row = remainder - 1
      tree = _itemRecords.peek(entry.id) { $0.children }!
    }
  }

  /// The visible index path of an item; nil when unknown or hidden under a collapsed ancestor.
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  public func visibleIndexPath(ofItem id: Item.ID) -> ListIndexPath? {
    guard var (label, container) = _itemRecords.peek(id, { ($0.label, $0.container) }) else { return nil }
    var row = 0
    while true {
      switch container {
      case .section(let section):
        let itemLabel = label
        let (sectionLabel, before) = _sectionRecords.peek(section) { ($0.label, $0.roots.rank(ofLabel: itemLabel)!.w2) }!
        return ListIndexPath(section: _sectionOrder.rank(ofLabel: sectionLabel)!.index, row: row + before)
      case .parent(let parent):
        let itemLabel = label
        let (parentLabel, next, isExpanded, before) = _itemRecords.peek(parent) {
          ($0.label, $0.container, $0.isExpanded, $0.children.rank(ofLabel: itemLabel)!.w2)
        }!
        guard isExpanded else { return nil }
        row += before + 1
        (label, container) = (parentLabel, next)
      }
    }
  }
}

// MARK: - Outlines, markers, drawing

extension ListSnapshot {
  /// The sub-outline under `parent` (with `parent` as its single root when `includingParent`);
  /// nil when `parent` is unknown.
  ///
  /// ```swift
  /// snapshot.outline(of: "Apple")?.itemIdentifiers   // ["Granny Smith"]
  /// ```
  /// - Complexity: O(k) for k items in the subtree.
  @inlinable
  public func outline(of parent: Item.ID, includingParent: Bool = false) -> Outline? {
    guard let record = _itemRecords[parent] else { return nil }
    let children = record.children.isEmpty ? [] : _outlineNodes(of: record.children)
    if includingParent {
      return Outline([Outline.Node(record.value, isExpanded: record.isExpanded, children: children)])
    }
    return Outline(children)
  }

  /// The section's whole forest; nil when the section is unknown.
  ///
  /// - Complexity: O(k) for k items in the section.
  @inlinable
  public func outline(ofSection section: Section.ID) -> Outline? {
    guard let roots = _sectionRecords.peek(section, { $0.roots }) else { return nil }
    return Outline(_outlineNodes(of: roots))
  }

  /// Items marked by `reloadItems` or content updates since the last `clearMarkers()`.
  ///
  /// - Complexity: O(m) for m marked items.
  @inlinable
  public var reloadedItemIdentifiers: Set<Item.ID> { Set(_reloadedItems) }

  /// Items marked by `reconfigureItems` since the last `clearMarkers()`.
  @inlinable
  public var reconfiguredItemIdentifiers: Set<Item.ID> { Set(_reconfiguredItems) }

  /// Sections marked by `reloadSections` or content updates since the last `clearMarkers()`.
  @inlinable
  public var reloadedSectionIdentifiers: Set<Section.ID> { Set(_reloadedSections) }

  /// Forgets every reload/reconfigure marker.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func clearMarkers() {
    _reloadedItems = _HashSet()
    _reconfiguredItems = _HashSet()
    _reloadedSections = _HashSet()
    // Every stamp is now stale: nothing is marked.
    _markerEpoch = Self._nextMarkerEpoch(after: _markerEpoch)
    _checkInvariants()
  }

  /// A readable multi-line drawing of the **visible rows**: one line per section
  /// (`Section <id>`), then one line per visible item, indented two spaces per level after a
  /// two-space margin, prefixed by `▾` (expanded parent), `▸` (collapsed parent, whose children
  /// are hidden) or a space (leaf). Lines are joined by `\n`, without a trailing newline.
  ///
  /// ```
  /// Section A
  ///   ▾ parent
  ///       child
  ///   ▸ collapsed
  ///     leaf
  /// ```
  /// - Complexity: O(r) for r visible rows.
  @inlinable
  public func visualDescription() -> String {
    var lines: [String] = []
    func draw(_ tree: ItemTree, level: Int) {
      tree.forEach { entry in
        let indent = String(repeating: "  ", count: level + 1)
        let hasChildren = entry.w1 > 1
        let record = hasChildren ? _itemRecords[entry.id] : nil
        let marker = record.map { $0.isExpanded ? "▾" : "▸" } ?? " "
        lines.append("\(indent)\(marker) \(entry.id)")
        if let record, record.isExpanded { draw(record.children, level: level + 1) }
      }
    }
    _sectionOrder.forEach { entry in
      lines.append("Section \(entry.id)")
      draw(_sectionRecords.peek(entry.id) { $0.roots }!, level: 0)
    }
    return lines.joined(separator: "\n")
  }
}
