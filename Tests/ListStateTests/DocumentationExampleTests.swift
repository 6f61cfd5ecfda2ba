import ListState
import Testing

/// The examples of `Sources/ListJournal/ListJournal.docc/Snapshots.md`, run as written, with the
/// results the article states. If one of these fails, fix the article too.
@Suite("Snapshots article examples")
struct SnapshotsDocumentationExampleTests {
  /// The article's item type: identity (`id`) apart from content (`title`).
  struct Row: ListElement, Codable, Hashable {
    let id: String
    var title: String
  }

  /// "Building a list" (the state the later sections start from).
  func inbox() throws -> ListSnapshot<String, Row> {
    var snapshot = ListSnapshot<String, Row>()
    try snapshot.appendSections(["Inbox", "Done"])
    try snapshot.appendItems(
      [Row(id: "groceries", title: "Groceries"), Row(id: "taxes", title: "Taxes")], toSection: "Inbox")
    try snapshot.appendItems(
      [Row(id: "milk", title: "Milk"), Row(id: "eggs", title: "Eggs")], underParent: "groceries")
    try snapshot.appendItems([Row(id: "gym", title: "Gym")])  // no section named: the last one
    return snapshot
  }

  @Test func buildingAList() throws {
    let snapshot = try inbox()
    #expect(snapshot.numberOfSections == 2)
    #expect(snapshot.numberOfItems == 5)
    #expect(snapshot.itemIdentifiers == ["groceries", "milk", "eggs", "taxes", "gym"])
    #expect(snapshot.itemIdentifiers(inSection: "Inbox") == ["groceries", "milk", "eggs", "taxes"])
    #expect(snapshot.rootItems(inSection: "Inbox") == ["groceries", "taxes"])
    #expect(snapshot.visibleItems(inSection: "Inbox") == ["groceries", "taxes"])
    #expect(snapshot.parent(of: "milk") == "groceries")
    #expect(snapshot.level(of: "milk") == 1)
    #expect(snapshot.sectionIdentifier(containingItem: "milk") == "Inbox")
    #expect(snapshot.index(ofItem: "taxes") == 3)
    #expect(snapshot.location(ofItem: "eggs") == ListItemLocation(.parent("groceries"), index: 1))
  }

  @Test func buildingInBulk() throws {
    let flat = try ListSnapshot<String, Int>(section: "All", items: Array(0..<10_000))
    #expect(flat.numberOfItems == 10_000)

    let fruit = try ListSnapshot<String, String>([
      ("Fruit", ListOutline([.init("Apple", isExpanded: true, children: [.init("Granny Smith")]), .init("Pear")])),
      ("Vegetables", ListOutline(items: ["Leek"])),
    ])
    #expect(fruit.visibleItems == ["Apple", "Granny Smith", "Pear", "Leek"])
  }

  @Test func identityApartFromContent() throws {
    var snapshot = try inbox()
    try snapshot.updateItem(Row(id: "taxes", title: "Taxes 2026"))
    #expect(snapshot.item("taxes")?.title == "Taxes 2026")
    #expect(snapshot.index(ofItem: "taxes") == 3)
    #expect(snapshot.reloadedItemIdentifiers == ["taxes"])

    // Plain identifiers: the content is the identifier.
    var names = ListSnapshot<String, String>()
    try names.appendSections(["People"])
    try names.appendItems(["Ada", "Grace"])
    #expect(names.item("Ada") == "Ada")
  }

  @Test func expansionAndVisibleRows() throws {
    var snapshot = try inbox()
    try snapshot.expand(["groceries"])
    #expect(snapshot.visibleItems(inSection: "Inbox") == ["groceries", "milk", "eggs", "taxes"])
    #expect(snapshot.isVisible("milk"))
    #expect(snapshot.numberOfVisibleItems(inSection: "Inbox") == 4)
    #expect(snapshot.visibleIndexPath(ofItem: "taxes") == ListIndexPath(section: 0, row: 3))
    #expect(snapshot.visibleItem(at: ListIndexPath(section: 1, row: 0)) == "gym")
    #expect(
      snapshot.visualDescription() == """
        Section Inbox
          ▾ groceries
              milk
              eggs
            taxes
        Section Done
            gym
        """)

    try snapshot.collapse(["groceries"])
    #expect(!snapshot.isVisible("milk"))
    #expect(snapshot.visibleIndexPath(ofItem: "milk") == nil)
    #expect(snapshot.isExpanded("groceries") == false)

