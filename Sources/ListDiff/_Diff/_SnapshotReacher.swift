import ListState

/// Computes and performs, on a working copy, the operations that reach a target snapshot; see
/// ``ListSnapshot/operations(toReach:expansion:)``.
///
/// Inlinable, like the rest of the diff, so that a client specializes it for its element types
/// (unspecialized, every snapshot operation below it paid generic metadata lookups).
@usableFromInline
struct _SnapshotReacher<Section: ListElement, Item: ListElement> {
  @usableFromInline
  typealias Snapshot = ListSnapshot<Section, Item>
  @usableFromInline
  typealias Failure = Snapshot.Failure
  @usableFromInline
  typealias Operation = ListSnapshotOperation<Section, Item>

  @usableFromInline
  var working: Snapshot
  @usableFromInline
  var operations: [Operation] = []

  @inlinable
  init(working: Snapshot) { self.working = working }

  @inlinable
  mutating func perform(_ operation: Operation) throws(Failure) {
    try operation.apply(to: &working)
    operations.append(operation)
  }

  @inlinable
  mutating func reach(_ target: Snapshot, expansion: ListExpansionPolicy) throws(Failure) {
    let original = working

    // Sections: order the survivors (minimal moves), insert the new ones, update contents.
    let targetSections = target.sectionIdentifiers
    var targetSectionIndex = [Section.ID: Int](minimumCapacity: targetSections.count)
    for (index, id) in targetSections.enumerated() { targetSectionIndex[id] = index }
    let survivors = working.sectionIdentifiers.filter { targetSectionIndex[$0] != nil }
    let inPlace = _longestIncreasingSubsequenceMembership(survivors.map { targetSectionIndex[$0]! })
    var staying = Set<Section.ID>()
    for (index, id) in survivors.enumerated() where inPlace[index] { staying.insert(id) }
    var previous: Section.ID? = nil
    for id in targetSections where working.contains(section: id) {
      if !staying.contains(id) {
        var destination = 0
        if let previous, let previousIndex = working.index(ofSection: previous), let current = working.index(ofSection: id) {
          destination = previousIndex + (current < previousIndex ? 0 : 1)
        }
        try perform(.moveSection(id, toIndex: destination))
      }
      previous = id
    }
    previous = nil
    for id in targetSections {
      if !working.contains(section: id), let section = target.section(id) {
        try perform(.insertSection(section, at: previous.flatMap { working.index(ofSection: $0) }.map { $0 + 1 } ?? 0))
      } else if let section = target.section(id), working.section(id) != section {
        try perform(.updateSection(section))
      }
      previous = id
    }

    // Items, container by container, top down along the target's outline: every surviving item
    // moves straight to its place; runs of new items are inserted as one outline each.
    for id in targetSections {
      let roots = target.rootItems(inSection: id)
      if target.numberOfItems(inSection: id) == roots.count {
        try placeFlatSection(id, as: roots, from: target)
      } else {
        try placeChildren(of: .section(id), as: target.outline(ofSection: id)?.roots ?? [])
      }
    }

    // What the target does not have: items (top-most only), then the emptied sections. Every
    // target item is present now, so equal counts mean nothing is left over. The working list
    // is now the target's, in the target's order, with the leftovers interleaved: matching the
    // two in order finds them without a lookup per item.
    if working.numberOfItems != target.numberOfItems {
      let workingItems = working.itemIdentifiers
      let (_, kept) = _RowMatcher.match(workingItems, target.itemIdentifiers)
      var doomedItems: [Item.ID] = []
      for (index, id) in workingItems.enumerated() where !kept[index] {
        if let parent = working.parent(of: id), !target.contains(item: parent) { continue }
        if let section = working.sectionIdentifier(containingItem: id), targetSectionIndex[section] == nil { continue }
        doomedItems.append(id)
      }
      if !doomedItems.isEmpty { try perform(.deleteItems(doomedItems)) }
    }
    let doomedSections = working.sectionIdentifiers.filter { targetSectionIndex[$0] == nil }
    if !doomedSections.isEmpty { try perform(.deleteSections(doomedSections)) }

    // Contents, expansion and markers of surviving items.
    let changes = Self.survivorChanges(from: original, to: target, compareExpansion: expansion == .fromTarget)
    if !changes.updated.isEmpty { try perform(.updateItems(changes.updated)) }
    if !changes.expand.isEmpty { try perform(.expand(changes.expand)) }
    if !changes.collapse.isEmpty { try perform(.collapse(changes.collapse)) }
    let updatedIDs = Set(changes.updated.map(\.id))
    let reloads = target.reloadedItemIdentifiers.filter { original.contains(item: $0) && !updatedIDs.contains($0) }
    if !reloads.isEmpty { try perform(.reloadItems(reloads.sorted { "\($0)" < "\($1)" })) }
    let reconfigures = target.reconfiguredItemIdentifiers.filter { original.contains(item: $0) }
    if !reconfigures.isEmpty { try perform(.reconfigureItems(reconfigures.sorted { "\($0)" < "\($1)" })) }
    let sectionReloads = target.reloadedSectionIdentifiers.filter {
      original.contains(section: $0) && original.section($0) == target.section($0)
    }
    if !sectionReloads.isEmpty { try perform(.reloadSections(sectionReloads.sorted { "\($0)" < "\($1)" })) }
  }

