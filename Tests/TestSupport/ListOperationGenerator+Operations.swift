import ListState

// One builder per operation kind: a valid operation from the current state, or (when `invalid`)
// one broken in a way typical for that kind.

extension ListOperationGenerator {
  mutating func make<R: RandomNumberGenerator>(
    _ name: String, invalid: Bool, state: inout State, using rng: inout R
  ) -> Operation {
    func coin() -> Bool { Bool.random(using: &rng) }
    func count(_ upTo: Int) -> Int { Int.random(in: 1...upTo, using: &rng) }

    switch name {
    // MARK: Sections
    case "appendSections":
      var sections = newSections(&state, count: count(2), using: &rng)
      if invalid { sections = corrupt(sections, state, using: &rng) }
      return .appendSections(sections)

    case "insertSectionsBefore", "insertSectionsAfter":
      var sections = newSections(&state, count: count(2), using: &rng)
      var anchor = someSectionID(state, using: &rng)
      if invalid {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: anchor = unknownSectionID(state, using: &rng)
        case 1: sections.insert(section(anchor), at: Int.random(in: 0...sections.count, using: &rng))
        default: sections = corrupt(sections, state, using: &rng)
        }
      }
      return name == "insertSectionsBefore" ? .insertSectionsBefore(sections, anchor: anchor) : .insertSectionsAfter(sections, anchor: anchor)

    case "insertSectionsAt":
      var sections = newSections(&state, count: count(2), using: &rng)
      var index = Int.random(in: 0...state.sectionIDs.count, using: &rng)
      if invalid {
        if coin() { index = coin() ? -1 : state.sectionIDs.count + count(2) } else { sections = corrupt(sections, state, using: &rng) }
      }
      return .insertSectionsAt(sections, index: index)

    case "deleteSections", "reloadSections":
      var ids = Array(state.sectionIDs.shuffled(using: &rng).prefix(name == "deleteSections" ? 1 : count(2)))
      if invalid || ids.isEmpty { ids = corrupt(ids, state, using: &rng) }
      return name == "deleteSections" ? .deleteSections(ids) : .reloadSections(ids)

    case "moveSectionBefore", "moveSectionAfter":
      let shuffled = state.sectionIDs.shuffled(using: &rng)
      var id = shuffled.first ?? unknownSectionID(state, using: &rng)
      var anchor = shuffled.dropFirst().first ?? unknownSectionID(state, using: &rng)
      if invalid {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: anchor = id
        case 1: anchor = unknownSectionID(state, using: &rng)
        default: id = unknownSectionID(state, using: &rng)
        }
      }
      return name == "moveSectionBefore" ? .moveSectionBefore(id, anchor: anchor) : .moveSectionAfter(id, anchor: anchor)

    case "moveSectionToIndex":
      var id = someSectionID(state, using: &rng)
      var index = state.sectionIDs.isEmpty ? 0 : Int.random(in: 0..<state.sectionIDs.count, using: &rng)
      if invalid {
        if coin() { index = coin() ? -1 : state.sectionIDs.count } else { id = unknownSectionID(state, using: &rng) }
      }
      return .moveSectionToIndex(id, index: index)

    case "updateSection":
      let id = invalid ? unknownSectionID(state, using: &rng) : someSectionID(state, using: &rng)
      return .updateSection(section(id))

    case "replaceSection":
      var target = someSectionID(state, using: &rng)
      var replacement = coin() ? section(target) : newSections(&state, count: 1, using: &rng)[0]
      if invalid {
        if coin(), let other = state.sectionIDs.filter({ $0 != target }).randomElement(using: &rng) {
          replacement = section(other)
        } else {
          target = unknownSectionID(state, using: &rng)
        }
      }
      return .replaceSection(target, with: replacement)

    // MARK: Items
    case "appendItems", "appendOutline":
      var items = newItems(&state, count: count(3), using: &rng)
      var section: Section.ID? = coin() ? nil : someSectionID(state, using: &rng)
      if invalid {
        if coin() { section = unknownSectionID(state, using: &rng) } else { items = corrupt(items, state, using: &rng) }
      }
      if name == "appendItems" { return .appendItems(items, toSection: section) }
      return .appendOutline(outline(items, using: &rng), toSection: section)

