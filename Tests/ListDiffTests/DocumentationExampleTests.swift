import ListDiff
import ListHistory
import ListState
import ListLocking
import TestSupport
import Testing

/// The examples of `Sources/ListJournal/ListJournal.docc/Diffs.md`, run as written, with the
/// results the article states. If one of these fails, fix the article too.
@Suite("Diffs article examples")
struct DiffsDocumentationExampleTests {
  struct Row: ListElement, Codable, Hashable {
    let id: String
    var title: String
  }

  let validator = ChangesetValidator()

  @Test func changesetsOverVisibleRows() throws {
    let old = ListVisibleRows(sections: ["Fruit"], rows: [["Apple", "Banana", "Cherry", "Date"]])
    let new = ListVisibleRows(sections: ["Fruit"], rows: [["Date", "Apple", "Banana", "Fig"]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    let stage = changeset[0]
    #expect(stage.itemDeletes == [ListIndexPath(section: 0, row: 2)])  // Cherry, in the old rows
    #expect(stage.itemInserts == [ListIndexPath(section: 0, row: 3)])  // Fig, in the new rows
    #expect(stage.itemMoves == [ListMove(from: ListIndexPath(section: 0, row: 3), to: ListIndexPath(section: 0, row: 0))])
    #expect(stage.deletedItems == ["Cherry"] && stage.insertedItems == ["Fig"] && stage.movedItems == ["Date"])
    #expect(changeset.lines == ["- deleted Cherry", "+ inserted Fig", "→ moved Date"])
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func expandingShowsAsInserts() throws {
    var old = ListSnapshot<String, String>()
    try old.appendSections(["Fruit"])
    try old.appendItems(["Apple", "Pear"])
    try old.appendItems(["Granny Smith", "Gala"], underParent: "Apple")
    var new = old
    try new.expand(["Apple"])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset[0].itemInserts == [ListIndexPath(section: 0, row: 1), ListIndexPath(section: 0, row: 2)])
    #expect(changeset.textDescription == "+ inserted Granny Smith\n+ inserted Gala")
  }

  @Test func minimalMoves() throws {
    var ids = Array(0..<1_000)
    let old = ListVisibleRows(sections: [0], rows: [ids])
    ids.swapAt(10, 900)
    let new = ListVisibleRows(sections: [0], rows: [ids])
    #expect(ListChangeset(from: old, to: new).numberOfItemMoves == 2)
  }

  @Test func contentChangesAreReloads() throws {
    var old = ListSnapshot<String, Row>()
    try old.appendSections(["Inbox"])
    try old.appendItems([Row(id: "milk", title: "Milk"), Row(id: "eggs", title: "Eggs")])
    var new = old
    try new.updateItem(Row(id: "eggs", title: "Free-range eggs"))
    try new.moveItem("eggs", beforeItem: "milk")
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 2)  // a moved row is reloaded in a trailing stage
    #expect(changeset[0].itemMoves.count == 1 && changeset[0].itemReloads.isEmpty)
    #expect(changeset[1].itemReloads == [ListIndexPath(section: 0, row: 0)])  // at its final row
    #expect(changeset.lines == ["stage 1", "→ moved eggs", "stage 2", "~ reloaded eggs"])
  }

  @Test func stagesSplitForMovedSections() throws {
    let old = ListVisibleRows(sections: ["A", "B"], rows: [["a1", "a2"], ["b1"]])
    let new = ListVisibleRows(sections: ["B", "A"], rows: [["b1", "a2"], ["a1", "n"]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.lines == ["stage 1", "+ inserted n", "→ moved a2", "stage 2", "→ moved section B"])
    #expect(changeset[0].after == ListVisibleRows(sections: ["A", "B"], rows: [["a1", "n"], ["b1", "a2"]]))
    #expect(changeset[1].after == nil)
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func eventDerivedDiff() throws {
    let store = ListStore<String, String>()
    try store.transaction { tx in
      try tx.appendSections(["All"])
      try tx.appendItems((0..<10_000).map { "row \($0)" })
    }
    let shown = store.head
    try store.moveItem("row 10", afterItem: "row 150")
    try store.appendItems(["draft"])
    try store.deleteItems(["draft"])  // cancels the insert
    try store.moveItem("row 3", beforeItem: "row 0")

    let changeset = try store.changeset(from: shown, to: store.head)
    #expect(changeset.lines == ["→ moved row 3", "→ moved row 10"])

    let events = try store.events(from: shown, to: store.head)
    let same = ListChangeset(from: try store.state(at: shown), to: store.snapshot, events: events)
    #expect(same == changeset)
    let full = ListChangeset(from: try store.state(at: shown), to: store.snapshot)
    #expect(full.numberOfItemMoves == 2)

    let back = try store.changeset(from: store.head, to: shown)  // backwards works too
    #expect(back.numberOfItemMoves == 2)
  }

  @Test func changesetsInAnObserver() throws {
    let store = ListStore<String, String>()
    try store.transaction { tx in
      try tx.appendSections(["Fruit"])
      try tx.appendItems(["Apple", "Pear"])
    }
    let lines = ListMutex<[String]>([])
    let token = store.observe { change in
      let old = change.transaction.initialSnapshot, new = change.transaction.finalSnapshot
      let changeset = change.events.map { ListChangeset(from: old, to: new, events: $0) }
        ?? ListChangeset(from: old, to: new)
      lines.withLock { $0.append(changeset.textDescription) }
    }
    try store.appendItems(["Fig"])
    try store.undo()
    #expect(lines.withLock { $0 } == ["+ inserted Fig", "- deleted Fig"])
    token.cancel()
  }

  @Test func applyingARebuiltSnapshotKeepsExpansion() throws {
    var current = ListSnapshot<String, String>()
    try current.appendSections(["Devices"])
    try current.appendItems(["Kitchen"])
    try current.appendItems(["Lamp", "Kettle"], underParent: "Kitchen")
    try current.expand(["Kitchen"])  // the user opened it

    var rebuilt = ListSnapshot<String, String>()  // from the model: knows nothing of expansion
    try rebuilt.appendSections(["Devices"])
    try rebuilt.appendItems(["Kitchen"])
    try rebuilt.appendItems(["Lamp", "Kettle", "Toaster"], underParent: "Kitchen")

    let operations = try current.operations(toReach: rebuilt)
    #expect(operations == [.insertItems(ListOutline(items: ["Toaster"]), at: ListItemLocation(.parent("Kitchen"), index: 2))])

    var applied = current
    try applied.apply(rebuilt)
    #expect(applied.isExpanded("Kitchen"))
    #expect(applied.visibleItems == ["Kitchen", "Lamp", "Kettle", "Toaster"])

    var exact = current
    try exact.apply(rebuilt, expansion: .fromTarget)
    #expect(exact == rebuilt)
    #expect(exact.visibleItems == ["Kitchen"])

    let store = ListStore<String, String>()
    try store.apply(current, label: "Load")
    let applyOperations = try store.apply(rebuilt, label: "Sync")
    #expect(applyOperations.count == 1)
    #expect(try store.events(of: store.head).map(\.kindName) == ["insertItems"])
    #expect(store.snapshot.isExpanded("Kitchen"))
    #expect(try store.apply(rebuilt, label: "Sync again").isEmpty)
    #expect(store.latestVersion == 2)  // nothing changed: no version

    try store.transaction(label: "Refresh") { tx in
      try tx.apply(current)
      try tx.expand(["Kitchen"])
    }
    #expect(store.snapshot.visibleItems == ["Kitchen", "Lamp", "Kettle"])
  }

  @Test func reconfiguresStructuralChangesAndKeptRows() throws {
    var old = ListSnapshot<String, String>()
    try old.appendSections(["Inbox"])
    try old.appendItems(["milk", "eggs", "bread"])
    var new = old
    try new.reconfigureItems(["eggs"])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.lines == ["~ reconfigured eggs"])
    #expect(changeset[0].itemReconfigures == [ListIndexPath(section: 0, row: 1)])
    #expect(!changeset.hasStructuralChanges)

    let shown = ListVisibleRows(sections: ["Inbox"], rows: [["milk", "eggs", "bread"]])
    let next = ListVisibleRows(sections: ["Inbox"], rows: [["bread", "jam", "milk"]])
    #expect(
      ListChangeset(from: shown, to: next).keptRows(from: shown) == [
        ListMove(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 2)),
        ListMove(from: ListIndexPath(section: 0, row: 2), to: ListIndexPath(section: 0, row: 0)),
      ])
  }

  @Test func rendering() throws {
    let old = ListVisibleRows(sections: [0], rows: [[1, 2, 3]])
    let new = ListVisibleRows(sections: [0], rows: [[3, 1, 2, 4]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(
      changeset.jsonDescription
        == #"{"stages":[{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[],"sectionReloads":[],"itemDeletes":[],"itemInserts":[{"section":0,"item":3}],"itemMoves":[{"from":{"section":0,"item":2},"to":{"section":0,"item":0}}],"itemReloads":[],"itemReconfigures":[]}]}"#
    )
    #expect(changeset.textDescription == "+ inserted 4\n→ moved 3")
    #expect(ListChangeset(from: old, to: old).jsonDescription == #"{"stages":[]}"#)
  }
}
