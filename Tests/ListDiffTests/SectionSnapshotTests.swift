import ListDiff
import ListHistory
import ListState
import TestSupport
import Testing

/// `ListSectionSnapshot` against the reference model holding the same outline in one section:
/// long random runs of its operations (some invalid), every query compared after each step, and
/// its round trip through a section of a `ListSnapshot`.
@Suite struct SectionSnapshotTests {
  typealias Reference = ReferenceList<TestSection, TestItem>
  typealias Outline = ListOutline<TestItem>

  @Test func anOutlineBuiltAndQueriedAsInUIKit() throws {
    var outline = ListSectionSnapshot<String>()
    try outline.append(["Fruit", "Vegetables"])
    try outline.append(["Apple", "Pear"], to: "Fruit")
    try outline.expand(["Fruit"])
    #expect(outline.visibleItems == ["Fruit", "Apple", "Pear", "Vegetables"])
    #expect(outline.level(of: "Pear") == 1 && outline.parent(of: "Pear") == "Fruit" && outline.index(of: "Vegetables") == 3)
    #expect(outline.snapshot(of: "Fruit")?.rootItems == ["Apple", "Pear"])
    #expect(outline.snapshot(of: "Fruit", includingParent: true)?.items == ["Fruit", "Apple", "Pear"])
    #expect(outline.visualDescription() == "▾ Fruit\n    Apple\n    Pear\n  Vegetables")
    try outline.replace(childrenOf: "Fruit", using: ListSectionSnapshot(ListOutline(items: ["Fig"])))
    #expect(outline.items == ["Fruit", "Fig", "Vegetables"])
    #expect(throws: ListError<Int, String>.itemsAlreadyExist(["Fig"])) { try outline.append(["Fig"]) }
    #expect(throws: ListError<Int, String>.itemsNotFound(["Nope"])) { try outline.delete(["Nope"]) }
    outline.deleteAll()
    #expect(outline.isEmpty && outline == ListSectionSnapshot())

    var list = try ListSnapshot<String, String>([("A", ListOutline(items: ["a"])), ("B", ListOutline())])
    var section = try #require(list.sectionSnapshot(of: "B"))
    try section.append(["b1", "b2"])
    try list.apply(section, to: "B")
    #expect(list.itemIdentifiers(inSection: "B") == ["b1", "b2"] && list.itemIdentifiers(inSection: "A") == ["a"])
    #expect(throws: ListError<String, String>.itemsAlreadyExist(["a"])) {
      try list.apply(ListSectionSnapshot(ListOutline(items: ["a"])), to: "B")
    }
  }

  enum Step: CustomStringConvertible {
    case append([TestItem], parent: String?)
    case appendOutline(Outline, parent: String?)
    case insertBefore([TestItem], anchor: String)
    case insertAfter([TestItem], anchor: String)
    case insertOutlineBefore(Outline, anchor: String)
    case delete([String])
    case deleteAll
    case expand([String])
    case collapse([String])
    case replaceChildren(of: String, Outline)

    var description: String {
      switch self {
      case .append(let items, let parent): "append(\(items.map(\.id)), to: \(parent ?? "nil"))"
      case .appendOutline(let outline, let parent): "append(outline \(outline.itemIdentifiers), to: \(parent ?? "nil"))"
      case .insertBefore(let items, let anchor): "insert(\(items.map(\.id)), before: \(anchor))"
      case .insertAfter(let items, let anchor): "insert(\(items.map(\.id)), after: \(anchor))"
      case .insertOutlineBefore(let outline, let anchor): "insert(outline \(outline.itemIdentifiers), before: \(anchor))"
      case .delete(let ids): "delete(\(ids))"
      case .deleteAll: "deleteAll()"
      case .expand(let ids): "expand(\(ids))"
      case .collapse(let ids): "collapse(\(ids))"
      case .replaceChildren(let parent, let outline): "replace(childrenOf: \(parent), using: \(outline.itemIdentifiers))"
      }
    }

    func apply(to snapshot: inout ListSectionSnapshot<TestItem>) throws {
      switch self {
      case .append(let items, let parent): try snapshot.append(items, to: parent)
      case .appendOutline(let outline, let parent): try snapshot.append(outline, to: parent)
      case .insertBefore(let items, let anchor): try snapshot.insert(items, before: anchor)
      case .insertAfter(let items, let anchor): try snapshot.insert(items, after: anchor)
      case .insertOutlineBefore(let outline, let anchor): try snapshot.insert(outline, before: anchor)
      case .delete(let ids): try snapshot.delete(ids)
      case .deleteAll: snapshot.deleteAll()
      case .expand(let ids): try snapshot.expand(ids)
      case .collapse(let ids): try snapshot.collapse(ids)
      case .replaceChildren(let parent, let outline): try snapshot.replace(childrenOf: parent, using: outline)
      }
    }

    func apply(to reference: inout Reference) throws {
      switch self {
      case .append(let items, let parent?): try reference.appendItems(items, underParent: parent)
      case .append(let items, nil): try reference.appendItems(items, toSection: "S")
      case .appendOutline(let outline, let parent?): try reference.append(outline, underParent: parent)
      case .appendOutline(let outline, nil): try reference.append(outline, toSection: "S")
      case .insertBefore(let items, let anchor): try reference.insertItems(items, beforeItem: anchor)
      case .insertAfter(let items, let anchor): try reference.insertItems(items, afterItem: anchor)
      case .insertOutlineBefore(let outline, let anchor): try reference.insert(outline, beforeItem: anchor)
      case .delete(let ids): try reference.deleteItems(ids)
      case .deleteAll: try reference.deleteItems(reference.rootItems(inSection: "S"))
      case .expand(let ids): try reference.expand(ids)
      case .collapse(let ids): try reference.collapse(ids)
      case .replaceChildren(let parent, let outline): try reference.replace(childrenOf: parent, using: outline)
      }
    }
  }

  /// A random step for the outline `reference` holds; about one in ten names an absent item, a
  /// present one to insert, or a duplicate.
  static func randomStep(for reference: Reference, nextID: inout Int, using random: inout SeededRandom) -> Step {
    let present = reference.itemIdentifiers(inSection: "S")
    func fresh(_ count: Int) -> [TestItem] {
      (0..<count).map { _ in
        nextID += 1
        return TestItem("i\(nextID)", content: "c\(nextID)")
      }
    }
    func freshOutline() -> Outline {
      let roots = fresh(Int.random(in: 1...2, using: &random)).map { root in
        Outline.Node(root, isExpanded: Bool.random(using: &random), children: fresh(Int.random(in: 0...2, using: &random)).map { Outline.Node($0) })
      }
      return Outline(roots)
    }
    let invalid = Int.random(in: 0..<10, using: &random) == 0
    func someItem() -> String { invalid || present.isEmpty ? "absent" : present.randomElement(using: &random)! }
    func someItems() -> [String] {
      if invalid, let first = present.first { return [first, first] }
      return Array(present.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
    }
    func newItems() -> [TestItem] {
      if invalid, let first = present.first { return [TestItem(first)] }
      return fresh(Int.random(in: 1...3, using: &random))
    }
    let parent: String? = Bool.random(using: &random) ? nil : (present.isEmpty ? nil : someItem())
    switch Int.random(in: 0..<12, using: &random) {
    case 0, 1: return .append(newItems(), parent: parent)
    case 2: return .appendOutline(freshOutline(), parent: parent)
    case 3: return .insertBefore(newItems(), anchor: someItem())
    case 4: return .insertAfter(newItems(), anchor: someItem())
    case 5: return .insertOutlineBefore(freshOutline(), anchor: someItem())
    case 6: return present.count > 30 ? .delete(someItems()) : .delete([someItem()])
    case 7, 8: return .expand(someItems())
    case 9: return .collapse(someItems())
    case 10: return .replaceChildren(of: someItem(), freshOutline())
    default: return present.count > 40 ? .deleteAll : .append(newItems(), parent: nil)
    }
  }

  /// The drawing `visualDescription()` promises, from the reference's outline.
  static func drawing(_ outline: Outline) -> String {
    var lines: [String] = []
    func draw(_ nodes: [Outline.Node], level: Int) {
      for node in nodes {
        let marker = node.children.isEmpty ? " " : (node.isExpanded ? "▾" : "▸")
        lines.append(String(repeating: "  ", count: level) + "\(marker) \(node.item.id)")
        if node.isExpanded { draw(node.children, level: level + 1) }
      }
    }
    draw(outline.roots, level: 0)
    return lines.joined(separator: "\n")
  }

  @Test(arguments: 0..<4)
  func sectionSnapshotFollowsTheReferenceModel(seedOffset: Int) throws {
    var random = SeededRandom(seed: 0x5EC7_0000 + UInt64(seedOffset))
    var snapshot = ListSectionSnapshot<TestItem>()
    var reference = Reference()
    try reference.appendSections([TestSection("S")])
    var nextID = 0
    var refused = 0
    var history: [ListSectionSnapshot<TestItem>] = []
    for step in 0..<SeededRandom.propertySteps(default: 400) {
      let operation = Self.randomStep(for: reference, nextID: &nextID, using: &random)
      var expected = reference
      let accepted = (try? operation.apply(to: &expected)) != nil
      let before = snapshot
      do {
        try operation.apply(to: &snapshot)
        guard accepted else {
          Issue.record("step \(step): \(operation) succeeded; the reference refuses it")
          return
        }
        reference = expected
      } catch {
        guard !accepted else {
          Issue.record("step \(step): \(operation) threw \(error); the reference accepts it")
          return
        }
        #expect(snapshot == before && snapshot.outline == before.outline, "step \(step): a refused \(operation) changed the outline")
        refused += 1
      }

      let outline = try #require(reference.outline(ofSection: "S"))
      let ids = reference.itemIdentifiers(inSection: "S")
      func fail(_ what: String) { Issue.record("step \(step) after \(operation): \(what)") }
      if snapshot.outline != outline { fail("outline \(snapshot.outline.itemIdentifiers) ≠ \(outline.itemIdentifiers)"); return }
      if snapshot.items != ids { fail("items") }
      if snapshot.rootItems != reference.rootItems(inSection: "S") { fail("rootItems") }
      if snapshot.visibleItems != reference.visibleItems(inSection: "S") { fail("visibleItems") }
      if snapshot.isEmpty != ids.isEmpty { fail("isEmpty") }
      if snapshot.visualDescription() != Self.drawing(outline) { fail("visualDescription:\n\(snapshot.visualDescription())") }
      for id in ids.shuffled(using: &random).prefix(6) + ["absent"] {
        if snapshot.contains(id) != reference.contains(item: id) { fail("contains(\(id))") }
        if snapshot.item(id) != reference.item(id) { fail("item(\(id))") }
        if snapshot.parent(of: id) != reference.parent(of: id) { fail("parent(of: \(id))") }
        if snapshot.level(of: id) != reference.level(of: id) { fail("level(of: \(id))") }
        if snapshot.index(of: id) != reference.index(ofItem: id) { fail("index(of: \(id))") }
        if snapshot.isExpanded(id) != reference.isExpanded(id) { fail("isExpanded(\(id))") }
        if snapshot.isVisible(id) != reference.isVisible(id) { fail("isVisible(\(id))") }
        for including in [false, true] {
          if snapshot.snapshot(of: id, includingParent: including)?.outline != reference.outline(of: id, includingParent: including) {
            fail("snapshot(of: \(id), includingParent: \(including))")
          }
        }
      }
      // Round trips: through an outline, and through a section of a list with neighbours.
      #expect(try ListSectionSnapshot(snapshot.outline) == snapshot)
      var list = try ListSnapshot<TestSection, TestItem>([
        (TestSection("A"), ListOutline(items: [TestItem("a1")])), (TestSection("S"), ListOutline()),
        (TestSection("B"), ListOutline(items: [TestItem("b1")])),
      ])
      if let old = history.last { try list.apply(old, to: "S") }
      try list.apply(snapshot, to: "S")
      #expect(list.sectionSnapshot(of: "S") == snapshot && list.sectionSnapshot(of: "S")?.outline == snapshot.outline)
      #expect(list.itemIdentifiers(inSection: "A") == ["a1"] && list.itemIdentifiers(inSection: "B") == ["b1"])
      history.append(snapshot)
    }
    #expect(refused > 5 && nextID > 100, "refused \(refused), items made \(nextID)")
  }

  /// A store applies a section snapshot as one minimal version: the section ends with the
  /// snapshot's items and nesting, items that stay keep their expansion, new ones take the
  /// snapshot's, other sections are untouched, and an identical outline creates no version.
  @Test(arguments: 0..<2)
  func aStoreAppliesASectionSnapshotKeepingExpansion(seedOffset: Int) throws {
    var random = SeededRandom(seed: 0x5EC8_0000 + UInt64(seedOffset))
    let store = ListStore<TestSection, TestItem>()
    try store.appendSections([TestSection("A"), TestSection("S")])
    try store.appendItems([TestItem("a1")], toSection: "A")
    var snapshot = ListSectionSnapshot<TestItem>()
    var reference = Reference()
    try reference.appendSections([TestSection("S")])
    var nextID = 0
    for step in 0..<SeededRandom.propertySteps(default: 150) {
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let operation = Self.randomStep(for: reference, nextID: &nextID, using: &random)
        var expected = reference
        guard (try? operation.apply(to: &expected)) != nil else { continue }
        try operation.apply(to: &snapshot)
        reference = expected
      }
      let before = store.snapshot
      let latest = store.latestVersion
      try store.apply(snapshot, to: "S")
      let after = try #require(store.snapshot.sectionSnapshot(of: "S"))
      #expect(after.items == snapshot.items, "step \(step)")
      for id in snapshot.items {
        #expect(after.parent(of: id) == snapshot.parent(of: id), "step \(step): parent of \(id)")
        let expected = before.contains(item: id) ? before.isExpanded(id) : snapshot.isExpanded(id)
        #expect(after.isExpanded(id) == expected, "step \(step): expansion of \(id)")
        #expect(after.item(id) == snapshot.item(id))
      }
      #expect(store.snapshot.itemIdentifiers(inSection: "A") == ["a1"])
      let changed = before.outline(ofSection: "S")?.itemIdentifiers != snapshot.items
        || snapshot.items.contains { before.parent(of: $0) != snapshot.parent(of: $0) || before.item($0) != snapshot.item($0) }
      #expect(store.latestVersion.rawValue - latest.rawValue == (changed ? 1 : 0), "step \(step): one version per change")
      // The store's expansion wins from now on: the value follows it, as an app re-reading would.
      snapshot = after
      reference = Reference()
      try reference.appendSections([TestSection("S")])
      try reference.append(after.outline, toSection: "S")
    }
  }
}
