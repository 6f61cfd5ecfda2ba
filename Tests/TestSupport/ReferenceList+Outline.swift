import ListState

// Outline operations and reordering by visible index path, in the reference model.

extension ReferenceList {
  public mutating func expand(_ ids: [Item.ID]) throws(Failure) {
    try check(existingItemsProblems(ids))
    for id in ids { modifyNode(id) { $0.isExpanded = true } }
  }

  public mutating func collapse(_ ids: [Item.ID]) throws(Failure) {
    try check(existingItemsProblems(ids))
    for id in ids { modifyNode(id) { $0.isExpanded = false } }
  }

  func replaceChildrenProblems(of parent: Item.ID, using outline: Outline) -> [Failure] {
    let ids = outline.itemIdentifiers
    // Identifiers of the subtrees being replaced may come back; anything else must be new.
    let replaced = Set(subtree(of: parent).dropFirst())
    let existing = ids.filter { contains(item: $0) && !replaced.contains($0) }.uniquedInOrder()
    var problems = unknownItemProblems([parent]) + duplicateItemProblems(ids)
    if !existing.isEmpty { problems.append(.itemsAlreadyExist(existing)) }
    if ids.contains(parent) { problems.append(.anchorAmongInsertedItems(parent)) }
    return problems
  }

  /// Deletes all children of `parent` (with their markers) and puts `outline` in their place.
  public mutating func replace(childrenOf parent: Item.ID, using outline: Outline) throws(Failure) {
    try check(replaceChildrenProblems(of: parent, using: outline))
    dropItemMarkers(Array(subtree(of: parent).dropFirst()))
    modifyNode(parent) { $0.children = outline.roots }
  }

  public mutating func insert(_ outline: Outline, beforeItem anchor: Item.ID) throws(Failure) {
    try check(insertRelativeProblems(outline.itemIdentifiers, anchor: anchor))
    insertSiblings(outline.roots, anchor: anchor, after: false)
  }

  public mutating func insert(_ outline: Outline, afterItem anchor: Item.ID) throws(Failure) {
    try check(insertRelativeProblems(outline.itemIdentifiers, anchor: anchor))
    insertSiblings(outline.roots, anchor: anchor, after: true)
  }

  public mutating func append(_ outline: Outline, toSection section: Section.ID? = nil) throws(Failure) {
    try check(appendProblems(outline.itemIdentifiers, toSection: section))
    appendRoots(outline.roots, toSection: section)
  }

  public mutating func append(_ outline: Outline, underParent parent: Item.ID) throws(Failure) {
    try check(appendUnderParentProblems(outline.itemIdentifiers, parent: parent))
    modifyNode(parent) { $0.children += outline.roots }
  }

  func insertAtLocationProblems(_ outline: Outline, location: Location) -> [Failure] {
    let ids = outline.itemIdentifiers
    var problems = newItemProblems(ids)
    switch location.container {
    case .section(let section): problems += unknownSectionProblems([section])
    case .parent(let parent):
      problems += unknownItemProblems([parent])
      if ids.contains(parent) { problems.append(.anchorAmongInsertedItems(parent)) }
    }
    if let siblings = children(of: location.container), !(0...siblings.count).contains(location.index) {
      problems.append(.indexOutOfRange(index: location.index, count: siblings.count))
    }
    return problems
  }

  /// The outline's first root lands at `location`.
  public mutating func insert(_ outline: Outline, at location: Location) throws(Failure) {
    try check(insertAtLocationProblems(outline, location: location))
    insertNodes(outline.roots, into: location.container, at: location.index)
  }

  /// Where ``moveVisibleRow(from:to:)`` puts the row: before a sibling, or last root of a section.
  enum VisibleRowTarget: Equatable {
    case before(Item.ID)
    case lastRoot(Section.ID)
  }

  /// The moved item and its target, or every problem with the index paths.
  func moveVisibleRowPlan(from source: ListIndexPath, to destination: ListIndexPath)
    -> Result<(item: Item.ID, target: VisibleRowTarget), ProblemList>
  {
    let sourceError = Failure.indexPathOutOfRange(section: source.section, row: source.row)
    let destinationError = Failure.indexPathOutOfRange(section: destination.section, row: destination.row)
    guard entries.indices.contains(destination.section) else {
      let sourceBad = visibleItem(at: source) == nil
      return .failure(ProblemList(sourceBad ? [sourceError, destinationError] : [destinationError]))
    }
    let destinationSection = entries[destination.section].section.id
    guard let moved = visibleItem(at: source) else {
      // The remaining row count is unknown without a moved row; accept a destination complaint
      // only when the destination is out of range even before any removal.
      let visibleCount = visibleItems(inSection: destinationSection).count
      let destinationBad = !(0...visibleCount).contains(destination.row)
      return .failure(ProblemList(destinationBad ? [sourceError, destinationError] : [sourceError]))
    }
    let movedSubtree = Set(subtree(of: moved))
    let remaining = visibleItems(inSection: destinationSection).filter { !movedSubtree.contains($0) }
    if destination.row >= 0, destination.row < remaining.count {
      return .success((moved, .before(remaining[destination.row])))
    } else if destination.row == remaining.count || destination.row == visibleItems(inSection: destinationSection).count {
      // The end position: the remaining rows' count, or the section's row count before the move.
      return .success((moved, .lastRoot(destinationSection)))
    }
    return .failure(ProblemList([destinationError]))
  }

  /// A list of problems as an `Error` (for `Result`).
  struct ProblemList: Error {
    var problems: [Failure]
    init(_ problems: [Failure]) { self.problems = problems }
  }

  func moveVisibleRowProblems(from source: ListIndexPath, to destination: ListIndexPath) -> [Failure] {
    switch moveVisibleRowPlan(from: source, to: destination) {
    case .success: return []
    case .failure(let list): return list.problems
    }
  }

  /// The visible row at `source` (with its subtree) moves so that it ends at `destination` of
  /// the final layout: before the row now there (as its sibling), or, when `destination.row`
  /// equals the section's remaining row count or its row count before the move, as the
  /// section's last root item.
  public mutating func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure) {
    switch moveVisibleRowPlan(from: source, to: destination) {
    case .failure(let list): throw list.problems[0]
    case .success(let plan):
      switch plan.target {
      case .before(let anchor): try moveItem(plan.item, beforeItem: anchor)
      case .lastRoot(let section): try moveItem(plan.item, toSection: section)
      }
    }
  }
}