  /// What items present in both snapshots need besides their place: new content, and (when
  /// `compareExpansion`) a new expansion state — in the target's list order (pre-order across
  /// sections), the order the operations list them in.
  ///
  /// One pass over both snapshots' records finds them (storage the two share is skipped), not
  /// three lookups per surviving item; then they are put in order by position lookups when few,
  /// by a walk over the target's items when many.
  ///
  /// - Complexity: O(n) sequential, plus O(k log n) for k changed items (or O(n) when many).
  @inlinable
  static func survivorChanges(from original: Snapshot, to target: Snapshot, compareExpansion: Bool)
    -> (updated: [Item], expand: [Item.ID], collapse: [Item.ID])
  {
    let compareContent = Item.self != Item.ID.self  // otherwise the content is the identifier
    guard compareContent || compareExpansion else { return ([], [], []) }
    var changed: [(item: Item, contentChanged: Bool, expansion: Bool?)] = []
    original._forEachChangedItem(comparedTo: target) { old, oldIsExpanded, new, newIsExpanded in
      let contentChanged = compareContent && old != new
      let expansion = compareExpansion && oldIsExpanded != newIsExpanded ? newIsExpanded : nil
      if contentChanged || expansion != nil { changed.append((new, contentChanged, expansion)) }
    }
    guard !changed.isEmpty else { return ([], [], []) }
    var order: [Int] = []
    if changed.count * 16 <= target.numberOfItems {
      let positions = changed.map { target.index(ofItem: $0.item.id) ?? 0 }
      order = changed.indices.sorted { positions[$0] < positions[$1] }
    } else {
      var slot = [Item.ID: Int](minimumCapacity: changed.count)
      for (index, change) in changed.enumerated() { slot[change.item.id] = index }
      order.reserveCapacity(changed.count)
      for id in target.itemIdentifiers {
        if let index = slot[id] { order.append(index) }
      }
    }
    var result: (updated: [Item], expand: [Item.ID], collapse: [Item.ID]) = ([], [], [])
    for index in order {
      let change = changed[index]
      if change.contentChanged { result.updated.append(change.item) }
      switch change.expansion {
      case true?: result.expand.append(change.item.id)
      case false?: result.collapse.append(change.item.id)
      case nil: break
      }
    }
    return result
  }

  /// Makes the target nodes the children of `container`, in order (children the target puts
  /// elsewhere or drops may stay interleaved until moved or deleted), then recurses into them.
  @inlinable
  mutating func placeChildren(of container: Snapshot.Container, as nodes: [Snapshot.Outline.Node]) throws(Failure) {
    let targetChildren = nodes.map(\.item.id)
    try arrange(container, targetChildren) { position, working in Self.newOnly(nodes[position], in: working) }
    for node in nodes where !node.children.isEmpty {
      try placeChildren(of: .parent(node.item.id), as: node.children)
    }
  }

  /// ``placeChildren(of:as:)`` for a section whose target items are all roots: no outline is
  /// built; item values and flags are read only for new items.
  @inlinable
  mutating func placeFlatSection(_ section: Section.ID, as targetChildren: [Item.ID], from target: Snapshot) throws(Failure) {
    try arrange(.section(section), targetChildren) { position, _ in
      let id = targetChildren[position]
      return Snapshot.Outline.Node(target.item(id)!, isExpanded: target.isExpanded(id))
    }
  }

  /// Puts `targetChildren` into `container` in order: a longest increasing run of those already
  /// there stays, every other survivor moves right after its predecessor, and each run of new
  /// items is inserted as one outline (`newNode(position, working)` builds the node of a new item).
  @inlinable
  mutating func arrange(
    _ container: Snapshot.Container, _ targetChildren: [Item.ID], newNode: (Int, Snapshot) -> Snapshot.Outline.Node
  ) throws(Failure) {
    let current: [Item.ID]
    switch container {
    case .section(let id): current = working.rootItems(inSection: id)
    case .parent(let id): current = working.children(of: id)
    }
    guard current != targetChildren else { return }
    // Per current child in order, its target position (mostly aligned: matched in place).
    let (targetToCurrent, _) = _RowMatcher.match(current, targetChildren)
    var currentToTarget = [Int](repeating: -1, count: current.count)
    for (position, source) in targetToCurrent.enumerated() where source >= 0 { currentToTarget[source] = position }
    let sequence = currentToTarget.filter { $0 >= 0 }
    let inPlace = _longestIncreasingSubsequenceMembership(sequence)
    var staying = [Bool](repeating: false, count: targetChildren.count)
    for (index, position) in sequence.enumerated() where inPlace[index] { staying[position] = true }
    var position = 0
    while position < targetChildren.count {
      let id = targetChildren[position]
      if staying[position] {
        position += 1
        continue
      }
      var destination = 0
      if position > 0, let previous = working.location(ofItem: targetChildren[position - 1]) {
        destination = previous.index + 1
      }
      if let location = working.location(ofItem: id) {
        if location.container == container, location.index < destination { destination -= 1 }
        try perform(.moveItem(id, to: Snapshot.Location(container, index: destination)))
        position += 1
      } else {
        var run: [Snapshot.Outline.Node] = []
        while position < targetChildren.count, !working.contains(item: targetChildren[position]) {
          run.append(newNode(position, working))
          position += 1
        }
        try perform(.insertItems(ListOutline(run), at: Snapshot.Location(container, index: destination)))
      }
    }
  }

  /// `node` with only its descendants that are new to the working snapshot (survivors are moved
  /// under it later).
  @inlinable
  static func newOnly(_ node: Snapshot.Outline.Node, in working: Snapshot) -> Snapshot.Outline.Node {
    var copy = node
    copy.children = node.children.filter { !working.contains(item: $0.item.id) }.map { newOnly($0, in: working) }
    return copy
  }
}
