import ListState
import Testing
import TestSupport

/// Every `NSInternalInconsistencyException` case of UIKit's diffable snapshots becomes a typed
/// error naming the offending identifiers, and the snapshot is left exactly as it was.
@Suite("UIKit crash cases become typed errors with the state unchanged")
struct ErrorCaseTests {
  typealias Operation = ListOperation<TestSection, TestItem>
  typealias Failure = ListError<String, String>

  /// One crash case: the operation, on `base` (or an empty list), and the acceptable errors
  /// (more than one only where two checks fail at once and precedence is unspecified).
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var operation: Operation
    var expected: [Failure]
    var onEmptyList = false

    init(_ name: String, _ operation: Operation, _ expected: Failure..., onEmptyList: Bool = false) {
      self.name = name
      self.operation = operation
      self.expected = expected
      self.onEmptyList = onEmptyList
    }

    var testDescription: String { name }
  }

  /// Sections A and B. A: a ▾ [a1, a2 ▸ [a21]], b. B: c.
  static func base() throws -> TestSnapshot {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("A"), TestSection("B")])
    try snapshot.appendItems([TestItem("a"), TestItem("b")], toSection: "A")
    try snapshot.appendItems([TestItem("a1"), TestItem("a2")], underParent: "a")
    try snapshot.appendItems([TestItem("a21")], underParent: "a2")
    try snapshot.appendItems([TestItem("c")], toSection: "B")
    try snapshot.expand(["a"])
    try snapshot.reloadItems(["b"])
    return snapshot
  }

  static func item(_ id: String) -> TestItem { TestItem(id, content: "new") }
  static func section(_ id: String) -> TestSection { TestSection(id, content: "new") }
  static func at(_ container: ListItemContainer<String, String>, _ index: Int) -> ListItemLocation<String, String> {
    ListItemLocation(container, index: index)
  }
  static func path(_ section: Int, _ row: Int) -> ListIndexPath { ListIndexPath(section: section, row: row) }

  static let cases: [Case] = [
    // Duplicates in the argument ("supplied identifiers are not unique").
    Case("append duplicate items", .appendItems([item("x"), item("y"), item("x")], toSection: "A"), .duplicateItems(["x"])),
    Case("append duplicate sections", .appendSections([section("X"), section("X")]), .duplicateSections(["X"])),
    Case("insert duplicate items", .insertItemsBefore([item("x"), item("x")], anchor: "b"), .duplicateItems(["x"])),
    Case("delete duplicate items", .deleteItems(["b", "b"]), .duplicateItems(["b"])),
    Case("reload duplicate items", .reloadItems(["a", "c", "a"]), .duplicateItems(["a"])),
    Case("expand duplicate items", .expand(["a2", "a2"]), .duplicateItems(["a2"])),
    Case("update duplicate items", .updateItems([item("a"), item("a")]), .duplicateItems(["a"])),
    Case("delete duplicate sections", .deleteSections(["B", "B"]), .duplicateSections(["B"])),
    Case(
      "outline with a repeated item", .appendOutline(ListOutline([.init(item("x"), children: [.init(item("x"))])]), toSection: "A"),
      .duplicateItems(["x"])),

    // Adding identifiers that exist (UIKit silently moves or crashes; we refuse).
    Case("append existing items, all named", .appendItems([item("a21"), item("x"), item("c")], toSection: "A"), .itemsAlreadyExist(["a21", "c"])),
    Case("append existing sections", .appendSections([section("X"), section("B")]), .sectionsAlreadyExist(["B"])),
    Case("insert sections that exist", .insertSectionsAt([section("A")], index: 0), .sectionsAlreadyExist(["A"])),
    Case("append under a parent an existing item", .appendItemsUnderParent([item("c")], parent: "b"), .itemsAlreadyExist(["c"])),
    Case("replace an item by one that exists elsewhere", .replaceItem("b", with: item("c")), .itemsAlreadyExist(["c"])),
    Case("replace a section by one that exists", .replaceSection("A", with: section("B")), .sectionsAlreadyExist(["B"])),
    Case(
      "rebuild children with an item from elsewhere", .replaceChildren(of: "a", using: ListOutline(items: [item("a1"), item("b")])),
      .itemsAlreadyExist(["b"])),

    // No section to append to.
    Case("append items with no section", .appendItems([item("x")], toSection: nil), .noSections, onEmptyList: true),
    Case("append an outline with no section", .appendOutline(ListOutline(items: [item("x")]), toSection: nil), .noSections, onEmptyList: true),

    // Unknown identifiers ("Invalid item identifier specified for …").
    Case("append to an unknown section", .appendItems([item("x")], toSection: "Z"), .sectionsNotFound(["Z"])),
    Case("append under an unknown parent", .appendItemsUnderParent([item("x")], parent: "zz"), .itemsNotFound(["zz"])),
    Case("insert before an unknown item", .insertItemsBefore([item("x")], anchor: "zz"), .itemsNotFound(["zz"])),
    Case("insert after an unknown item", .insertItemsAfter([item("x")], anchor: "zz"), .itemsNotFound(["zz"])),
    Case("insert sections before an unknown one", .insertSectionsBefore([section("X")], anchor: "Z"), .sectionsNotFound(["Z"])),
    Case("delete unknown items, all named", .deleteItems(["zz", "a", "yy"]), .itemsNotFound(["zz", "yy"])),
    Case("delete unknown sections", .deleteSections(["A", "Z"]), .sectionsNotFound(["Z"])),
    Case("move an unknown item", .moveItemBefore("zz", anchor: "a"), .itemsNotFound(["zz"])),
    Case("move before an unknown item", .moveItemAfter("a", anchor: "zz"), .itemsNotFound(["zz"])),
    Case("move unknown item and anchor", .moveItemBefore("zz", anchor: "yy"), .itemsNotFound(["zz", "yy"])),
    Case("move to an unknown section", .moveItemToSection("a", section: "Z"), .sectionsNotFound(["Z"])),
    Case("move under an unknown parent", .moveItemUnderParent("b", parent: "zz"), .itemsNotFound(["zz"])),
    Case("move to a location in an unknown section", .moveItemToLocation("b", at(.section("Z"), 0)), .sectionsNotFound(["Z"])),
    Case("move an unknown section", .moveSectionBefore("Z", anchor: "A"), .sectionsNotFound(["Z"])),
    Case("reload unknown items (the value-type reload crash)", .reloadItems(["a", "zz"]), .itemsNotFound(["zz"])),
    Case("reconfigure unknown items", .reconfigureItems(["zz"]), .itemsNotFound(["zz"])),
    Case("reload unknown sections", .reloadSections(["Z"]), .sectionsNotFound(["Z"])),
    Case("expand unknown items", .expand(["a", "zz"]), .itemsNotFound(["zz"])),
    Case("collapse unknown items", .collapse(["zz"]), .itemsNotFound(["zz"])),
    Case("update an unknown item", .updateItem(item("zz")), .itemsNotFound(["zz"])),
    Case("update unknown sections", .updateSection(section("Z")), .sectionsNotFound(["Z"])),
    Case("replace an unknown item", .replaceItem("zz", with: item("x")), .itemsNotFound(["zz"])),
    Case("replace an unknown section", .replaceSection("Z", with: section("X")), .sectionsNotFound(["Z"])),
    Case("replace children of an unknown item", .replaceChildren(of: "zz", using: ListOutline(items: [item("x")])), .itemsNotFound(["zz"])),
    Case("insert an outline before an unknown item", .insertOutlineBefore(ListOutline(items: [item("x")]), anchor: "zz"), .itemsNotFound(["zz"])),

    // Relative to itself, under its own descendant.
    Case("move an item before itself", .moveItemBefore("b", anchor: "b"), .itemRelativeToItself("b")),
    Case("move an item under itself", .moveItemUnderParent("a", parent: "a"), .itemRelativeToItself("a")),
    Case("move an item under its child", .moveItemUnderParent("a", parent: "a2"), .itemUnderOwnDescendant(item: "a", destination: "a2")),
    Case("move an item under its grandchild", .moveItemUnderParent("a", parent: "a21"), .itemUnderOwnDescendant(item: "a", destination: "a21")),
    Case("move an item next to its descendant", .moveItemAfter("a", anchor: "a1"), .itemUnderOwnDescendant(item: "a", destination: "a1")),
    Case(
      "move an item to a location under its descendant", .moveItemToLocation("a", at(.parent("a21"), 0)),
      .itemUnderOwnDescendant(item: "a", destination: "a21")),
    Case("move a section before itself", .moveSectionBefore("A", anchor: "A"), .sectionRelativeToItself("A")),
    Case("move a section after itself", .moveSectionAfter("B", anchor: "B"), .sectionRelativeToItself("B")),

    // The anchor is among the inserted identifiers ("destination for insertion operation is in
    // the insertion identifier list"): the anchor then also exists, so either error is fine.
    Case(
      "insert an item before itself (reference-type reload workaround)", .insertItemsBefore([item("b")], anchor: "b"),
      .anchorAmongInsertedItems("b"), .itemsAlreadyExist(["b"])),
    Case(
      "insert sections after one of them", .insertSectionsAfter([section("X"), section("A")], anchor: "A"),
      .anchorAmongInsertedSections("A"), .sectionsAlreadyExist(["A"])),
    Case(
      "append under a parent that is being appended", .appendItemsUnderParent([item("a"), item("x")], parent: "a"),
      .anchorAmongInsertedItems("a"), .itemsAlreadyExist(["a"])),

    // Positions out of range.
    Case("insert sections past the end", .insertSectionsAt([section("X")], index: 3), .indexOutOfRange(index: 3, count: 2)),
    Case("insert sections before the start", .insertSectionsAt([section("X")], index: -1), .indexOutOfRange(index: -1, count: 2)),
    Case("move a section past the end", .moveSectionToIndex("A", index: 2), .indexOutOfRange(index: 2, count: 2)),
    Case("move an item past its new container's end", .moveItemToLocation("c", at(.section("A"), 3)), .indexOutOfRange(index: 3, count: 2)),
    Case(
      "move an item past its own container's end (counted after removal)", .moveItemToLocation("a1", at(.parent("a"), 2)),
      .indexOutOfRange(index: 2, count: 1)),
    Case(
      "insert an outline past the end", .insertOutlineAt(ListOutline(items: [item("x")]), at(.parent("a2"), 2)),
      .indexOutOfRange(index: 2, count: 1)),
    Case("drag from a row that does not exist", .moveVisibleRow(from: path(0, 5), to: path(0, 0)), .indexPathOutOfRange(section: 0, row: 5)),
    Case("drag from past the last row of a section", .moveVisibleRow(from: path(1, 1), to: path(0, 0)), .indexPathOutOfRange(section: 1, row: 1)),
    Case("drag from a section that does not exist", .moveVisibleRow(from: path(2, 0), to: path(0, 0)), .indexPathOutOfRange(section: 2, row: 0)),
    // Rows of A: a a1 a2 b. Moving b leaves 3 rows: row 3 (the final layout's last row) and row 4
    // (the section's row count) are the end, row 5 is out of range.
    Case("drag past the end of the final layout", .moveVisibleRow(from: path(0, 3), to: path(0, 5)), .indexPathOutOfRange(section: 0, row: 5)),
    Case("drag to a section that does not exist", .moveVisibleRow(from: path(0, 0), to: path(2, 0)), .indexPathOutOfRange(section: 2, row: 0)),
  ]

  /// The same table against the reference model alone (so the table itself is checked even
  /// where the snapshot disagrees).
  @Test(arguments: cases)
  func referenceModelAgreesWithTheTable(_ crashCase: Case) throws {
    var reference = ReferenceList<TestSection, TestItem>()
    if !crashCase.onEmptyList {
      try reference.appendSections([TestSection("A"), TestSection("B")])
      try reference.appendItems([TestItem("a"), TestItem("b")], toSection: "A")
      try reference.appendItems([TestItem("a1"), TestItem("a2")], underParent: "a")
      try reference.appendItems([TestItem("a21")], underParent: "a2")
      try reference.appendItems([TestItem("c")], toSection: "B")
      try reference.expand(["a"])
      try reference.reloadItems(["b"])
    }
    let before = reference
    let expected = crashCase.operation.expectedFailures(in: reference)
    #expect(expected.contains(crashCase.expected[0]), "reference expects \(expected)")
    #expect(Set(expected.map { "\($0)" }).isSubset(of: crashCase.expected.map { "\($0)" }), "reference also expects \(expected)")
    #expect(throws: (any Error).self) { try crashCase.operation.apply(to: &reference) }
    #expect(reference == before)
  }

  @Test(arguments: cases)
  func refusedWithATypedErrorAndNoChange(_ crashCase: Case) throws {
    var snapshot = crashCase.onEmptyList ? TestSnapshot() : try Self.base()
    let before = snapshot
    let reference = ReferenceList(before)
    // The reference model agrees that this is invalid, and with the error.
    #expect(crashCase.operation.expectedFailures(in: reference).contains(crashCase.expected[0]))

    var thrown: Failure?
    do { try crashCase.operation.apply(to: &snapshot) } catch { thrown = error }
    let error = try #require(thrown, "\(crashCase.operation) did not throw")
    #expect(crashCase.expected.contains(error), "\(crashCase.operation) threw \(error)")
    #expect(snapshot == before, "the snapshot is no longer == its state before")
    if let mismatch = reference.firstMismatch(with: snapshot) {
      Issue.record("the refused operation changed the snapshot: \(mismatch)")
    }
    snapshot._checkAllInvariants()
    // The message names the offending identifiers.
    let message = String(describing: error)
    switch error {
    case .duplicateItems(let ids), .itemsAlreadyExist(let ids), .itemsNotFound(let ids):
      for id in ids { #expect(message.contains("'\(id)'"), "\(message)") }
    case .duplicateSections(let ids), .sectionsAlreadyExist(let ids), .sectionsNotFound(let ids):
      for id in ids { #expect(message.contains("'\(id)'"), "\(message)") }
    default: break
    }
  }

  @Test func deleteItemsIfPresentSkipsUnknownIdentifiers() throws {
    var snapshot = try Self.base()
    snapshot.deleteItemsIfPresent(["zz", "a2", "zz", "c"])
    #expect(snapshot.itemIdentifiers == ["a", "a1", "b"])
    #expect(!snapshot.contains(item: "a21"))
    snapshot.deleteItemsIfPresent(["nothing"])
    #expect(snapshot.itemIdentifiers == ["a", "a1", "b"])
  }

  @Test func aThrownOperationLeavesMarkersAndExpansionAlone() throws {
    var snapshot = try Self.base()
    #expect(throws: Failure.itemsNotFound(["zz"])) { try snapshot.updateItems([Self.item("a"), Self.item("zz")]) }
    #expect(snapshot.item("a") == TestItem("a"))
    #expect(snapshot.reloadedItemIdentifiers == ["b"])
    #expect(throws: Failure.itemsNotFound(["zz"])) { try snapshot.collapse(["a", "zz"]) }
    #expect(snapshot.isExpanded("a"))
    #expect(throws: Failure.itemsNotFound(["zz"])) { try snapshot.deleteItems(["a", "zz"]) }
    #expect(snapshot.itemIdentifiers == ["a", "a1", "a2", "a21", "b", "c"])
  }
}
