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
    let contentIsIdentity = Item.self == Item.ID.self
    var survivorChecks = SurvivorChecks(
      compareContent: !contentIsIdentity, compareExpansion: expansion == .fromTarget)
    for id in targetSections {
      let roots = target.rootItems(inSection: id)
      if target.numberOfItems(inSection: id) == roots.count {
        try placeFlatSection(id, as: roots, from: target, checks: &survivorChecks)
      } else {
        try placeChildren(of: .section(id), as: target.outline(ofSection: id)?.roots ?? [], checks: &survivorChecks)
      }
    }

    // What the target does not have: items (top-most only), then the emptied sections. Every
    // target item is present now, so equal counts mean nothing is left over.
    if working.numberOfItems != target.numberOfItems {
      var doomedItems: [Item.ID] = []
      for id in working.itemIdentifiers where !target.contains(item: id) {
        if let parent = working.parent(of: id), !target.contains(item: parent) { continue }
        if let section = working.sectionIdentifier(containingItem: id), targetSectionIndex[section] == nil { continue }
        doomedItems.append(id)
      }
      if !doomedItems.isEmpty { try perform(.deleteItems(doomedItems)) }
    }
    let doomedSections = working.sectionIdentifiers.filter { targetSectionIndex[$0] == nil }
    if !doomedSections.isEmpty { try perform(.deleteSections(doomedSections)) }

    // Contents, expansion and markers of surviving items.
    if !survivorChecks.updated.isEmpty { try perform(.updateItems(survivorChecks.updated)) }
    if !survivorChecks.expand.isEmpty { try perform(.expand(survivorChecks.expand)) }
    if !survivorChecks.collapse.isEmpty { try perform(.collapse(survivorChecks.collapse)) }
    let updatedIDs = Set(survivorChecks.updated.map(\.id))
    let reloads = target.reloadedItemIdentifiers.filter { original.contains(item: $0) && !updatedIDs.contains($0) }
    if !reloads.isEmpty { try perform(.reloadItems(reloads.sorted { "\($0)" < "\($1)" })) }
    let reconfigures = target.reconfiguredItemIdentifiers.filter { original.contains(item: $0) }
    if !reconfigures.isEmpty { try perform(.reconfigureItems(reconfigures.sorted { "\($0)" < "\($1)" })) }
    let sectionReloads = target.reloadedSectionIdentifiers.filter {
      original.contains(section: $0) && original.section($0) == target.section($0)
    }
    if !sectionReloads.isEmpty { try perform(.reloadSections(sectionReloads.sorted { "\($0)" < "\($1)" })) }
  }

  /// What surviving items need besides their place: new content, new expansion.
  @usableFromInline
  struct SurvivorChecks {
    @usableFromInline
    var compareContent: Bool
    @usableFromInline
    var compareExpansion: Bool
    @usableFromInline
    var updated: [Item] = []
    @usableFromInline
    var expand: [Item.ID] = []
    @usableFromInline
    var collapse: [Item.ID] = []

    @inlinable
    init(compareContent: Bool, compareExpansion: Bool) {
      self.compareContent = compareContent
      self.compareExpansion = compareExpansion
    }
  }

  /// Makes the target nodes the children of `container`, in order (children the target puts
  /// elsewhere or drops may stay interleaved until moved or deleted), then recurses into them.
  @inlinable
  mutating func placeChildren(
    of container: Snapshot.Container, as nodes: [Snapshot.Outline.Node], checks: inout SurvivorChecks
  ) throws(Failure) {
    let targetChildren = nodes.map(\.item.id)
    var inserted = Set<Item.ID>()
    try arrange(container, targetChildren) { position, working in Self.newOnly(nodes[position], in: working, into: &inserted) }
    for node in nodes {
      let id = node.item.id
      if !inserted.contains(id) { check(id, target: node.item, isExpanded: node.isExpanded, &checks) }
      if !node.children.isEmpty { try placeChildren(of: .parent(id), as: node.children, checks: &checks) }
    }
  }

  /// ``placeChildren(of:as:checks:)`` for a section whose target items are all roots: no outline
  /// is built; item values and flags are read only for new items and the survivor checks.
  @inlinable
  mutating func placeFlatSection(
    _ section: Section.ID, as targetChildren: [Item.ID], from target: Snapshot, checks: inout SurvivorChecks
  ) throws(Failure) {
    var inserted = Set<Item.ID>()
    try arrange(.section(section), targetChildren) { position, _ in
      let id = targetChildren[position]
      inserted.insert(id)
      return Snapshot.Outline.Node(target.item(id)!, isExpanded: target.isExpanded(id))
    }
    guard checks.compareContent || checks.compareExpansion else { return }
    for id in targetChildren where !inserted.contains(id) {
      check(id, target: target.item(id)!, isExpanded: target.isExpanded(id), &checks)
    }
  }

  /// Records what a surviving item needs besides its place.
  @inlinable
  func check(_ id: Item.ID, target item: Item, isExpanded: Bool, _ checks: inout SurvivorChecks) {
    if checks.compareContent, let current = working.item(id), current != item { checks.updated.append(item) }
    if checks.compareExpansion, working.isExpanded(id) != isExpanded {
      if isExpanded { checks.expand.append(id) } else { checks.collapse.append(id) }
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
    var targetIndex = [Item.ID: Int](minimumCapacity: targetChildren.count)
    for (index, id) in targetChildren.enumerated() { targetIndex[id] = index }
    let sequence = current.compactMap { targetIndex[$0] }
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
  /// under it later); records every identifier it carries in `inserted`.
  @inlinable
  static func newOnly(
    _ node: Snapshot.Outline.Node, in working: Snapshot, into inserted: inout Set<Item.ID>
  ) -> Snapshot.Outline.Node {
    inserted.insert(node.item.id)
    var copy = node
    copy.children = node.children.filter { !working.contains(item: $0.item.id) }.map { newOnly($0, in: working, into: &inserted) }
    return copy
  }
}
