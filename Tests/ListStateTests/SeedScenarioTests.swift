import ListState
import Testing
import TestSupport

/// The user pains in /work/shared/seeds/, each as an example: what took several error-prone
/// steps (or crashed) with UIKit's diffable snapshots is one checked operation here.
@Suite("Seed scenarios")
struct SeedScenarioTests {
  typealias Failure = ListError<String, String>

  // MARK: reload-section-header.txt

  /// Two sections, each an outline whose root is the section's header item (the seed's
  /// `DataItem.parent`), expanded, with the children below it.
  static func headerList() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("Parent 1"), TestSection("Parent 2")])
    try snapshot.appendItems([TestItem("P1", content: "Parent 1")], toSection: "Parent 1")
    try snapshot.appendItems(["1A", "1B", "1C"].map { TestItem($0, content: "Child \($0)") }, underParent: "P1")
    try snapshot.appendItems([TestItem("P2", content: "Parent 2")], toSection: "Parent 2")
    try snapshot.appendItems(["2A", "2B", "2C", "2D"].map { TestItem($0, content: "Child \($0)") }, underParent: "P2")
    try snapshot.expand(["P1", "P2"])
    return snapshot
  }

  @Test("header replaced in one operation keeps children and expansion (same identity)")
  func headerReplacedKeepingIdentity() throws {
    var snapshot = try Self.headerList()
    let rowsBefore = snapshot.visibleItems
    try snapshot.replaceItem("P1", with: TestItem("P1", content: "Parent 1 ★"))
    #expect(snapshot.item("P1")?.content == "Parent 1 ★")
    #expect(snapshot.children(of: "P1") == ["1A", "1B", "1C"])
    #expect(snapshot.isExpanded("P1"))
    #expect(snapshot.visibleItems == rowsBefore)
    #expect(snapshot.visibleIndexPath(ofItem: "1B") == ListIndexPath(section: 0, row: 2))
    #expect(snapshot.reloadedItemIdentifiers == ["P1"])
    // Tapping twice (the seed's step 4 guards against the duplicate-identifier crash): fine.
    try snapshot.replaceItem("P1", with: TestItem("P1", content: "Parent 1 ★"))
    #expect(snapshot.item("P1")?.content == "Parent 1 ★")
    snapshot._checkAllInvariants()
  }

  @Test("header whose identity is its value (plain String) replaced in one operation")
  func headerReplacedWithNewIdentity() throws {
    var snapshot = ListSnapshot<String, String>()
    try snapshot.appendSections(["Parent 1", "Parent 2"])
    try snapshot.appendItems(["Parent 1"], toSection: "Parent 1")
    try snapshot.appendItems(["Child 1 - A", "Child 1 - B", "Child 1 - C"], underParent: "Parent 1")
    try snapshot.appendItems(["Parent 2"], toSection: "Parent 2")
    try snapshot.appendItems(["Child 2 - A"], underParent: "Parent 2")
    try snapshot.expand(["Parent 1", "Parent 2"])
    try snapshot.collapse(["Child 1 - B"])  // a leaf's flag is kept, harmlessly

    // The seed's four steps: insert before, delete (takes the children), re-append, re-expand.
    var fourSteps = snapshot
    try fourSteps.insertItems(["Parent 1 ★"], beforeItem: "Parent 1")
    try fourSteps.deleteItems(["Parent 1"])
    #expect(fourSteps.itemIdentifiers(inSection: "Parent 1") == ["Parent 1 ★"])  // the children went too
    try fourSteps.appendItems(["Child 1 - A", "Child 1 - B", "Child 1 - C"], underParent: "Parent 1 ★")
    try fourSteps.expand(["Parent 1 ★"])

    // One operation.
    try snapshot.replaceItem("Parent 1", with: "Parent 1 ★")
    #expect(!snapshot.contains(item: "Parent 1"))
    #expect(snapshot.rootItems(inSection: "Parent 1") == ["Parent 1 ★"])
    #expect(snapshot.children(of: "Parent 1 ★") == ["Child 1 - A", "Child 1 - B", "Child 1 - C"])
    #expect(snapshot.isExpanded("Parent 1 ★"))
    #expect(snapshot.parent(of: "Child 1 - C") == "Parent 1 ★")
    #expect(snapshot.reloadedItemIdentifiers == ["Parent 1 ★"])
    #expect(snapshot.outline(ofSection: "Parent 1") == fourSteps.outline(ofSection: "Parent 1"))
    #expect(snapshot.itemIdentifiers == fourSteps.itemIdentifiers)

    // Replacing with a header that already exists elsewhere is refused, nothing changes.
    let before = snapshot
    #expect(throws: Failure.itemsAlreadyExist(["Parent 2"])) { try snapshot.replaceItem("Parent 1 ★", with: "Parent 2") }
    #expect(snapshot.itemIdentifiers == before.itemIdentifiers)
    #expect(snapshot == before)
  }

  @Test("section header replaced in one operation keeps its items")
  func sectionHeaderReplaced() throws {
    var snapshot = try Self.headerList()
    try snapshot.replaceSection("Parent 1", with: TestSection("Parent 1", content: "★"))
    #expect(snapshot.section("Parent 1")?.content == "★")
    #expect(snapshot.itemIdentifiers(inSection: "Parent 1") == ["P1", "1A", "1B", "1C"])
    #expect(snapshot.reloadedSectionIdentifiers == ["Parent 1"])

    try snapshot.replaceSection("Parent 1", with: TestSection("Parent One"))
    #expect(snapshot.sectionIdentifiers == ["Parent One", "Parent 2"])
    #expect(snapshot.itemIdentifiers(inSection: "Parent One") == ["P1", "1A", "1B", "1C"])
    #expect(snapshot.sectionIdentifier(containingItem: "1C") == "Parent One")
    #expect(snapshot.visibleItems(inSection: "Parent One") == ["P1", "1A", "1B", "1C"])
    #expect(snapshot.reloadedSectionIdentifiers == ["Parent One"])
    #expect(snapshot.itemIdentifiersIfPresent(inSection: "Parent 1") == nil)
    snapshot._checkAllInvariants()
  }

  // MARK: reload-cells-value-vs-reference.txt

  /// The seed's `Superhero` as a value type: identity (`id`) apart from content (`name`).
  static func heroes() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("main")])
    try snapshot.appendItems([
      TestItem("h1", content: "Batman"), TestItem("h2", content: "Superman"), TestItem("h3", content: "Wonder Woman"),
    ])
    return snapshot
  }

  @Test("a value-type item reloads through updateItem: same row, new content, marked reloaded")
  func valueTypeReload() throws {
    var snapshot = try Self.heroes()
    let selected = try #require(snapshot.visibleItem(at: ListIndexPath(section: 0, row: 1)).flatMap { snapshot.item($0) })
    var updated = selected
    updated.content += " ★"
    try snapshot.updateItem(updated)
    #expect(snapshot.item("h2")?.content == "Superman ★")
    #expect(snapshot.visibleItem(at: ListIndexPath(section: 0, row: 1)) == "h2")
    #expect(snapshot.itemIdentifiers == ["h1", "h2", "h3"])
    #expect(snapshot.reloadedItemIdentifiers == ["h2"])
    #expect(snapshot.item("h1")?.content == "Batman")

    // Markers are a per-change set: clearing them keeps the content.
    snapshot.clearMarkers()
    #expect(snapshot.reloadedItemIdentifiers.isEmpty)
    #expect(snapshot.item("h2")?.content == "Superman ★")

    // reload/reconfigure by identifier only mark; content stays.
    try snapshot.reloadItems(["h1"])
    try snapshot.reconfigureItems(["h3"])
    #expect(snapshot.reloadedItemIdentifiers == ["h1"])
    #expect(snapshot.reconfiguredItemIdentifiers == ["h3"])
    #expect(snapshot.item("h1")?.content == "Batman")
  }

  @Test("updating an outline item keeps its children and expansion")
  func updateKeepsOutline() throws {
    var snapshot = try Self.headerList()
    try snapshot.updateItems([TestItem("P2", content: "Parent 2 (4)"), TestItem("2C", content: "changed")])
    #expect(snapshot.children(of: "P2") == ["2A", "2B", "2C", "2D"])
    #expect(snapshot.isExpanded("P2"))
    #expect(snapshot.location(ofItem: "2C") == ListItemLocation(.parent("P2"), index: 2))
    #expect(snapshot.item("2C")?.content == "changed")
    #expect(snapshot.reloadedItemIdentifiers == ["P2", "2C"])
  }

  @Test("the seed's crashes become errors: reload of an unknown value, insert before itself")
  func valueTypeReloadCrashes() throws {
    // Identity equals value (plain String): the updated value is a different, unknown item.
    var snapshot = ListSnapshot<String, String>()
    try snapshot.appendSections(["main"])
    try snapshot.appendItems(["Batman", "Superman"])
    let before = snapshot
    #expect(throws: Failure.itemsNotFound(["Batman ★"])) { try snapshot.reloadItems(["Batman ★"]) }
    // The reference-type workaround: insert the "updated" item before itself.
    #expect(throws: (any Error).self) { try snapshot.insertItems(["Batman"], beforeItem: "Batman") }
    do {
      try snapshot.insertItems(["Batman"], beforeItem: "Batman")
    } catch {
      #expect(error == .anchorAmongInsertedItems("Batman") || error == .itemsAlreadyExist(["Batman"]))
    }
    #expect(snapshot.itemIdentifiers == before.itemIdentifiers)
    #expect(snapshot.reloadedItemIdentifiers.isEmpty)
    // The value-type workaround still works, and so does the one-step replacement.
    try snapshot.replaceItem("Batman", with: "Batman ★")
    #expect(snapshot.itemIdentifiers == ["Batman ★", "Superman"])
  }

  // MARK: sections-insert-delete.txt

  static func films() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("Classics"), TestSection("Not that cool stuff")])
    try snapshot.appendItems(
      [TestItem("A New Hope"), TestItem("The Empire Strikes Back"), TestItem("Return of the Jedi")], toSection: "Classics")
    try snapshot.appendItems(
      [TestItem("The Phantom Menace"), TestItem("Attack of the Clones"), TestItem("Revenge of the Sith")])
    return snapshot
  }

  @Test("deleting a section's items leaves it empty; then the empty section is dropped")
  func deleteThenDropEmptySection() throws {
    var snapshot = try Self.films()
    #expect(snapshot.itemIdentifiers(inSection: "Not that cool stuff").count == 3)  // default: last section

    // Tap the cells of section 1 one by one (row 0 each time).
    while let film = snapshot.visibleItem(at: ListIndexPath(section: 1, row: 0)) {
      try snapshot.deleteItems([film])
      snapshot._checkAllInvariants()
    }
    // The header stays (as in UIKit) until the section is deleted.
    #expect(snapshot.numberOfItems(inSection: "Not that cool stuff") == 0)
    #expect(snapshot.sectionIdentifiers == ["Classics", "Not that cool stuff"])
    if snapshot.numberOfItems(inSection: "Not that cool stuff") == 0 {
      try snapshot.deleteSections(["Not that cool stuff"])
    }
    #expect(snapshot.sectionIdentifiers == ["Classics"])
    #expect(snapshot.numberOfItems == 3)
    #expect(snapshot.index(ofSection: "Not that cool stuff") == nil)

    // Insert: appendItems without a section goes to the last section, now "Classics".
    try snapshot.appendItems([TestItem("The Last Jedi")])
    #expect(snapshot.itemIdentifiers(inSection: "Classics").last == "The Last Jedi")
    #expect(snapshot.visibleIndexPath(ofItem: "The Last Jedi") == ListIndexPath(section: 0, row: 3))
  }

  @Test("deleting a non-empty section takes its items (and their markers) with it")
  func deleteSectionTakesItems() throws {
    var snapshot = try Self.films()
    try snapshot.reloadItems(["A New Hope", "Revenge of the Sith"])
    try snapshot.reloadSections(["Classics"])
    try snapshot.deleteSections(["Classics"])
    #expect(snapshot.itemIdentifiers == ["The Phantom Menace", "Attack of the Clones", "Revenge of the Sith"])
    #expect(!snapshot.contains(item: "A New Hope"))
    #expect(snapshot.sectionIdentifier(containingItem: "A New Hope") == nil)
    #expect(snapshot.reloadedItemIdentifiers == ["Revenge of the Sith"])
    #expect(snapshot.reloadedSectionIdentifiers.isEmpty)
    // The identifiers are free again.
    try snapshot.insertSections([TestSection("Classics")], at: 0)
    try snapshot.appendItems([TestItem("A New Hope")], toSection: "Classics")
    #expect(snapshot.itemIdentifiers.first == "A New Hope")

    snapshot.deleteAllItems()
    #expect(snapshot.numberOfSections == 0)
    #expect(snapshot.numberOfItems == 0)
    #expect(snapshot.reloadedItemIdentifiers.isEmpty)
    #expect(throws: Failure.noSections) { try snapshot.appendItems([TestItem("The Last Jedi")]) }
  }

  // MARK: keep-expansion-state.txt

  /// shellies ▾ → shelly1pm-51b1904 ▾ → [relay ▾ → [0], temperature]
  static func topics() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("topics")])
    try snapshot.appendItems([TestItem("shellies")])
    try snapshot.appendItems([TestItem("shellies/shelly1pm")], underParent: "shellies")
    try snapshot.appendItems(
      [TestItem("shellies/shelly1pm/relay"), TestItem("shellies/shelly1pm/temperature", content: "21.5")],
      underParent: "shellies/shelly1pm")
    try snapshot.appendItems([TestItem("shellies/shelly1pm/relay/0", content: "on")], underParent: "shellies/shelly1pm/relay")
    try snapshot.expand(["shellies", "shellies/shelly1pm", "shellies/shelly1pm/relay"])
    return snapshot
  }

  @Test("expansion survives content updates and new topics")
  func expansionSurvivesUpdates() throws {
    var snapshot = try Self.topics()
    let expanded = ["shellies", "shellies/shelly1pm", "shellies/shelly1pm/relay"]
    // A burst of MQTT messages: content updates of existing topics.
    for value in 0..<5 {
      try snapshot.updateItems([
        TestItem("shellies/shelly1pm/temperature", content: "2\(value).0"),
        TestItem("shellies/shelly1pm/relay", content: "msg \(value)"),
      ])
    }
    #expect(expanded.allSatisfy { snapshot.isExpanded($0) })
    #expect(snapshot.item("shellies/shelly1pm/temperature")?.content == "24.0")
    // A new topic arrives: it starts collapsed, the others keep their state.
    try snapshot.appendItems([TestItem("shellies/shelly1pm/power", content: "3W")], underParent: "shellies/shelly1pm")
    #expect(!snapshot.isExpanded("shellies/shelly1pm/power"))
    #expect(snapshot.isVisible("shellies/shelly1pm/power"))
    #expect(expanded.allSatisfy { snapshot.isExpanded($0) })
    #expect(
      snapshot.visibleItems == [
        "shellies", "shellies/shelly1pm", "shellies/shelly1pm/relay", "shellies/shelly1pm/relay/0",
        "shellies/shelly1pm/temperature", "shellies/shelly1pm/power",
      ])
  }

  @Test("a rebuilt outline keeps the expansion of surviving topics")
  func expansionSurvivesRebuiltOutline() throws {
    var snapshot = try Self.topics()
    // Rebuild shelly1pm's children from the current outline (which carries the flags), with
    // new content and a new topic, as the seed's snapshot(from:) does with its expandedNodes set.
    var outline = try #require(snapshot.outline(of: "shellies/shelly1pm"))
    #expect(outline.roots.map { $0.item.id } == ["shellies/shelly1pm/relay", "shellies/shelly1pm/temperature"])
    #expect(outline.roots[0].isExpanded)
    outline.roots[1].item.content = "22.0"
    outline.roots.append(.init(TestItem("shellies/shelly1pm/online", content: "true")))
    try snapshot.replace(childrenOf: "shellies/shelly1pm", using: outline)

    #expect(snapshot.isExpanded("shellies/shelly1pm"))
    #expect(snapshot.isExpanded("shellies/shelly1pm/relay"))
    #expect(snapshot.children(of: "shellies/shelly1pm/relay") == ["shellies/shelly1pm/relay/0"])
    #expect(!snapshot.isExpanded("shellies/shelly1pm/online"))
    #expect(snapshot.item("shellies/shelly1pm/temperature")?.content == "22.0")
    #expect(snapshot.visibleItems.count == 6)

    // Collapsing an ancestor hides the subtree but keeps the descendants' own flags.
    try snapshot.collapse(["shellies"])
    #expect(snapshot.visibleItems == ["shellies"])
    #expect(!snapshot.isVisible("shellies/shelly1pm/relay/0"))
    #expect(snapshot.isExpanded("shellies/shelly1pm/relay"))
    try snapshot.expand(["shellies"])
    #expect(snapshot.visibleItems.count == 6)

    // Replacing a topic node (new identity) and moving a subtree keep the flags too.
    try snapshot.replaceItem("shellies/shelly1pm/relay", with: TestItem("shellies/shelly1pm/relay-v2"))
    #expect(snapshot.isExpanded("shellies/shelly1pm/relay-v2"))
    try snapshot.moveItem("shellies/shelly1pm/relay-v2", toSection: "topics")
    #expect(snapshot.isExpanded("shellies/shelly1pm/relay-v2"))
    #expect(snapshot.visibleItems.last == "shellies/shelly1pm/relay/0")

    // A leaf can be expanded ahead of time; the flag is kept when children arrive.
    try snapshot.expand(["shellies/shelly1pm/online"])
    try snapshot.appendItems([TestItem("shellies/shelly1pm/online/since")], underParent: "shellies/shelly1pm/online")
    #expect(snapshot.isVisible("shellies/shelly1pm/online/since"))
    snapshot._checkAllInvariants()
  }

  @Test("the visual description draws the visible tree: indentation per level, ▾ expanded, ▸ collapsed")
  func visualDescriptionOfTheTopicTree() throws {
    var snapshot = try Self.topics()
    try snapshot.collapse(["shellies/shelly1pm/relay"])
    let lines = snapshot.visualDescription().split(separator: "\n").map(String.init)
    func line(_ id: String) -> String? { lines.first { $0.hasSuffix(" " + id) } }
    func indent(_ text: String) -> Int { text.prefix { $0 == " " }.count }
    let rows = snapshot.visibleItems
    let drawn = try rows.map { try #require(line($0), "\($0) is not drawn:\n\(lines.joined(separator: "\n"))") }
    // In visible-row order, each level indented deeper than its parent.
    #expect(drawn.map { lines.firstIndex(of: $0)! } == drawn.map { lines.firstIndex(of: $0)! }.sorted())
    for id in rows {
      if let parent = snapshot.parent(of: id), let parentLine = line(parent), let itemLine = line(id) {
        #expect(indent(itemLine) > indent(parentLine), "\(id) is not indented under \(parent)")
      }
    }
    #expect(line("shellies")?.contains("▾") == true)
    #expect(line("shellies/shelly1pm/relay")?.contains("▸") == true)
    #expect(lines.contains { $0.contains("topics") })
  }

  // MARK: section-snapshots-and-reordering.txt

  /// One section: headers (roots) with their child items, all expanded; a second flat section.
  /// Rows of "outline": H1 a b H2 c d e — rows of "flat": x y
  static func reorderList() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("outline"), TestSection("flat")])
    try snapshot.appendItems([TestItem("H1"), TestItem("H2")], toSection: "outline")
    try snapshot.appendItems([TestItem("a"), TestItem("b")], underParent: "H1")
    try snapshot.appendItems([TestItem("c"), TestItem("d"), TestItem("e")], underParent: "H2")
    try snapshot.appendItems([TestItem("x"), TestItem("y")], toSection: "flat")
    try snapshot.expand(["H1", "H2"])
    return snapshot
  }

  static func path(_ section: Int, _ row: Int) -> ListIndexPath { ListIndexPath(section: section, row: row) }

  @Test("reorder within a parent yields a transaction with the before and after states")
  func reorderWithinParent() throws {
    var snapshot = try Self.reorderList()
    let before = snapshot
    let transaction = try snapshot.moveVisibleRow(from: Self.path(0, 6), to: Self.path(0, 4))  // e before c
    #expect(snapshot.children(of: "H2") == ["e", "c", "d"])
    #expect(snapshot.visibleIndexPath(ofItem: "e") == Self.path(0, 4))
    #expect(transaction.initialSnapshot.itemIdentifiers == before.itemIdentifiers)
    #expect(transaction.finalSnapshot.itemIdentifiers == snapshot.itemIdentifiers)
    #expect(transaction.finalSnapshot == snapshot)
    #expect(transaction.initialSnapshot == before)
    // Like NSDiffableDataSourceTransaction: the difference replays the change.
    #expect(before.itemIdentifiers.applying(transaction.difference) == snapshot.itemIdentifiers)
    let outline = try #require(transaction.sectionTransactions.first { $0.sectionIdentifier == "outline" })
    #expect(outline.initialItems == ["H1", "a", "b", "H2", "c", "d", "e"])
    #expect(outline.finalItems == ["H1", "a", "b", "H2", "e", "c", "d"])
    #expect(outline.initialItems.applying(outline.difference) == outline.finalItems)
    let flat = try #require(transaction.sectionTransactions.first { $0.sectionIdentifier == "flat" })
    #expect(flat.difference.isEmpty)
  }

  @Test("reorder across parents and sections; a header moves with its children")
  func reorderAcrossParentsAndSections() throws {
    var snapshot = try Self.reorderList()
    // Drag b (row 2) onto row 3 of the final layout: rows without b are H1 a H2 c d e, so b
    // lands before c, under H2.
    try snapshot.moveVisibleRow(from: Self.path(0, 2), to: Self.path(0, 3))
    #expect(snapshot.parent(of: "b") == "H2")
    #expect(snapshot.visibleItems(inSection: "outline") == ["H1", "a", "H2", "b", "c", "d", "e"])

    // Drag the header H1 (with a) into the flat section, before y.
    let transaction = try snapshot.moveVisibleRow(from: Self.path(0, 0), to: Self.path(1, 1))
    #expect(snapshot.rootItems(inSection: "flat") == ["x", "H1", "y"])
    #expect(snapshot.children(of: "H1") == ["a"])
    #expect(snapshot.visibleItems(inSection: "flat") == ["x", "H1", "a", "y"])
    #expect(snapshot.sectionIdentifier(containingItem: "a") == "flat")
    let flat = try #require(transaction.sectionTransactions.first { $0.sectionIdentifier == "flat" })
    #expect(flat.initialItems == ["x", "y"])
    #expect(flat.finalItems == ["x", "H1", "a", "y"])

    // Drag to the end of a section: row == the remaining row count → last root item.
    try snapshot.moveVisibleRow(from: Self.path(0, 2), to: Self.path(0, 4))  // c; rows left: H2 b d e
    #expect(snapshot.rootItems(inSection: "outline") == ["H2", "c"])
    #expect(snapshot.visibleIndexPath(ofItem: "c") == Self.path(0, 4))
    snapshot._checkAllInvariants()
  }

  @Test("a drag to or from a row that does not exist is refused and changes nothing")
  func reorderOutOfRange() throws {
    var snapshot = try Self.reorderList()
    let before = snapshot
    #expect(throws: Failure.indexPathOutOfRange(section: 0, row: 7)) {
      try snapshot.moveVisibleRow(from: Self.path(0, 7), to: Self.path(0, 0))
    }
    // Moving H2 (4 rows) leaves 3 rows: row 3 is valid, row 4 is not.
    #expect(throws: Failure.indexPathOutOfRange(section: 0, row: 4)) {
      try snapshot.moveVisibleRow(from: Self.path(0, 3), to: Self.path(0, 4))
    }
    #expect(throws: Failure.indexPathOutOfRange(section: 2, row: 0)) {
      try snapshot.moveVisibleRow(from: Self.path(0, 0), to: Self.path(2, 0))
    }
    #expect(snapshot.itemIdentifiers == before.itemIdentifiers)
    #expect(snapshot == before)
    // Collapsed rows are not rows: with H2 collapsed, section 0 has 4 rows (H1 a b H2).
    try snapshot.collapse(["H2"])
    #expect(throws: Failure.indexPathOutOfRange(section: 0, row: 4)) {
      try snapshot.moveVisibleRow(from: Self.path(0, 4), to: Self.path(0, 0))
    }
    try snapshot.moveVisibleRow(from: Self.path(0, 3), to: Self.path(0, 0))
    #expect(snapshot.itemIdentifiers(inSection: "outline") == ["H2", "c", "d", "e", "H1", "a", "b"])
  }
}
