import ListHistory
import ListPresenter
import ListState
import Testing

/// The examples of `Sources/ListPresenter/ListPresenter.docc/InAnApp.md`, run as written, with the
/// results the article states (UIKit, SwiftUI and `UndoManager` lines are Apple-only; their
/// platform-free counterparts run here). If one of these fails, fix the article too.
@Suite("In-an-app article examples")
@MainActor
struct InAnAppDocumentationExampleTests {
  @Test func presenterAnswersAndGestures() async throws {
    let store = ListStore<String, String>()
    try store.transaction(label: "Add Fruit") { tx in
      try tx.appendSections(["Fruit"])
      try tx.appendItems(["Apple", "Pear"])
      try tx.appendItems(["Granny Smith"], underParent: "Apple")
    }
    let presenter = ListPresenter(store: store)
    #expect(presenter.numberOfItems(inSection: 0) == 2)
    #expect(presenter.itemIdentifier(at: ListIndexPath(section: 0, row: 1)) == "Pear")
    #expect(presenter.indexPath(for: "Pear")?.description == "0:1")

    try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 0))
    #expect(store.info(for: store.head)?.label == "Expand")
    #expect(presenter.rows.rows == [["Apple", "Granny Smith", "Pear"]])
    try presenter.moveRow(from: ListIndexPath(section: 0, row: 2), to: ListIndexPath(section: 0, row: 0))
    #expect(presenter.rows.rows == [["Pear", "Apple", "Granny Smith"]])
    #expect(store.info(for: store.head)?.label == "Move")
    try presenter.deleteRows(at: [ListIndexPath(section: 0, row: 0)])
    #expect(store.info(for: store.head)?.label == "Delete" && presenter.rows.rows == [["Apple", "Granny Smith"]])
    try store.undo()
    while presenter.hasPendingUpdates { await Task.yield() }
    #expect(presenter.rows.rows == [["Pear", "Apple", "Granny Smith"]])
  }

  @Test func disclosureReconfiguresCanBeTurnedOff() throws {
    let store = ListStore<String, String>()
    let presenter = ListPresenter(store: store)
    #expect(presenter.reconfiguresDisclosureChanges)
    presenter.reconfiguresDisclosureChanges = false
    #expect(!presenter.reconfiguresDisclosureChanges)
  }

  @Test func appKitTableAndOutlineAdapters() async throws {
    let store = ListStore<String, String>()
    try store.transaction(label: "Add Fruit") { tx in
      try tx.appendSections(["Fruit"])
      try tx.appendItems(["Apple", "Pear"])
      try tx.appendItems(["Granny Smith"], underParent: "Apple")
      try tx.expand(["Apple"])
    }
    let presenter = ListPresenter(store: store)
    let table = ListTableAdapter(presenter: presenter)
    #expect(table.numberOfRows == 4)
    #expect(table.row(at: 0) == .sectionHeader(0) && table.isGroupRow(0))
    try table.moveRow(3, aboveRow: 1)
    #expect(store.info(for: store.head)?.label == "Move")
    #expect(presenter.rows.rows == [["Pear", "Apple", "Granny Smith"]])

    let outline = ListOutlineAdapter(presenter: presenter)
    #expect(outline.child(0, of: nil) == .section("Fruit"))
    #expect(outline.numberOfChildren(of: .item("Apple")) == 1)
    outline.viewDidCollapse(.item("Apple"))
    #expect(store.info(for: store.head)?.label == "Collapse" && !store.snapshot.isExpanded("Apple"))
    #expect(throws: ListError<String, String>.itemUnderOwnDescendant(item: "Apple", destination: "Granny Smith")) {
      try outline.moveItem("Apple", toParent: .item("Granny Smith"), childIndex: 0)
    }
  }

  @Test func modelMovesAsArrayMoveDoes() throws {
    let store = ListStore<String, String>()
    try store.appendSections(["Fruit"])
    try store.appendItems(["Apple", "Pear", "Fig"])
    let model = ListModel(store: store)
    model.move(fromOffsets: [2], toOffset: 0, inSection: "Fruit")
    #expect(model.rows(inSection: "Fruit").map(\.id) == ["Fig", "Apple", "Pear"])
  }
}
