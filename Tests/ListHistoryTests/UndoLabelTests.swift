import ListHistory
import ListState
import TestSupport
import Testing

/// Undo-menu labels: every store operation labels its version in the operation's words, a
/// transaction of operations of one kind adds them up, an explicit label wins, and operations
/// that changed nothing do not count.
@Suite struct UndoLabelTests {
  typealias Operation = ListOperation<TestSection, TestItem>

  /// Sections A, B; A: a, b, c; B: p (collapsed) with p1, p2.
  func makeStore() throws -> ListStore<TestSection, TestItem> {
    let store = ListStore<TestSection, TestItem>()
    try store.appendSections([TestSection("A"), TestSection("B")], label: "setup")
    try store.appendItems([TestItem("a"), TestItem("b"), TestItem("c")], toSection: "A", label: "setup")
    try store.appendItems([TestItem("p")], toSection: "B", label: "setup")
    try store.appendItems([TestItem("p1"), TestItem("p2")], underParent: "p", label: "setup")
    return store
  }

  static let cases: [(Operation, String)] = [
    (.appendSections([TestSection("C")]), "Append Section"),
    (.appendSections([TestSection("C"), TestSection("D")]), "Append 2 Sections"),
    (.insertSectionsBefore([TestSection("C")], anchor: "A"), "Insert Section"),
    (.insertSectionsAfter([TestSection("C"), TestSection("D")], anchor: "A"), "Insert 2 Sections"),
    (.insertSectionsAt([TestSection("C")], index: 1), "Insert Section"),
    (.deleteSections(["A"]), "Delete Section"),
    (.moveSectionBefore("B", anchor: "A"), "Move Section"),
    (.moveSectionAfter("A", anchor: "B"), "Move Section"),
    (.moveSectionToIndex("A", index: 1), "Move Section"),
    (.reloadSections(["A", "B"]), "Reload 2 Sections"),
    (.updateSection(TestSection("A", content: "x")), "Edit Section"),
    (.replaceSection("A", with: TestSection("Z")), "Replace Section"),
    (.appendItems([TestItem("x"), TestItem("y")], toSection: "A"), "Append 2 Items"),
    (.appendItemsUnderParent([TestItem("x")], parent: "p"), "Append Item"),
    (.insertItemsBefore([TestItem("x")], anchor: "a"), "Insert Item"),
    (.insertItemsAfter([TestItem("x"), TestItem("y"), TestItem("z")], anchor: "a"), "Insert 3 Items"),
    (.deleteItems(["a", "b", "c"]), "Delete 3 Items"),
    (.deleteItemsIfPresent(["a", "absent"]), "Delete Item"),
    (.deleteAllItems, "Delete All"),
    (.moveItemBefore("c", anchor: "a"), "Move Item"),
    (.moveItemAfter("a", anchor: "c"), "Move Item"),
    (.moveItemToSection("a", section: "B"), "Move Item"),
    (.moveItemUnderParent("a", parent: "p"), "Move Item"),
    (.moveItemToLocation("a", ListItemLocation(.section("B"), index: 0)), "Move Item"),
    (.moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 3)), "Reorder"),
    (.reloadItems(["a"]), "Reload Item"),
    (.reconfigureItems(["a", "b"]), "Reconfigure 2 Items"),
    (.updateItems([TestItem("a", content: "1"), TestItem("b", content: "2")]), "Edit 2 Items"),
    (.updateItem(TestItem("a", content: "1")), "Edit Item"),
    (.replaceItem("a", with: TestItem("z")), "Replace Item"),
    (.expand(["p"]), "Expand Item"),
    (.replaceChildren(of: "p", using: ListOutline([.init(TestItem("q"))])), "Replace Children"),
    (.insertOutlineBefore(ListOutline([.init(TestItem("x"), children: [.init(TestItem("y"))])]), anchor: "a"), "Insert 2 Items"),
    (.insertOutlineAfter(ListOutline([.init(TestItem("x"))]), anchor: "a"), "Insert Item"),
    (.appendOutline(ListOutline([.init(TestItem("x")), .init(TestItem("y")), .init(TestItem("z"))]), toSection: "A"), "Append 3 Items"),
    (.appendOutlineUnderParent(ListOutline([.init(TestItem("x"))]), parent: "p"), "Append Item"),
    (.insertOutlineAt(ListOutline([.init(TestItem("x"))]), ListItemLocation(.section("A"), index: 1)), "Insert Item"),
  ]

  @Test(arguments: cases)
  func everyOperationLabelsItsVersion(operation: Operation, expected: String) throws {
    let store = try makeStore()
    try store.transaction { try operation.apply(to: &$0) }
    #expect(store.info(for: store.head)?.label == expected, "\(operation)")
    // An explicit label wins.
    let other = try makeStore()
    try other.transaction(label: "Mine") { try operation.apply(to: &$0) }
    #expect(other.info(for: other.head)?.label == "Mine")
  }

  @Test func storeOperationsLabelTheirVersionsUnlessTold() throws {
    let store = try makeStore()
    try store.moveItem("a", afterItem: "b")
    #expect(store.info(for: store.head)?.label == "Move Item")
    try store.deleteItems(["a", "b", "c"])
    #expect(store.info(for: store.head)?.label == "Delete 3 Items")
    try store.expand(["p"])
    #expect(store.info(for: store.head)?.label == "Expand Item")
    try store.collapse(["p"], label: "Fold")
    #expect(store.info(for: store.head)?.label == "Fold")
    try store.replaceItems(inSection: "A", with: [TestItem("x"), TestItem("y")])
    #expect(store.info(for: store.head)?.label == "Replace Items")
    try store.deleteItems(where: { $0.id.hasPrefix("p") })
    #expect(store.info(for: store.head)?.label == "Delete Item")  // p, with p1 and p2 under it
  }

  @Test func aTransactionOfOneKindAddsUpAndMixedKindsHaveNoDefault() throws {
    let store = try makeStore()
    try store.transaction { tx in try tx.expand(["p"]) }
    #expect(store.info(for: store.head)?.label == "Expand Item")
    try store.transaction { tx in
      try tx.expand(["p"])  // already expanded: changes nothing, does not count
      try tx.deleteItems(["a"])
      try tx.deleteItems(["b", "c"])
      #expect(tx.defaultLabel == "Delete 3 Items")
    }
    #expect(store.info(for: store.head)?.label == "Delete 3 Items")
    try store.transaction { tx in
      try tx.appendItems([TestItem("x")], toSection: "A")
      try tx.moveItem("x", toSection: "B")
      #expect(tx.defaultLabel == nil)
    }
    #expect(store.info(for: store.head)?.label == nil)
  }
}