    case "appendItemsUnderParent", "appendOutlineUnderParent", "insertItemsBefore", "insertItemsAfter",
      "insertOutlineBefore", "insertOutlineAfter":
      var items = newItems(&state, count: count(name.contains("Outline") ? 4 : 3), using: &rng)
      var anchor = someItemID(state, using: &rng)
      if invalid {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: anchor = unknownItemID(state, using: &rng)
        case 1: items.insert(item(anchor), at: Int.random(in: 0...items.count, using: &rng))
        default: items = corrupt(items, state, using: &rng)
        }
      }
      switch name {
      case "appendItemsUnderParent": return .appendItemsUnderParent(items, parent: anchor)
      case "insertItemsBefore": return .insertItemsBefore(items, anchor: anchor)
      case "insertItemsAfter": return .insertItemsAfter(items, anchor: anchor)
      case "appendOutlineUnderParent": return .appendOutlineUnderParent(outline(items, using: &rng), parent: anchor)
      case "insertOutlineBefore": return .insertOutlineBefore(outline(items, using: &rng), anchor: anchor)
      default: return .insertOutlineAfter(outline(items, using: &rng), anchor: anchor)
      }

    case "insertOutlineAt":
      var items = newItems(&state, count: count(4), using: &rng)
      var container = someContainer(excluding: nil, state, using: &rng)
      var index = Int.random(in: 0...(state.reference.children(of: container)?.count ?? 0), using: &rng)
      if invalid {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: index = coin() ? -1 : (state.reference.children(of: container)?.count ?? 0) + count(2)
        case 1: container = coin() ? .section(unknownSectionID(state, using: &rng)) : .parent(unknownItemID(state, using: &rng))
        case 2:
          if case .parent(let parent) = container { items.append(item(parent)) } else { items = corrupt(items, state, using: &rng) }
        default: items = corrupt(items, state, using: &rng)
        }
      }
      return .insertOutlineAt(outline(items, using: &rng), ListItemLocation(container, index: index))

    case "deleteItems", "reloadItems", "reconfigureItems", "expand", "collapse":
      var ids: [Item.ID]
      if name == "expand" || name == "collapse", coin() {
        // Prefer parents, so that visibility actually changes.
        ids = Array(state.rows.filter { !$0.children.isEmpty }.map { $0.id }.shuffled(using: &rng).prefix(count(3)))
        if ids.isEmpty { ids = someItemIDs(state, upTo: 3, using: &rng) }
      } else {
        ids = someItemIDs(state, upTo: name == "deleteItems" ? 2 : 3, using: &rng)
      }
      if invalid || ids.isEmpty { ids = corrupt(ids, state, using: &rng) }
      switch name {
      case "deleteItems": return .deleteItems(ids)
      case "reloadItems": return .reloadItems(ids)
      case "reconfigureItems": return .reconfigureItems(ids)
      case "expand": return .expand(ids)
      default: return .collapse(ids)
      }

    case "deleteItemsIfPresent":
      var ids = someItemIDs(state, upTo: 2, using: &rng)
      if coin() { ids = corrupt(ids, state, using: &rng) }
      return .deleteItemsIfPresent(ids)

    case "moveItemBefore", "moveItemAfter", "moveItemUnderParent":
      var id = someItemID(state, using: &rng)
      var target = outside(id, state).randomElement(using: &rng) ?? badTarget(for: id, state, using: &rng)
      if invalid {
        if Int.random(in: 0..<4, using: &rng) == 0 { id = unknownItemID(state, using: &rng) } else { target = badTarget(for: id, state, using: &rng) }
      }
      switch name {
      case "moveItemBefore": return .moveItemBefore(id, anchor: target)
      case "moveItemAfter": return .moveItemAfter(id, anchor: target)
      default: return .moveItemUnderParent(id, parent: target)
      }

    case "moveItemToSection":
      var id = someItemID(state, using: &rng)
      var section = someSectionID(state, using: &rng)
      if invalid {
        if coin() { id = unknownItemID(state, using: &rng) } else { section = unknownSectionID(state, using: &rng) }
      }
      return .moveItemToSection(id, section: section)

    case "moveItemToLocation":
      var id = someItemID(state, using: &rng)
      var container = someContainer(excluding: id, state, using: &rng)
      let siblings = state.reference.children(of: container) ?? []
      let count = siblings.count - (siblings.contains(id) ? 1 : 0)
      var index = Int.random(in: 0...max(count, 0), using: &rng)
      if invalid {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: index = coin() ? -1 : count + self.count(2, using: &rng)
        case 1: container = .parent(badTarget(for: id, state, using: &rng))
        case 2: container = .section(unknownSectionID(state, using: &rng))
        default: id = unknownItemID(state, using: &rng)
        }
      }
      return .moveItemToLocation(id, ListItemLocation(container, index: index))

    case "updateItems", "updateItem":
      var items = someItemIDs(state, upTo: name == "updateItem" ? 1 : 3, using: &rng).map { item($0) }
      if invalid || items.isEmpty {
        if coin(), let repeated = items.randomElement(using: &rng), name == "updateItems" {
          items.append(item(repeated.id))
        } else {
          items.append(item(unknownItemID(state, using: &rng)))
          if name == "updateItem" { items = [items[items.count - 1]] }
        }
      }
      return name == "updateItem" ? .updateItem(items[0]) : .updateItems(items)

    case "replaceItem":
      var target = someItemID(state, using: &rng)
      var replacement = coin() ? item(target) : newItems(&state, count: 1, using: &rng)[0]
      if invalid {
        if coin(), let other = state.itemIDs.filter({ $0 != target }).randomElement(using: &rng) {
          replacement = item(other)
        } else {
          target = unknownItemID(state, using: &rng)
        }
      }
      return .replaceItem(target, with: replacement)

    // MARK: Outline
    case "replaceChildren":
      let parents = state.rows.filter { !$0.children.isEmpty }.map { $0.id }
      var parent = (coin() ? parents.randomElement(using: &rng) : nil) ?? someItemID(state, using: &rng)
      // Rebuild: keep some of the current descendants (fresh content), add some new items.
      let descendants = Array(state.reference.subtree(of: parent).dropFirst())
      var items = descendants.filter { _ in coin() }.map { item($0) }
      if coin() || items.isEmpty { items += newItems(&state, count: count(3), using: &rng) }
      items.shuffle(using: &rng)
      if invalid {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: parent = unknownItemID(state, using: &rng)
        case 1: items.append(item(outside(parent, state).randomElement(using: &rng) ?? parent))
        default: items.append(item(items.randomElement(using: &rng)!.id))
        }
      }
      return .replaceChildren(of: parent, using: outline(items, using: &rng))

    // MARK: Reorder and markers
    case "moveVisibleRow":
      return moveVisibleRow(invalid: invalid, state, using: &rng)

    case "clearMarkers":
      return .clearMarkers

    default:
      preconditionFailure("ListOperationGenerator: unknown operation name \(name)")
    }
  }

  func count<R: RandomNumberGenerator>(_ upTo: Int, using rng: inout R) -> Int { Int.random(in: 1...upTo, using: &rng) }

  func moveVisibleRow<R: RandomNumberGenerator>(invalid: Bool, _ state: State, using rng: inout R) -> Operation {
    let reference = state.reference
    let visibleBySection = reference.visibleItemsBySection()
    let nonEmpty = visibleBySection.indices.filter { !visibleBySection[$0].isEmpty }
    guard let sourceSection = nonEmpty.randomElement(using: &rng) else {
      return .moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 0))
    }
    let sourceRow = Int.random(in: 0..<visibleBySection[sourceSection].count, using: &rng)
    let moved = Set(reference.subtree(of: visibleBySection[sourceSection][sourceRow]))
    let destinationSection = Int.random(in: 0..<state.sectionIDs.count, using: &rng)
    let remaining = visibleBySection[destinationSection].filter { !moved.contains($0) }.count
    var source = ListIndexPath(section: sourceSection, row: sourceRow)
    var destination = ListIndexPath(section: destinationSection, row: Int.random(in: 0...remaining, using: &rng))
    if Int.random(in: 0..<8, using: &rng) == 0 { destination.row = visibleBySection[destinationSection].count }  // the end
    if invalid {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: source.row = visibleBySection[sourceSection].count
      case 1: source.section = Bool.random(using: &rng) ? -1 : state.sectionIDs.count
      case 2: destination.row = Bool.random(using: &rng) ? -1 : max(remaining, visibleBySection[destinationSection].count) + 1
      default: destination.section = state.sectionIDs.count
      }
    }
    return .moveVisibleRow(from: source, to: destination)
  }
}
