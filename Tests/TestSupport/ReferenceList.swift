import ListState

/// A naive, obviously-correct model of a ``ListSnapshot``: an array of sections, each holding a
/// recursive array-of-nodes forest, with linear scans everywhere.
///
/// It implements every operation and query of `ListSnapshot` with the decided semantics, so that
/// property tests can apply the same random operations to both and compare them on every query
/// (see ``firstMismatch(with:probeItems:probeSections:)``). Nothing here is clever on purpose:
/// each query walks the whole list.
///
/// ```swift
/// var reference = ReferenceList<TestSection, TestItem>()
/// try reference.appendSections([TestSection("A")])
/// try reference.appendItems([TestItem("x")])
/// reference.itemIdentifiers     // ["x"]
/// ```
///
/// - Complexity: O(n) per query and per operation, for n items; that is the point.
public struct ReferenceList<Section: ListElement, Item: ListElement>: Equatable, Sendable {
  public typealias Failure = ListError<Section.ID, Item.ID>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>
  public typealias Node = ListOutline<Item>.Node
  public typealias Snapshot = ListSnapshot<Section, Item>

  /// One section with its forest of root nodes.
  public struct SectionEntry: Equatable, Sendable {
    public var section: Section
    public var roots: [Node]

    public init(section: Section, roots: [Node] = []) {
      self.section = section
      self.roots = roots
    }
  }

  /// Sections in order, each with its forest.
  public var entries: [SectionEntry]
  /// Items marked by `reloadItems`, `updateItem(s)`, `replaceItem` since the last `clearMarkers()`.
  public var reloadedItems: Set<Item.ID>
  /// Items marked by `reconfigureItems` since the last `clearMarkers()`.
  public var reconfiguredItems: Set<Item.ID>
  /// Sections marked by `reloadSections`, `updateSection`, `replaceSection`.
  public var reloadedSections: Set<Section.ID>

  /// An empty list.
  public init() {
    entries = []
    reloadedItems = []
    reconfiguredItems = []
    reloadedSections = []
  }

  /// A model holding the same state as `snapshot`, read through its public queries
  /// (`sections`, `outline(ofSection:)` and the marker sets).
  ///
  /// Handy to start a reference run from an existing snapshot (for example one loaded from a
  /// journal). It trusts those few queries; ``firstMismatch(with:probeItems:probeSections:)``
  /// then checks all the others against them.
  public init(_ snapshot: Snapshot) {
    entries = snapshot.sections.map { section in
      SectionEntry(section: section, roots: snapshot.outline(ofSection: section.id)?.roots ?? [])
    }
    reloadedItems = snapshot.reloadedItemIdentifiers
    reconfiguredItems = snapshot.reconfiguredItemIdentifiers
    reloadedSections = snapshot.reloadedSectionIdentifiers
  }
}

// MARK: - Walking

extension ReferenceList {
  /// Everything the list knows about one item, computed by a single pre-order walk.
  public struct Row: Equatable, Sendable {
    public var item: Item
    public var sectionIndex: Int
    public var sectionID: Section.ID
    public var parent: Item.ID?
    public var level: Int
    /// Index among the siblings in its container.
    public var siblingIndex: Int
    public var isExpanded: Bool
    /// Every ancestor is expanded.
    public var isVisible: Bool
    /// Position in the section's visible rows, when visible.
    public var visibleRow: Int?
    /// Path of sibling indexes from the section's roots down to this item.
    public var path: [Int]
    public var children: [Item.ID]

    public var id: Item.ID { item.id }
    public var container: Container { parent.map { .parent($0) } ?? .section(sectionID) }
  }

  /// Every item of the list in list order (sections in order, each in pre-order).
  ///
  /// - Complexity: O(n).
  public func rows() -> [Row] {
    var result: [Row] = []
    for (sectionIndex, entry) in entries.enumerated() {
      var visibleCount = 0
      func visit(_ nodes: [Node], parent: Item.ID?, level: Int, visible: Bool, path: [Int]) {
        for (index, node) in nodes.enumerated() {
          var row: Int? = nil
          if visible {
            row = visibleCount
            visibleCount += 1
          }
          result.append(
            Row(
              item: node.item, sectionIndex: sectionIndex, sectionID: entry.section.id, parent: parent,
              level: level, siblingIndex: index, isExpanded: node.isExpanded, isVisible: visible,
              visibleRow: row, path: path + [index], children: node.children.map { $0.item.id }))
          visit(
            node.children, parent: node.item.id, level: level + 1, visible: visible && node.isExpanded,
            path: path + [index])
        }
      }
      visit(entry.roots, parent: nil, level: 0, visible: true, path: [])
    }
    return result
  }

