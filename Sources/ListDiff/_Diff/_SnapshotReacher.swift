import ListState

/// Computes and performs, on a working copy, the operations that reach a target snapshot; see
/// ``ListSnapshot/operations(toReach:expansion:)``.
struct _SnapshotReacher<Section: ListElement, Item: ListElement> {
  typealias Snapshot = ListSnapshot<Section, Item>
  typealias Failure = Snapshot.Failure
  typealias Operation = ListSnapshotOperation<Section, Item>

  var working: Snapshot
  var operations: [Operation] = []

  init(working: Snapshot) { self.working = working }

  mutating func perform(_ operation: Operation) throws(Failure) {
    try operation.apply(to: &working)
    operations.append(operation)
  }

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

    // Items, container by container, top down: every surviving item moves straight to its place.
    for id in targetSections {
      try placeChildren(of: .section(id), as: target.rootItems(inSection: id), from: target)
    }

    // What the target does not have: items (top-most only), then the emptied sections.
    var doomedItems: [Item.ID] = []
    for id in working.itemIdentifiers where !target.contains(item: id) {
      if let parent = working.parent(of: id), !target.contains(item: parent) { continue }
      if let section = working.sectionIdentifier(containingItem: id), targetSectionIndex[section] == nil { continue }
      doomedItems.append(id)
    }
    if !doomedItems.isEmpty { try perform(.deleteItems(doomedItems)) }
    let doomedSections = working.sectionIdentifiers.filter { targetSectionIndex[$0] == nil }
    if !doomedSections.isEmpty { try perform(.deleteSections(doomedSections)) }

    // Contents, expansion and markers of surviving items.
    var updated: [Item] = []
    var expand: [Item.ID] = []
    var collapse: [Item.ID] = []
    let contentIsIdentity = Item.self == Item.ID.self
    if !contentIsIdentity || expansion == .fromTarget {
      for id in target.itemIdentifiers where original.contains(item: id) {
        if !contentIsIdentity, let item = target.item(id), original.item(id) != item { updated.append(item) }
        if expansion == .fromTarget, working.isExpanded(id) != target.isExpanded(id) {
          if target.isExpanded(id) { expand.append(id) } else { collapse.append(id) }
        }
      }
    }
    if !updated.isEmpty { try perform(.updateItems(updated)) }
    if !expand.isEmpty { try perform(.expand(expand)) }
    if !collapse.isEmpty { try perform(.collapse(collapse)) }
    let updatedIDs = Set(updated.map(\.id))
    let reloads = target.reloadedItemIdentifiers.filter { original.contains(item: $0) && !updatedIDs.contains($0) }
    if !reloads.isEmpty { try perform(.reloadItems(reloads.sorted { "\($0)" < "\($1)" })) }
    let reconfigures = target.reconfiguredItemIdentifiers.filter { original.contains(item: $0) }
    if !reconfigures.isEmpty { try perform(.reconfigureItems(reconfigures.sorted { "\($0)" < "\($1)" })) }
    let sectionReloads = target.reloadedSectionIdentifiers.filter {
      original.contains(section: $0) && original.section($0) == target.section($0)
    }
    if !sectionReloads.isEmpty { try perform(.reloadSections(sectionReloads.sorted { "\($0)" < "\($1)" })) }
  }

  /// Makes the target children of `container` its children, in order (other children may stay
  /// interleaved until deleted), then recurses into them.
  private mutating func placeChildren(
    of container: Snapshot.Container, as targetChildren: [Item.ID], from target: Snapshot
  ) throws(Failure) {
    let current: [Item.ID]
    switch container {
    case .section(let id): current = working.rootItems(inSection: id)
    case .parent(let id): current = working.children(of: id)
    }
    if current != targetChildren {
      var targetIndex = [Item.ID: Int](minimumCapacity: targetChildren.count)
      for (index, id) in targetChildren.enumerated() { targetIndex[id] = index }
      let sequence = current.compactMap { targetIndex[$0] }
      let inPlace = _longestIncreasingSubsequenceMembership(sequence)
      var staying = Set<Item.ID>()
      for (index, position) in sequence.enumerated() where inPlace[index] { staying.insert(targetChildren[position]) }
      for (position, id) in targetChildren.enumerated() where !staying.contains(id) {
        var destination = 0
        if position > 0, let previous = working.location(ofItem: targetChildren[position - 1]) {
          destination = previous.index + 1
        }
        if let location = working.location(ofItem: id) {
          if location.container == container, location.index < destination { destination -= 1 }
          try perform(.moveItem(id, to: Snapshot.Location(container, index: destination)))
        } else if let item = target.item(id) {
          try perform(.insertItem(item, isExpanded: target.isExpanded(id), at: Snapshot.Location(container, index: destination)))
        }
      }
    }
    for id in targetChildren {
      let grandchildren = target.children(of: id)
      if !grandchildren.isEmpty || !working.children(of: id).isEmpty {
        try placeChildren(of: .parent(id), as: grandchildren, from: target)
      }
    }
  }
}
