import ListState

extension ListStore.Transaction {
  // The flags before the change are read first: keeping a copy of the working snapshot
  // instead would make the change copy every node it touches (the nodes would be shared).
  public mutating func expand(_ ids: [Item.ID]) throws(Failure) {
    let before = ids.map { snapshot.isExpanded($0) }
    try snapshot.expand(ids)
    var seen = Set<Item.ID>()
    for (id, wasExpanded) in zip(ids, before) {
      let was = seen.contains(id) || wasExpanded
      if ids.count > 1 { seen.insert(id) }
      record(.expand(id, wasExpanded: was))
    }
  }

  public mutating func collapse(_ ids: [Item.ID]) throws(Failure) {
    let before = ids.map { snapshot.isExpanded($0) }
    try snapshot.collapse(ids)
    var seen = Set<Item.ID>()
    for (id, wasExpanded) in zip(ids, before) {
      let was = !seen.contains(id) && wasExpanded
      if ids.count > 1 { seen.insert(id) }
      record(.collapse(id, wasExpanded: was))
    }
  }

  /// Replaces all children of `parent`; recorded as one delete per old child, then one insert.
  public mutating func replace(childrenOf parent: Item.ID, using outline: Outline) throws(Failure) {
    let old = snapshot.outline(of: parent)
    try snapshot.replace(childrenOf: parent, using: outline)
    let location = Location(.parent(parent), index: 0)
    for root in old?.roots ?? [] { record(.deleteItems(ListOutline([root]), from: location)) }
    if !outline.roots.isEmpty { record(.insertItems(outline, at: location)) }
  }

  public mutating func insert(_ outline: Outline, beforeItem anchor: Item.ID) throws(Failure) {
    try snapshot.insert(outline, beforeItem: anchor)
    recordInserted(outline)
  }

  public mutating func insert(_ outline: Outline, afterItem anchor: Item.ID) throws(Failure) {
    try snapshot.insert(outline, afterItem: anchor)
    recordInserted(outline)
  }

  public mutating func append(_ outline: Outline, toSection section: Section.ID? = nil) throws(Failure) {
    try snapshot.append(outline, toSection: section)
    recordInserted(outline)
  }

  public mutating func append(_ outline: Outline, underParent parent: Item.ID) throws(Failure) {
    try snapshot.append(outline, underParent: parent)
    recordInserted(outline)
  }

  public mutating func insert(_ outline: Outline, at location: Location) throws(Failure) {
    try snapshot.insert(outline, at: location)
    recordInserted(outline)
  }
}
