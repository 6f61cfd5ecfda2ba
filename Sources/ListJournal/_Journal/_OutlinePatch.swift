/// A few events applied to a list given as outlines (sections with their forests), with the
/// meaning and the checks of `ListEvent.apply(to:verifying:)`: for a version a handful of events
/// from the head, where folding the whole state into a ``ListFold`` (hashing every item, then
/// unfolding it) costs far more than walking the outlines for the few items the events name.
///
/// Each event finds its items by a walk of the state (a comparison per item, no hashing) and
/// edits the arrays on the path to them in place. Identifiers an event inserts are not looked
/// for elsewhere in the state (a walk each); a ``ListFold`` checks that, so a reader with many
/// events, or without trust in where they come from, should fold.
///
/// ```swift
/// var patch = _OutlinePatch(sections)
/// try patch.apply(event)
/// let state = patch.sections
/// ```
/// - Complexity: O(n) per event for n items.
@usableFromInline
struct _OutlinePatch<Section: ListElement, Item: ListElement> {
  @usableFromInline typealias Node = ListOutline<Item>.Node
  @usableFromInline typealias Location = ListItemLocation<Section.ID, Item.ID>

  @usableFromInline var state: [(section: Section, roots: [Node])]

  @inlinable
  init(_ sections: [(Section, ListOutline<Item>)]) {
    state = sections.map { ($0.0, $0.1.roots) }
  }

  /// The state as sections with their outlines.
  @inlinable
  var sections: [(Section, ListOutline<Item>)] { state.map { ($0.section, ListOutline($0.roots)) } }

  // MARK: Finding

  @inlinable
  func sectionPosition(_ id: Section.ID) -> Int? { state.firstIndex { $0.section.id == id } }

  /// The section and the child indexes from its roots down to the item `id`.
  @inlinable
  func path(of id: Item.ID) -> (section: Int, path: [Int])? {
    var path: [Int] = []
    func search(_ nodes: [Node]) -> Bool {
      for index in nodes.indices {
        if nodes[index].item.id == id {
          path.append(index)
          return true
        }
        if !nodes[index].children.isEmpty {
          path.append(index)
          if search(nodes[index].children) { return true }
          path.removeLast()
        }
      }
      return false
    }
    for section in state.indices where search(state[section].roots) { return (section, path) }
    return nil
  }

  @inlinable
  func node(section: Int, path: [Int]) -> Node {
    var node = state[section].roots[path[0]]
    for index in path.dropFirst() { node = node.children[index] }
    return node
  }

  /// Where the item at `path` is, as a location.
  @inlinable
  func location(section: Int, path: [Int]) -> Location {
    let container: ListItemContainer<Section.ID, Item.ID> =
      path.count == 1 ? .section(state[section].section.id) : .parent(node(section: section, path: Array(path.dropLast())).item.id)
    return Location(container, index: path[path.count - 1])
  }

  /// The section and the path of the item whose children `container` names (empty: the
  /// section's roots).
  @inlinable
  func resolve(_ container: ListItemContainer<Section.ID, Item.ID>) -> (section: Int, path: [Int])? {
    switch container {
    case .section(let id): sectionPosition(id).map { ($0, []) }
    case .parent(let id): path(of: id)
    }
  }

  // MARK: Editing

  /// Runs `body` on the sibling array under the item at `path` (the roots for an empty path).
  @inlinable
  mutating func withChildren<R>(section: Int, path: [Int], _ body: (inout [Node]) throws(HistoryError) -> R)
    throws(HistoryError) -> R
  {
    func descend(_ nodes: inout [Node], _ rest: ArraySlice<Int>) throws(HistoryError) -> R {
      guard let first = rest.first else { return try body(&nodes) }
      return try descend(&nodes[first].children, rest.dropFirst())
    }
    return try descend(&state[section].roots, path[...])
  }

  /// Runs `body` on the node at `path`.
  @inlinable
  mutating func withNode<R>(section: Int, path: [Int], _ body: (inout Node) throws(HistoryError) -> R) throws(HistoryError) -> R {
    let index = path[path.count - 1]
    return try withChildren(section: section, path: Array(path.dropLast())) { (nodes) throws(HistoryError) -> R in
      try body(&nodes[index])
    }
  }

  @inlinable
  static func check(_ condition: Bool, _ kind: String, _ reason: @autoclosure () -> String) throws(HistoryError) {
    if !condition { throw HistoryError.inconsistentEvent(reason: "\(kind): \(reason())") }
  }