    // A leaf keeps its flag: its children show as soon as it has some.
    try snapshot.expand(["taxes"])
    try snapshot.appendItems([Row(id: "receipts", title: "Receipts")], underParent: "taxes")
    #expect(snapshot.visibleItems(inSection: "Inbox") == ["groceries", "taxes", "receipts"])
  }

  @Test func replaceHeaderInOneOperation() throws {
    var snapshot = try inbox()
    try snapshot.expand(["groceries"])
    try snapshot.replaceItem("groceries", with: Row(id: "shopping", title: "Shopping"))
    #expect(snapshot.children(of: "shopping") == ["milk", "eggs"])
    #expect(snapshot.isExpanded("shopping"))
    #expect(snapshot.index(ofItem: "shopping") == 0)
    #expect(!snapshot.contains(item: "groceries"))
    #expect(snapshot.reloadedItemIdentifiers == ["shopping"])

    try snapshot.replaceSection("Done", with: "Archive")
    #expect(snapshot.sectionIdentifiers == ["Inbox", "Archive"])
    #expect(snapshot.itemIdentifiers(inSection: "Archive") == ["gym"])
  }

  @Test func outlines() throws {
    var snapshot = try inbox()
    let errands = ListOutline<Row>([
      .init(
        Row(id: "errands", title: "Errands"), isExpanded: true,
        children: [.init(Row(id: "post", title: "Post office")), .init(Row(id: "bank", title: "Bank"))])
    ])
    try snapshot.insert(errands, beforeItem: "taxes")
    #expect(snapshot.visibleItems(inSection: "Inbox") == ["groceries", "errands", "post", "bank", "taxes"])

    try snapshot.replace(childrenOf: "errands", using: ListOutline(items: [Row(id: "bank", title: "Bank")]))
    #expect(snapshot.outline(of: "errands", includingParent: true)?.itemIdentifiers == ["errands", "bank"])
    #expect(snapshot.outline(ofSection: "Done")?.itemIdentifiers == ["gym"])
  }

  @Test func reorderByIndexPath() throws {
    var list = try ListSnapshot<String, String>(section: "Fruit", items: ["Apple", "Banana", "Cherry", "Date"])
    let transaction = try list.moveVisibleRow(
      from: ListIndexPath(section: 0, row: 3), to: ListIndexPath(section: 0, row: 1))
    #expect(list.visibleItems(inSection: "Fruit") == ["Apple", "Date", "Banana", "Cherry"])
    #expect(transaction.initialSnapshot.itemIdentifiers == ["Apple", "Banana", "Cherry", "Date"])
    #expect(transaction.finalSnapshot == list)
    let difference = transaction.sectionTransactions[0].difference
    #expect(difference.insertions == [.insert(offset: 1, element: "Date", associatedWith: 3)])
    #expect(difference.removals == [.remove(offset: 3, element: "Date", associatedWith: 1)])

    // The end position, the section's row count: the item becomes the last root item.
    var end = list
    try list.moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 4))
    #expect(list.visibleItems(inSection: "Fruit") == ["Date", "Banana", "Cherry", "Apple"])
    // UIKit's final-layout index of the last row does the same; one past either is refused.
    try end.moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 3))
    #expect(end == list)
    #expect(throws: ListError<String, String>.indexPathOutOfRange(section: 0, row: 5)) {
      try end.moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 5))
    }

    // Dropped on a child's row: the moved item becomes that child's sibling.
    var outline = try ListSnapshot<String, String>([
      ("Fruit", ListOutline([.init("Apple", isExpanded: true, children: [.init("Granny Smith")]), .init("Pear")]))
    ])
    try outline.moveVisibleRow(from: ListIndexPath(section: 0, row: 2), to: ListIndexPath(section: 0, row: 1))
    #expect(outline.children(of: "Apple") == ["Pear", "Granny Smith"])

    // Positional moves, without index paths.
    try list.moveItem("Apple", to: ListItemLocation(.section("Fruit"), index: 0))
    #expect(list.itemIdentifiers == ["Apple", "Date", "Banana", "Cherry"])
  }

  @Test func typedErrorsLeaveTheSnapshotUnchanged() throws {
    var snapshot = try inbox()
    let before = snapshot
    do {
      try snapshot.appendItems([Row(id: "milk", title: "Milk again")])
      Issue.record("expected an error")
    } catch {
      #expect(error == .itemsAlreadyExist(["milk"]))
      #expect("\(error)" == "items already in the list: 'milk'")
    }
    #expect(snapshot == before)

    // `do throws(…)` makes the catch clauses pattern-match the error's cases.
    var caught: [String] = []
    do throws(ListError<String, String>) {
      try snapshot.moveItem("groceries", underParent: "milk")
    } catch .itemUnderOwnDescendant(let item, let destination) {
      caught = [item, destination]
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(caught == ["groceries", "milk"])
  }

  /// The article's table: one row per UIKit crash case.
  @Test func everyCrashCaseIsAnError() throws {
    typealias Failure = ListError<String, String>
    var snapshot = try inbox()
    let before = snapshot
    func expectError(_ expected: Failure, _ operation: (inout ListSnapshot<String, Row>) throws -> Void) {
      var copy = snapshot
      do {
        try operation(&copy)
        Issue.record("expected \(expected)")
      } catch {
        #expect(error as? Failure == expected)
      }
      #expect(copy == snapshot)
    }
    let a = Row(id: "a", title: "A")
    expectError(.duplicateItems(["a"])) { try $0.appendItems([a, a]) }
    expectError(.duplicateSections(["X"])) { try $0.appendSections(["X", "X"]) }
    expectError(.itemsAlreadyExist(["milk"])) { try $0.appendItems([Row(id: "milk", title: "Milk")]) }
    expectError(.sectionsAlreadyExist(["Inbox"])) { try $0.appendSections(["Inbox"]) }
    expectError(.itemsNotFound(["bread"])) { try $0.deleteItems(["bread"]) }
    expectError(.itemsNotFound(["bread"])) { try $0.reloadItems(["bread"]) }
    expectError(.itemsNotFound(["bread"])) { try $0.insertItems([a], beforeItem: "bread") }
    expectError(.sectionsNotFound(["Later"])) { try $0.appendItems([a], toSection: "Later") }
    expectError(.itemRelativeToItself("milk")) { try $0.moveItem("milk", afterItem: "milk") }
    expectError(.sectionRelativeToItself("Inbox")) { try $0.moveSection("Inbox", beforeSection: "Inbox") }
    expectError(.itemUnderOwnDescendant(item: "groceries", destination: "eggs")) {
      try $0.moveItem("groceries", beforeItem: "eggs")
    }
    expectError(.anchorAmongInsertedItems("milk")) {
      try $0.appendItems([Row(id: "milk", title: "Milk")], underParent: "milk")
    }
    expectError(.anchorAmongInsertedSections("Done")) { try $0.insertSections(["Done"], afterSection: "Done") }
    expectError(.indexOutOfRange(index: 5, count: 2)) { try $0.insertSections(["X"], at: 5) }
    expectError(.indexPathOutOfRange(section: 0, row: 9)) {
      try $0.moveVisibleRow(from: ListIndexPath(section: 0, row: 9), to: ListIndexPath(section: 0, row: 0))
    }
    var empty = ListSnapshot<String, Row>()
    #expect(throws: Failure.noSections) { try empty.appendItems([a]) }
    #expect(snapshot == before)
    snapshot.deleteItemsIfPresent(["bread", "gym"])
    #expect(!snapshot.contains(item: "gym"))
  }

  @Test func sectionSnapshots() throws {
    var outline = ListSectionSnapshot<String>()
    try outline.append(["Fruit", "Vegetables"])
    try outline.append(["Apple", "Pear"], to: "Fruit")
    try outline.expand(["Fruit"])
    #expect(outline.visibleItems == ["Fruit", "Apple", "Pear", "Vegetables"])
    #expect(outline.parent(of: "Pear") == "Fruit")
    #expect(outline.snapshot(of: "Fruit")?.items == ["Apple", "Pear"])
    var list = try ListSnapshot<String, String>(section: "Food", items: [])
    try list.apply(outline, to: "Food")
    #expect(list.sectionSnapshot(of: "Food") == outline)
  }

  @Test func fromUIKitConveniences() throws {
    var snapshot = try ListSnapshot<String, String>(section: "Fruit", items: ["Apple", "Pear"])
    #expect(!snapshot.isEmpty)
    #expect(snapshot.sectionIdentifier(for: 0) == "Fruit")
    try snapshot.replaceItems(inSection: "Fruit", with: ["Fig", "Pear"])
    #expect(snapshot.deleteItems(where: { $0.hasPrefix("F") }) == ["Fig"])
    #expect(snapshot.itemIdentifiers == ["Pear"])
  }

  @Test func costModel() throws {
    var snapshot = try ListSnapshot<String, Int>(section: "All", items: Array(0..<10_000))
    let copy = snapshot
    #expect(copy.isIdentical(to: snapshot))
    try snapshot.moveItem(9_999, beforeItem: 0)
    #expect(!copy.isIdentical(to: snapshot))
    #expect(copy.index(ofItem: 9_999) == 9_999)
    #expect(snapshot.index(ofItem: 9_999) == 0)
  }
}