  /// The row of one item, or nil.
  public func row(_ id: Item.ID) -> Row? { rows().first { $0.id == id } }

  /// Where an item is: its section index and the path of sibling indexes down to it.
  ///
  /// - Complexity: O(n); a plain depth-first search (cheaper than ``rows()`` for one item).
  public func find(_ id: Item.ID) -> (section: Int, path: [Int])? {
    func search(_ nodes: [Node], _ path: inout [Int]) -> Bool {
      for index in nodes.indices {
        path.append(index)
        if nodes[index].item.id == id || search(nodes[index].children, &path) { return true }
        path.removeLast()
      }
      return false
    }
    for section in entries.indices {
      var path: [Int] = []
      if search(entries[section].roots, &path) { return (section, path) }
    }
    return nil
  }

  /// The container of the item at `path` in `section`.
  func container(section: Int, path: [Int]) -> Container {
    path.count == 1 ? .section(entries[section].section.id) : .parent(node(section: section, path: Array(path.dropLast())).item.id)
  }
}

// MARK: - Queries (same names and meaning as ListSnapshot)

extension ReferenceList {
  public var numberOfSections: Int { entries.count }
  public var numberOfItems: Int { rows().count }
  public var sectionIdentifiers: [Section.ID] { entries.map { $0.section.id } }
  public var sections: [Section] { entries.map { $0.section } }
  public var itemIdentifiers: [Item.ID] { rows().map { $0.id } }

  public func index(ofSection id: Section.ID) -> Int? { entries.firstIndex { $0.section.id == id } }
  public func section(_ id: Section.ID) -> Section? { entries.first { $0.section.id == id }?.section }
  public func contains(section id: Section.ID) -> Bool { index(ofSection: id) != nil }
  public func contains(item id: Item.ID) -> Bool { find(id) != nil }
  public func item(_ id: Item.ID) -> Item? { find(id).map { node(section: $0.section, path: $0.path).item } }

  public func numberOfItems(inSection id: Section.ID) -> Int? { itemIdentifiersIfPresent(inSection: id)?.count }
  public func itemIdentifiersIfPresent(inSection id: Section.ID) -> [Item.ID]? {
    guard contains(section: id) else { return nil }
    return rows().filter { $0.sectionID == id }.map { $0.id }
  }
  public func itemIdentifiers(inSection id: Section.ID) -> [Item.ID] { itemIdentifiersIfPresent(inSection: id) ?? [] }
  public func sectionIdentifier(containingItem id: Item.ID) -> Section.ID? { row(id)?.sectionID }
  public func index(ofItem id: Item.ID) -> Int? { rows().firstIndex { $0.id == id } }
  public func location(ofItem id: Item.ID) -> Location? { row(id).map { Location($0.container, index: $0.siblingIndex) } }
  public func parent(of id: Item.ID) -> Item.ID? { row(id)?.parent }
  public func level(of id: Item.ID) -> Int? { row(id)?.level }
  public func isExpanded(_ id: Item.ID) -> Bool { find(id).map { node(section: $0.section, path: $0.path).isExpanded } ?? false }
  public func isVisible(_ id: Item.ID) -> Bool { row(id)?.isVisible ?? false }
  public func children(of id: Item.ID) -> [Item.ID] {
    find(id).map { node(section: $0.section, path: $0.path).children.map { $0.item.id } } ?? []
  }
  public func rootItems(inSection id: Section.ID) -> [Item.ID] {
    entries.first { $0.section.id == id }?.roots.map { $0.item.id } ?? []
  }
  public func visibleItems(inSection id: Section.ID) -> [Item.ID] {
    rows().filter { $0.sectionID == id && $0.isVisible }.map { $0.id }
  }
  public var visibleItems: [Item.ID] { rows().filter { $0.isVisible }.map { $0.id } }
  /// The visible items of every section, by section index (one walk).
  public func visibleItemsBySection() -> [[Item.ID]] {
    var result = Array(repeating: [Item.ID](), count: entries.count)
    for row in rows() where row.isVisible { result[row.sectionIndex].append(row.id) }
    return result
  }
  public func numberOfVisibleItems(inSection id: Section.ID) -> Int? {
    contains(section: id) ? visibleItems(inSection: id).count : nil
  }
  public func visibleItem(at indexPath: ListIndexPath) -> Item.ID? {
    guard entries.indices.contains(indexPath.section) else { return nil }
    let visible = visibleItems(inSection: entries[indexPath.section].section.id)
    return visible.indices.contains(indexPath.row) ? visible[indexPath.row] : nil
  }
  public func visibleIndexPath(ofItem id: Item.ID) -> ListIndexPath? {
    guard let row = row(id), let visibleRow = row.visibleRow else { return nil }
    return ListIndexPath(section: row.sectionIndex, row: visibleRow)
  }
  public func outline(of id: Item.ID, includingParent: Bool = false) -> Outline? {
    guard let (section, path) = find(id) else { return nil }
    let node = self.node(section: section, path: path)
    return includingParent ? Outline([node]) : Outline(node.children)
  }
  public func outline(ofSection id: Section.ID) -> Outline? {
    entries.first { $0.section.id == id }.map { Outline($0.roots) }
  }

