import ListHistory
import ListState
import ListLocking
import TestSupport
import Testing

/// One rule for every operation: a store operation that leaves the list as it was records no
/// event, creates no version and notifies nobody; one that changes it (or asks the UI to reload
/// or reconfigure) creates exactly one version. Checked per operation kind against the reference
/// model, on random operations and on operations built to change nothing (expand an expanded
/// item, update an item to its own content, move an item to where it is, …).
@Suite struct NoOpRuleTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Operation = ListOperation<TestSection, TestItem>
  typealias Reference = ReferenceList<TestSection, TestItem>

  static let kinds = ListOperationGenerator<TestSection, TestItem>.defaultWeights.keys.filter { $0 != "clearMarkers" }.sorted()

  @Test(arguments: kinds)
  func anOperationThatChangesNothingCreatesNoVersion(kind: String) throws {
    var random = SeededRandom(seed: 0x0A0B_0000 &+ UInt64(Self.kinds.firstIndex(of: kind)!))
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    weights[kind, default: 0] += 40  // mostly this kind, on states the others build
    var generator = ListOperationGenerator<TestSection, TestItem>(invalidProbability: 0.05, weights: weights)
    let store = Store()
    let delivered = ListMutex(0)
    let observation = store.observe { _ in delivered.withLock { $0 += 1 } }
    defer { withExtendedLifetime(observation) {} }
    var reference = Reference()
    var noOps = 0, changes = 0
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      var operation = generator.next(for: reference, using: &random)
      if Bool.random(using: &random), let unchanged = Self.unchangedVariant(of: kind, in: store.snapshot, using: &random) {
        operation = unchanged
      }
      var next = reference
      let valid: Bool
      do {
        try operation.apply(to: &next)
        valid = true
      } catch { valid = false }
      let headBefore = store.head, latestBefore = store.latestVersion
      let notifiedBefore = delivered.withLock { $0 }
      do {
        try store.transaction { try operation.apply(to: &$0) }
      } catch {
        #expect(!valid, "step \(step): \(operation) threw \(error), the reference accepts it")
      }
      let notified = delivered.withLock { $0 } - notifiedBefore
      let changesState = valid && next.entries != reference.entries
      let marks: Bool
      switch operation {
      case .reloadItems(let ids), .reconfigureItems(let ids): marks = valid && !ids.isEmpty
      case .reloadSections(let ids): marks = valid && !ids.isEmpty
      default: marks = false
      }
      if changesState || marks {
        changes += 1
        #expect(store.latestVersion.rawValue == latestBefore.rawValue + 1, "step \(step): \(operation) created no version")
        #expect(notified == 1, "step \(step): \(operation) notified \(notified) times")
      } else {
        if valid { noOps += 1 }
        #expect(store.head == headBefore && store.latestVersion == latestBefore, "step \(step): \(operation) changed nothing but created a version")
        #expect(notified == 0, "step \(step): \(operation) changed nothing but notified observers")
      }
      if valid { reference = next }
      reference.clearMarkers()
      var head = store.snapshot
      head.clearMarkers()
      if let mismatch = reference.firstMismatch(with: head) {
        Issue.record("step \(step) (\(operation)): \(mismatch)")
        return
      }
    }
    #expect(noOps > 5, "no-ops of \(kind) were exercised (\(noOps))")
    #expect(changes > 5, "changes were exercised (\(changes))")
  }

  /// An operation of `kind` that leaves `snapshot` as it is, when the state allows one.
  static func unchangedVariant(
    of kind: String, in snapshot: ListSnapshot<TestSection, TestItem>, using random: inout SeededRandom
  ) -> Operation? {
    let items = snapshot.itemIdentifiers
    let sections = snapshot.sectionIdentifiers
    func siblings(of id: String) -> [String] {
      if let parent = snapshot.parent(of: id) { return snapshot.children(of: parent) }
      guard let location = snapshot.location(ofItem: id), case .section(let section) = location.container else { return [] }
      return snapshot.rootItems(inSection: section)
    }
    switch kind {
    case "expand":
      return items.filter { snapshot.isExpanded($0) }.randomElement(using: &random).map { .expand([$0]) }
    case "collapse":
      return items.filter { !snapshot.isExpanded($0) }.randomElement(using: &random).map { .collapse([$0]) }
    case "updateItem":
      return items.randomElement(using: &random).map { .updateItem(snapshot.item($0)!) }
    case "updateItems":
      let some = items.shuffled(using: &random).prefix(3)
      return some.isEmpty ? nil : .updateItems(some.map { snapshot.item($0)! })
    case "replaceItem":
      return items.randomElement(using: &random).map { .replaceItem($0, with: snapshot.item($0)!) }
    case "updateSection":
      return sections.randomElement(using: &random).map { .updateSection(snapshot.section($0)!) }
    case "replaceSection":
      return sections.randomElement(using: &random).map { .replaceSection($0, with: snapshot.section($0)!) }
    case "moveSectionToIndex":
      return sections.randomElement(using: &random).map { .moveSectionToIndex($0, index: snapshot.index(ofSection: $0)!) }
    case "moveSectionBefore":
      guard sections.count > 1 else { return nil }
      let index = Int.random(in: 0..<(sections.count - 1), using: &random)
      return .moveSectionBefore(sections[index], anchor: sections[index + 1])
    case "moveSectionAfter":
      guard sections.count > 1 else { return nil }
      let index = Int.random(in: 1..<sections.count, using: &random)
      return .moveSectionAfter(sections[index], anchor: sections[index - 1])
    case "moveItemBefore":
      for id in items.shuffled(using: &random) {
        let row = siblings(of: id)
        if let index = row.firstIndex(of: id), index + 1 < row.count { return .moveItemBefore(id, anchor: row[index + 1]) }
      }
      return nil
    case "moveItemAfter":
      for id in items.shuffled(using: &random) {
        let row = siblings(of: id)
        if let index = row.firstIndex(of: id), index > 0 { return .moveItemAfter(id, anchor: row[index - 1]) }
      }
      return nil
    case "moveItemToLocation":
      return items.randomElement(using: &random).map { .moveItemToLocation($0, snapshot.location(ofItem: $0)!) }
    case "moveItemToSection":
      for section in sections.shuffled(using: &random) {
        if let last = snapshot.rootItems(inSection: section).last { return .moveItemToSection(last, section: section) }
      }
      return nil
    case "moveItemUnderParent":
      for parent in items.shuffled(using: &random) {
        if let last = snapshot.children(of: parent).last { return .moveItemUnderParent(last, parent: parent) }
      }
      return nil
    case "replaceChildren":
      return items.randomElement(using: &random).map { .replaceChildren(of: $0, using: snapshot.outline(of: $0)!) }
    case "moveVisibleRow":
      let visible = sections.indices.filter { (snapshot.numberOfVisibleItems(inSection: sections[$0]) ?? 0) > 0 }
      guard let section = visible.randomElement(using: &random) else { return nil }
      let row = Int.random(in: 0..<snapshot.numberOfVisibleItems(inSection: sections[section])!, using: &random)
      let path = ListIndexPath(section: section, row: row)
      return .moveVisibleRow(from: path, to: path)
    case "deleteItemsIfPresent": return .deleteItemsIfPresent(["absent-item"])
    case "deleteItems": return .deleteItems([])
    case "deleteSections": return .deleteSections([])
    case "appendSections": return .appendSections([])
    case "insertSectionsAt": return .insertSectionsAt([], index: 0)
    case "appendItems": return sections.first.map { .appendItems([], toSection: $0) }
    case "reloadItems": return .reloadItems([])
    case "reconfigureItems": return .reconfigureItems([])
    case "reloadSections": return .reloadSections([])
    case "appendOutline": return sections.first.map { .appendOutline(ListOutline(), toSection: $0) }
    case "insertSectionsBefore": return sections.first.map { .insertSectionsBefore([], anchor: $0) }
    case "insertSectionsAfter": return sections.first.map { .insertSectionsAfter([], anchor: $0) }
    case "appendItemsUnderParent": return items.first.map { .appendItemsUnderParent([], parent: $0) }
    case "insertItemsBefore": return items.first.map { .insertItemsBefore([], anchor: $0) }
    case "insertItemsAfter": return items.first.map { .insertItemsAfter([], anchor: $0) }
    case "appendOutlineUnderParent": return items.first.map { .appendOutlineUnderParent(ListOutline(), parent: $0) }
    case "insertOutlineBefore": return items.first.map { .insertOutlineBefore(ListOutline(), anchor: $0) }
    case "insertOutlineAfter": return items.first.map { .insertOutlineAfter(ListOutline(), anchor: $0) }
    case "insertOutlineAt": return sections.first.map { .insertOutlineAt(ListOutline(), ListItemLocation(.section($0), index: 0)) }
    case "deleteAllItems": return sections.isEmpty ? .deleteAllItems : nil
    default: return nil
    }
  }
}
