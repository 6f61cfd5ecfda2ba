import ListHistory
import ListState
import TestSupport

/// Applies one random operation to a transaction, chosen from the state it sees. Some choices
/// are invalid on purpose (moving under a descendant, unknown anchors); they throw and the
/// caller checks that the transaction left no trace.
struct RandomOperations {
  var random: SeededRandom
  var nextID = 1
  var nextSection = 1
  var revision = 0

  init(seed: UInt64) { random = SeededRandom(seed: seed) }

  mutating func freshRow() -> TestRow {
    defer { nextID += 1 }
    return TestRow(nextID, "r\(nextID)")
  }

  mutating func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)] }

  mutating func apply(to tx: inout ListStore<String, TestRow>.Transaction) throws {
    let snapshot = tx.snapshot
    let sections = snapshot.sectionIdentifiers
    let items = snapshot.itemIdentifiers
    if sections.isEmpty || Int.random(in: 0..<40, using: &random) == 0 {
      defer { nextSection += 1 }
      try tx.insertSections(["S\(nextSection)"], at: Int.random(in: 0...sections.count, using: &random))
      return
    }
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<15:
      let rows = (0..<Int.random(in: 1...3, using: &random)).map { _ in freshRow() }
      try tx.appendItems(rows, toSection: pick(sections))
    case 15..<22:
      guard let parent = pick(items) else { return }
      try tx.appendItems([freshRow()], underParent: parent)
    case 22..<30:
      guard let anchor = pick(items) else { return }
      if Bool.random(using: &random) { try tx.insertItems([freshRow()], beforeItem: anchor) }
      else { try tx.insertItems([freshRow(), freshRow()], afterItem: anchor) }
    case 30..<38:
      let count = Int.random(in: 1...2, using: &random)
      let victims = (0..<count).compactMap { _ in pick(items) }
      try tx.deleteItems(victims)
    case 38..<50:
      guard let id = pick(items), let anchor = pick(items) else { return }
      switch Int.random(in: 0..<5, using: &random) {
      case 0: try tx.moveItem(id, beforeItem: anchor)
      case 1: try tx.moveItem(id, afterItem: anchor)
      case 2: try tx.moveItem(id, underParent: anchor)
      case 3: try tx.moveItem(id, toSection: pick(sections)!)
      default:
        let section = pick(sections)!
        let count = snapshot.rootItems(inSection: section).filter { $0 != id }.count
        try tx.moveItem(id, to: ListItemLocation(.section(section), index: Int.random(in: 0...count, using: &random)))
      }
    case 50..<65:
      guard let id = pick(items) else { return }
      revision += 1
      try tx.updateItem(TestRow(id, "u\(revision)"))
    case 65..<75:
      guard let id = pick(items) else { return }
      if Bool.random(using: &random) { try tx.expand([id]) } else { try tx.collapse([id]) }
    case 75..<78:
      guard let id = pick(items) else { return }
      try tx.replaceItem(id, with: freshRow())
    case 78..<81:
      guard let parent = pick(items) else { return }
      let row = freshRow()
      try tx.replace(childrenOf: parent, using: ListOutline([.init(row, isExpanded: true, children: [.init(freshRow())])]))
    case 81..<84:
      guard let id = pick(items) else { return }
      try tx.reloadItems([id])
      try tx.reconfigureItems([id])
    case 84..<87:
      guard let section = pick(sections) else { return }
      try tx.moveSection(section, toIndex: Int.random(in: 0..<sections.count, using: &random))
    case 87..<89:
      guard let section = pick(sections) else { return }
      try tx.deleteSections([section])
    case 89..<91:
      guard let section = pick(sections) else { return }
      try tx.reloadSections([section])
      if Bool.random(using: &random) { try tx.replaceSection(section, with: "S\(nextSection)"); nextSection += 1 }
    case 91..<95:
      guard let anchor = pick(items) else { return }
      let outline = ListOutline([.init(freshRow(), isExpanded: Bool.random(using: &random), children: [.init(freshRow()), .init(freshRow())])])
      try tx.insert(outline, afterItem: anchor)
    case 95..<96:
      tx.deleteAllItems()
    case 96..<98:
      // An unknown identifier: always refused.
      try tx.deleteItems([-1])
    default:
      tx.deleteItemsIfPresent([pick(items) ?? -2, -3])
    }
  }
}