  /// The identifiers of `id` and everything under it, pre-order; empty when unknown.
  public func subtree(of id: Item.ID) -> [Item.ID] {
    guard let outline = outline(of: id, includingParent: true) else { return [] }
    return outline.itemIdentifiers
  }

  /// The children of a container, or nil when the container is unknown.
  public func children(of container: Container) -> [Item.ID]? {
    switch container {
    case .section(let id): return contains(section: id) ? rootItems(inSection: id) : nil
    case .parent(let id): return contains(item: id) ? children(of: id) : nil
    }
  }
}

// MARK: - Node plumbing (paths are sibling indexes from a section's roots)

extension ReferenceList {
  func node(section: Int, path: [Int]) -> Node {
    var node = entries[section].roots[path[0]]
    for index in path.dropFirst() { node = node.children[index] }
    return node
  }

  /// Runs `body` on the sibling array under `parentPath` (empty path: the section's roots).
  mutating func withSiblings<R>(section: Int, parentPath: [Int], _ body: (inout [Node]) -> R) -> R {
    func descend(_ nodes: inout [Node], _ path: ArraySlice<Int>) -> R {
      guard let first = path.first else { return body(&nodes) }
      return descend(&nodes[first].children, path.dropFirst())
    }
    return descend(&entries[section].roots, parentPath[...])
  }

  mutating func modifyNode(_ id: Item.ID, _ body: (inout Node) -> Void) {
    guard let (section, path) = find(id) else { preconditionFailure("reference: unknown item \(id)") }
    withSiblings(section: section, parentPath: Array(path.dropLast())) { body(&$0[path[path.count - 1]]) }
  }

  /// Removes an item with its subtree and returns it. A deletion (`dropMarkers`) also drops the
  /// markers of every removed item; a move keeps them.
  mutating func removeNode(_ id: Item.ID, dropMarkers: Bool) -> Node {
    guard let (section, path) = find(id) else { preconditionFailure("reference: unknown item \(id)") }
    let node = withSiblings(section: section, parentPath: Array(path.dropLast())) { $0.remove(at: path[path.count - 1]) }
    if dropMarkers { dropItemMarkers(Outline([node]).itemIdentifiers) }
    return node
  }

  mutating func dropItemMarkers(_ ids: [Item.ID]) {
    for removed in ids {
      reloadedItems.remove(removed)
      reconfiguredItems.remove(removed)
    }
  }

  /// Inserts nodes into a known container at `index` of its children.
  mutating func insertNodes(_ nodes: [Node], into container: Container, at index: Int) {
    switch container {
    case .section(let sectionID):
      guard let sectionIndex = self.index(ofSection: sectionID) else { preconditionFailure("reference: unknown section") }
      entries[sectionIndex].roots.insert(contentsOf: nodes, at: index)
    case .parent(let parentID):
      modifyNode(parentID) { $0.children.insert(contentsOf: nodes, at: index) }
    }
  }
}