  /// Applies `event`; on error the state may be left half-edited (the caller drops it).
  @inlinable
  mutating func apply(_ event: ListEvent<Section, Item>) throws(HistoryError) {
    switch event {
    case .insertSection(let section, let items, let index):
      try Self.check(sectionPosition(section.id) == nil, "insertSection", "section \(section.id) already exists")
      try Self.check(index >= 0 && index <= state.count, "insertSection", "index \(index) is out of 0...\(state.count)")
      state.insert((section, items.roots), at: index)
    case .deleteSection(let section, let items, let index):
      let position = sectionPosition(section.id)
      try Self.check(position == index, "deleteSection", "section \(section.id) is not at index \(index)")
      try Self.check(state[index].section == section, "deleteSection", "section \(section.id) does not have the recorded content")
      try Self.check(state[index].roots == items.roots, "deleteSection", "section \(section.id) does not hold the recorded items")
      state.remove(at: index)
    case .moveSection(let id, let from, let to):
      try Self.check(sectionPosition(id) == from, "moveSection", "section \(id) is not at index \(from)")
      try Self.check(to >= 0 && to < state.count, "moveSection", "index \(to) is out of 0..<\(state.count)")
      let moved = state.remove(at: from)
      state.insert(moved, at: to)
    case .updateSection(let old, let new):
      let position = sectionPosition(old.id)
      try Self.check(old.id == new.id, "updateSection", "section update changes the identifier \(old.id) to \(new.id)")
      try Self.check(position.map { state[$0].section == old } ?? false, "updateSection", "section \(old.id) does not have the recorded old content")
      state[position!].section = new
    case .replaceSection(let old, let new):
      let position = sectionPosition(old.id)
      try Self.check(position.map { state[$0].section == old } ?? false, "replaceSection", "section \(old.id) does not have the recorded old content")
      try Self.check(new.id == old.id || sectionPosition(new.id) == nil, "replaceSection", "section \(new.id) already exists")
      state[position!].section = new
    case .reloadSections(let ids):
      for id in ids { try Self.check(sectionPosition(id) != nil, "reloadSections", "unknown section \(id)") }
    case .insertItems(let outline, let location):
      guard let container = resolve(location.container) else {
        throw HistoryError.inconsistentEvent(reason: "insertItems: unknown container \(location.container)")
      }
      try withChildren(section: container.section, path: container.path) { (nodes) throws(HistoryError) in
        try Self.check(location.index >= 0 && location.index <= nodes.count, "insertItems", "index \(location.index) is out of 0...\(nodes.count)")
        nodes.insert(contentsOf: outline.roots, at: location.index)
      }
    case .deleteItems(let outline, let location):
      guard let container = resolve(location.container) else {
        throw HistoryError.inconsistentEvent(reason: "deleteItems: unknown container \(location.container)")
      }
      try withChildren(section: container.section, path: container.path) { (nodes) throws(HistoryError) in
        let range = location.index..<(location.index + outline.roots.count)
        try Self.check(location.index >= 0 && range.upperBound <= nodes.count, "deleteItems", "items \(range) are out of 0..<\(nodes.count)")
        try Self.check(nodes[range].elementsEqual(outline.roots), "deleteItems", "the items at \(location) are not the recorded subtrees")
        nodes.removeSubrange(range)
      }
    case .moveItem(let id, let from, let to):
      guard let found = path(of: id) else { throw HistoryError.inconsistentEvent(reason: "moveItem: unknown item \(id)") }
      try Self.check(location(section: found.section, path: found.path) == from, "moveItem", "item \(id) is not at \(from)")
      let moved = try withChildren(section: found.section, path: Array(found.path.dropLast())) { nodes in
        nodes.remove(at: found.path[found.path.count - 1])
      }
      // Resolved after the removal: a target inside the moved subtree is not found.
      guard let target = resolve(to.container) else {
        throw HistoryError.inconsistentEvent(reason: "moveItem: unknown container \(to.container), or inside item \(id)")
      }
      try withChildren(section: target.section, path: target.path) { (nodes) throws(HistoryError) in
        try Self.check(to.index >= 0 && to.index <= nodes.count, "moveItem", "index \(to.index) is out of 0...\(nodes.count)")
        nodes.insert(moved, at: to.index)
      }
    case .updateItem(let old, let new):
      try Self.check(old.id == new.id, "updateItem", "item update changes the identifier \(old.id) to \(new.id)")
      try replace(old, with: new, "updateItem")
    case .replaceItem(let old, let new):
      if new.id != old.id { try Self.check(path(of: new.id) == nil, "replaceItem", "item \(new.id) already exists") }
      try replace(old, with: new, "replaceItem")
    case .expand(let id, let wasExpanded):
      try setExpanded(id, true, wasExpanded: wasExpanded, "expand")
    case .collapse(let id, let wasExpanded):
      try setExpanded(id, false, wasExpanded: wasExpanded, "collapse")
    case .reloadItems(let ids), .reconfigureItems(let ids):
      for id in ids { try Self.check(path(of: id) != nil, event.kindName, "unknown item \(id)") }
    }
  }

  @inlinable
  mutating func replace(_ old: Item, with new: Item, _ kind: String) throws(HistoryError) {
    guard let found = path(of: old.id) else { throw HistoryError.inconsistentEvent(reason: "\(kind): unknown item \(old.id)") }
    try withNode(section: found.section, path: found.path) { (node) throws(HistoryError) in
      try Self.check(node.item == old, kind, "item \(old.id) does not have the recorded old content")
      node.item = new
    }
  }

  @inlinable
  mutating func setExpanded(_ id: Item.ID, _ expanded: Bool, wasExpanded: Bool, _ kind: String) throws(HistoryError) {
    guard let found = path(of: id) else { throw HistoryError.inconsistentEvent(reason: "\(kind): unknown item \(id)") }
    try withNode(section: found.section, path: found.path) { (node) throws(HistoryError) in
      try Self.check(node.isExpanded == wasExpanded, kind, "item \(id) expansion is not as recorded")
      node.isExpanded = expanded
    }
  }
}
