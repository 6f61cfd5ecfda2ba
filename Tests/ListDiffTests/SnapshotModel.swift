import ListDiff
import ListState
import TestSupport

/// A row with identity and content, for snapshot diff tests.
struct Row: ListElement, CustomStringConvertible {
  var id: Int
  var content: Int = 0
  var description: String { "\(id)" }
}

/// A section header with identity and content.
struct Header: ListElement {
  var id: Int
  var content: Int = 0
}

typealias TestSnapshot = ListSnapshot<Header, Row>

enum SnapshotModel {
  /// A random list: a few sections, each a random forest with random expansion.
  static func random(using generator: inout SeededRandom, nextID: inout Int, maxItems: Int = 14) -> TestSnapshot {
    var snapshot = TestSnapshot()
    for _ in 0..<Int.random(in: 0...3, using: &generator) {
      try! snapshot.appendSections([Header(id: nextID)])
      nextID += 1
    }
    for _ in 0..<Int.random(in: 0...maxItems, using: &generator) { insertRandomItem(into: &snapshot, using: &generator, nextID: &nextID) }
    let all = snapshot.itemIdentifiers
    try! snapshot.expand(all.filter { _ in Bool.random(using: &generator) })
    snapshot.clearMarkers()
    return snapshot
  }

  static func insertRandomItem(into snapshot: inout TestSnapshot, using generator: inout SeededRandom, nextID: inout Int) {
    let sections = snapshot.sectionIdentifiers
    guard let section = sections.randomElement(using: &generator) else { return }
    let row = Row(id: nextID)
    nextID += 1
    let items = snapshot.itemIdentifiers
    if let parent = items.randomElement(using: &generator), Bool.random(using: &generator) {
      let count = snapshot.children(of: parent).count
      try! snapshot.insert(
        ListOutline([.init(row, isExpanded: Bool.random(using: &generator))]),
        at: ListItemLocation(.parent(parent), index: Int.random(in: 0...count, using: &generator)))
    } else {
      let count = snapshot.rootItems(inSection: section).count
      try! snapshot.insert(
        ListOutline([.init(row, isExpanded: Bool.random(using: &generator))]),
        at: ListItemLocation(.section(section), index: Int.random(in: 0...count, using: &generator)))
    }
  }

  /// A random edit: items inserted, deleted, moved (within and across sections and levels),
  /// updated, marked, expanded, collapsed; sections inserted, deleted, moved, updated.
  static func mutate(
    _ snapshot: inout TestSnapshot, using generator: inout SeededRandom, nextID: inout Int, steps: Int,
    sectionChanges: Bool = true
  ) {
    for _ in 0..<steps {
      let items = snapshot.itemIdentifiers
      let sections = snapshot.sectionIdentifiers
      switch Int.random(in: 0..<(sectionChanges ? 13 : 9), using: &generator) {
      case 0, 1: insertRandomItem(into: &snapshot, using: &generator, nextID: &nextID)
      case 2: if let id = items.randomElement(using: &generator) { try! snapshot.deleteItems([id]) }
      case 3, 4:  // move anywhere (a throw for "under own descendant" leaves the snapshot unchanged)
        guard let id = items.randomElement(using: &generator), let section = sections.randomElement(using: &generator)
        else { continue }
        if let parent = items.randomElement(using: &generator), Bool.random(using: &generator) {
          let count = snapshot.children(of: parent).count
          try? snapshot.moveItem(id, to: ListItemLocation(.parent(parent), index: Int.random(in: 0...count, using: &generator)))
        } else {
          let count = snapshot.rootItems(inSection: section).count
          try? snapshot.moveItem(id, to: ListItemLocation(.section(section), index: Int.random(in: 0...count, using: &generator)))
        }
      case 5:
        if let id = items.randomElement(using: &generator) {
          try! snapshot.updateItem(Row(id: id, content: snapshot.item(id)!.content + 1))
        }
      case 6:
        guard let id = items.randomElement(using: &generator) else { continue }
        if Bool.random(using: &generator) { try! snapshot.reloadItems([id]) } else { try! snapshot.reconfigureItems([id]) }
      case 7: if let id = items.randomElement(using: &generator) { try! snapshot.expand([id]) }
      case 8: if let id = items.randomElement(using: &generator) { try! snapshot.collapse([id]) }
      case 9:
        try! snapshot.insertSections([Header(id: nextID)], at: Int.random(in: 0...sections.count, using: &generator))
        nextID += 1
      case 10: if let id = sections.randomElement(using: &generator), Int.random(in: 0..<3, using: &generator) == 0 { try! snapshot.deleteSections([id]) }
      case 11:
        if let id = sections.randomElement(using: &generator) {
          try! snapshot.moveSection(id, toIndex: Int.random(in: 0..<sections.count, using: &generator))
        }
      default:
        if let id = sections.randomElement(using: &generator), Bool.random(using: &generator) {
          try! snapshot.updateSection(Header(id: id, content: snapshot.section(id)!.content + 1))
        }
      }
    }
  }

  /// Like ``mutate(_:using:nextID:steps:sectionChanges:)`` with item changes only.
  static func mutateItems(_ snapshot: inout TestSnapshot, using generator: inout SeededRandom, nextID: inout Int, steps: Int) {
    mutate(&snapshot, using: &generator, nextID: &nextID, steps: steps, sectionChanges: false)
  }

  /// What the validator expects to be refreshed between `old` and `new`.
  /// Sections and rows to reload — content changed or marked reloaded — and rows to reconfigure:
  /// marked reconfigured and not reloaded (whatever their content), visible in both.
  static func expectedReloads(
    from old: TestSnapshot, to new: TestSnapshot
  ) -> (sections: Set<Int>, items: Set<Int>, reconfigures: Set<Int>) {
    var sections = Set<Int>()
    for id in new.sectionIdentifiers where old.contains(section: id) {
      if old.section(id) != new.section(id) || new.reloadedSectionIdentifiers.contains(id) { sections.insert(id) }
    }
    let oldVisible = Set(old.visibleItems)
    let reconfigureOnly = new.reconfiguredItemIdentifiers.subtracting(new.reloadedItemIdentifiers)
    var items = Set<Int>()
    var reconfigures = Set<Int>()
    for id in new.visibleItems where oldVisible.contains(id) {
      if reconfigureOnly.contains(id) {
        reconfigures.insert(id)
      } else if old.item(id) != new.item(id) || new.reloadedItemIdentifiers.contains(id) {
        items.insert(id)
      }
    }
    return (sections, items, reconfigures)
  }
}
