import ListState

// Item operations of the reference model: same names, arguments and meaning as ListSnapshot.

extension ReferenceList {
  func appendProblems(_ ids: [Item.ID], toSection section: Section.ID?) -> [Failure] {
    var problems = newItemProblems(ids)
    if let section {
      problems += unknownSectionProblems([section])
    } else if entries.isEmpty {
      problems.append(.noSections)
    }
    return problems
  }

  func appendUnderParentProblems(_ ids: [Item.ID], parent: Item.ID) -> [Failure] {
    var problems = newItemProblems(ids) + unknownItemProblems([parent])
    if ids.contains(parent) { problems.append(.anchorAmongInsertedItems(parent)) }
    return problems
  }

  func insertRelativeProblems(_ ids: [Item.ID], anchor: Item.ID) -> [Failure] {
    var problems = newItemProblems(ids) + unknownItemProblems([anchor])
    if ids.contains(anchor) { problems.append(.anchorAmongInsertedItems(anchor)) }
    return problems
  }

  /// Appends nodes as roots of `section` (default: the last section); validated by the caller.
  mutating func appendRoots(_ nodes: [Node], toSection section: Section.ID?) {
    let index = section.map { self.index(ofSection: $0)! } ?? entries.count - 1
    entries[index].roots += nodes
  }

  /// Inserts nodes as siblings before or after `anchor`; validated by the caller.
  mutating func insertSiblings(_ nodes: [Node], anchor: Item.ID, after: Bool) {
    let (section, path) = find(anchor)!
    insertNodes(nodes, into: container(section: section, path: path), at: path[path.count - 1] + (after ? 1 : 0))
  }

  /// Appends root items (collapsed) to `section`, default the last section.
  public mutating func appendItems(_ items: [Item], toSection section: Section.ID? = nil) throws(Failure) {
    try check(appendProblems(items.map { $0.id }, toSection: section))
    appendRoots(items.map { Node($0) }, toSection: section)
  }

  public mutating func appendItems(_ items: [Item], underParent parent: Item.ID) throws(Failure) {
    try check(appendUnderParentProblems(items.map { $0.id }, parent: parent))
    modifyNode(parent) { $0.children += items.map { Node($0) } }
  }

  public mutating func insertItems(_ items: [Item], beforeItem anchor: Item.ID) throws(Failure) {
    try check(insertRelativeProblems(items.map { $0.id }, anchor: anchor))
    insertSiblings(items.map { Node($0) }, anchor: anchor, after: false)
  }

  public mutating func insertItems(_ items: [Item], afterItem anchor: Item.ID) throws(Failure) {
    try check(insertRelativeProblems(items.map { $0.id }, anchor: anchor))
    insertSiblings(items.map { Node($0) }, anchor: anchor, after: true)
  }

  func existingItemsProblems(_ ids: [Item.ID]) -> [Failure] {
    duplicateItemProblems(ids) + unknownItemProblems(ids)
  }

  /// Deletes items with their subtrees (an item listed after its own ancestor is already gone).
  public mutating func deleteItems(_ ids: [Item.ID]) throws(Failure) {
    try check(existingItemsProblems(ids))
    deleteItemsIfPresent(ids)
  }

  public mutating func deleteItemsIfPresent(_ ids: [Item.ID]) {
    for id in ids where contains(item: id) { _ = removeNode(id, dropMarkers: true) }
  }

  /// Removes every item and every section, with all markers.
  public mutating func deleteAllItems() { self = ReferenceList() }

  public mutating func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws(Failure) {
    try check(relativeMoveProblems(id, anchor))
    let node = removeNode(id, dropMarkers: false)
    insertSiblings([node], anchor: anchor, after: false)
  }

  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(Failure) {
    try check(relativeMoveProblems(id, anchor))
    let node = removeNode(id, dropMarkers: false)
    insertSiblings([node], anchor: anchor, after: true)
  }

  func moveToSectionProblems(_ id: Item.ID, section: Section.ID) -> [Failure] {
    unknownItemProblems([id]) + unknownSectionProblems([section])
  }

  public mutating func moveItem(_ id: Item.ID, toSection section: Section.ID) throws(Failure) {
    try check(moveToSectionProblems(id, section: section))
    let node = removeNode(id, dropMarkers: false)
    appendRoots([node], toSection: section)
  }

  public mutating func moveItem(_ id: Item.ID, underParent parent: Item.ID) throws(Failure) {
    try check(relativeMoveProblems(id, parent))
    let node = removeNode(id, dropMarkers: false)
    modifyNode(parent) { $0.children.append(node) }
  }

  func moveToLocationProblems(_ id: Item.ID, location: Location) -> [Failure] {
    var problems: [Failure]
    switch location.container {
    case .section(let section):
      problems = unknownItemProblems([id]) + unknownSectionProblems([section])
    case .parent(let parent):
      problems = unknownItemProblems([id, parent])
      if parent == id {
        problems.append(.itemRelativeToItself(id))
        problems.append(.itemUnderOwnDescendant(item: id, destination: id))
      } else if subtree(of: id).contains(parent) {
        problems.append(.itemUnderOwnDescendant(item: id, destination: parent))
      }
    }
    if let siblings = children(of: location.container) {
      let count = siblings.count - (siblings.contains(id) ? 1 : 0)
      if !(0...count).contains(location.index) {
        problems.append(.indexOutOfRange(index: location.index, count: count))
      }
    }
    return problems
  }

  /// The item ends at `location`, its index counted after removing the item.
  public mutating func moveItem(_ id: Item.ID, to location: Location) throws(Failure) {
    try check(moveToLocationProblems(id, location: location))
    let node = removeNode(id, dropMarkers: false)
    insertNodes([node], into: location.container, at: location.index)
  }

  public mutating func reloadItems(_ ids: [Item.ID]) throws(Failure) {
    try check(existingItemsProblems(ids))
    reloadedItems.formUnion(ids)
  }

  public mutating func reconfigureItems(_ ids: [Item.ID]) throws(Failure) {
    try check(existingItemsProblems(ids))
    reconfiguredItems.formUnion(ids)
  }

  /// Replaces stored values (same ids); keeps position, children, expansion; marks reloaded.
  public mutating func updateItems(_ items: [Item]) throws(Failure) {
    try check(existingItemsProblems(items.map { $0.id }))
    for item in items {
      modifyNode(item.id) { $0.item = item }
      reloadedItems.insert(item.id)
    }
  }

  public mutating func updateItem(_ item: Item) throws(Failure) {
    try updateItems([item])
  }

  func replaceItemProblems(_ id: Item.ID, with newItem: Item) -> [Failure] {
    var problems = unknownItemProblems([id])
    if newItem.id != id, contains(item: newItem.id) { problems.append(.itemsAlreadyExist([newItem.id])) }
    return problems
  }

  /// `newItem` takes `id`'s exact place, children and expanded flag and is marked reloaded.
  /// With a new identifier, `id` is gone, and so are its markers; with the same identifier the
  /// row keeps its identity, so a reconfigure marker stays (the implementation's choice; the
  /// brief left it open).
  public mutating func replaceItem(_ id: Item.ID, with newItem: Item) throws(Failure) {
    try check(replaceItemProblems(id, with: newItem))
    modifyNode(id) { $0.item = newItem }
    if newItem.id != id { dropItemMarkers([id]) }
    reloadedItems.insert(newItem.id)
  }

  public mutating func clearMarkers() {
    reloadedItems = []
    reconfiguredItems = []
    reloadedSections = []
  }
}
