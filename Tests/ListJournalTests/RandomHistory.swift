import ListJournal
import TestSupport

extension ListOperation where Section == TestSection, Item == TestItem {
  /// Performs the operation inside a store transaction (the same calls as on a snapshot).
  func apply(to tx: inout TextStore.Transaction) throws {
    switch self {
    case .appendSections(let s): try tx.appendSections(s)
    case .insertSectionsBefore(let s, let a): try tx.insertSections(s, beforeSection: a)
    case .insertSectionsAfter(let s, let a): try tx.insertSections(s, afterSection: a)
    case .insertSectionsAt(let s, let i): try tx.insertSections(s, at: i)
    case .deleteSections(let ids): try tx.deleteSections(ids)
    case .moveSectionBefore(let id, let a): try tx.moveSection(id, beforeSection: a)
    case .moveSectionAfter(let id, let a): try tx.moveSection(id, afterSection: a)
    case .moveSectionToIndex(let id, let i): try tx.moveSection(id, toIndex: i)
    case .reloadSections(let ids): try tx.reloadSections(ids)
    case .updateSection(let s): try tx.updateSection(s)
    case .replaceSection(let id, let s): try tx.replaceSection(id, with: s)
    case .appendItems(let items, let s): try tx.appendItems(items, toSection: s)
    case .appendItemsUnderParent(let items, let p): try tx.appendItems(items, underParent: p)
    case .insertItemsBefore(let items, let a): try tx.insertItems(items, beforeItem: a)
    case .insertItemsAfter(let items, let a): try tx.insertItems(items, afterItem: a)
    case .deleteItems(let ids): try tx.deleteItems(ids)
    case .deleteItemsIfPresent(let ids): tx.deleteItemsIfPresent(ids)
    case .deleteAllItems: tx.deleteAllItems()
    case .moveItemBefore(let id, let a): try tx.moveItem(id, beforeItem: a)
    case .moveItemAfter(let id, let a): try tx.moveItem(id, afterItem: a)
    case .moveItemToSection(let id, let s): try tx.moveItem(id, toSection: s)
    case .moveItemUnderParent(let id, let p): try tx.moveItem(id, underParent: p)
    case .moveItemToLocation(let id, let l): try tx.moveItem(id, to: l)
    case .reloadItems(let ids): try tx.reloadItems(ids)
    case .reconfigureItems(let ids): try tx.reconfigureItems(ids)
    case .updateItems(let items): try tx.updateItems(items)
    case .updateItem(let item): try tx.updateItem(item)
    case .replaceItem(let id, let item): try tx.replaceItem(id, with: item)
    case .expand(let ids): try tx.expand(ids)
    case .collapse(let ids): try tx.collapse(ids)
    case .replaceChildren(let p, let o): try tx.replace(childrenOf: p, using: o)
    case .insertOutlineBefore(let o, let a): try tx.insert(o, beforeItem: a)
    case .insertOutlineAfter(let o, let a): try tx.insert(o, afterItem: a)
    case .appendOutline(let o, let s): try tx.append(o, toSection: s)
    case .appendOutlineUnderParent(let o, let p): try tx.append(o, underParent: p)
    case .insertOutlineAt(let o, let l): try tx.insert(o, at: l)
    case .moveVisibleRow(let from, let to): try tx.moveVisibleRow(from: from, to: to)
    case .clearMarkers: break
    }
  }
}

/// The state with reload/reconfigure markers dropped (they are transient, not history).
func cleared(_ snapshot: TestSnapshot) -> TestSnapshot {
  var copy = snapshot
  copy.clearMarkers()
  return copy
}

/// Drives a store with random transactions, undo, redo and checkout, remembering every state
/// reached live.
struct RandomHistoryDriver {
  var random: SeededRandom
  var generator = ListOperationGenerator<TestSection, TestItem>(invalidProbability: 0.1, targetItemCount: 30)
  /// Live state of every version (markers cleared).
  var live: [Int: TestSnapshot] = [0: TestSnapshot()]

  init(seed: UInt64) { random = SeededRandom(seed: seed) }

  /// One random step; returns false when it changed nothing.
  @discardableResult
  mutating func step(_ store: TextStore) throws -> Bool {
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<10:
      guard store.canUndo else { return false }
      try store.undo()
    case 10..<15:
      guard store.redoTarget != nil else { return false }
      try store.redo()
    case 15..<18:
      let target = Version(Int.random(in: 0...store.latestVersion.rawValue, using: &random))
      guard target != store.head else { return false }
      try store.checkout(target)
    default:
      let before = store.latestVersion
      var generator = self.generator
      var random = self.random
      do {
        try store.transaction(label: roll % 3 == 0 ? nil : "step \(roll)") { tx in
          for _ in 0..<Int.random(in: 1...3, using: &random) {
            let operation = generator.next(for: tx.snapshot, using: &random)
            try operation.apply(to: &tx)
          }
        }
      } catch is ListError<String, String> {
        // an invalid operation: the whole transaction is rolled back
      }
      self.generator = generator
      self.random = random
      guard store.latestVersion != before else { return false }
      live[store.head.rawValue] = cleared(store.snapshot)
    }
    return true
  }
}
