import ListHistory
import ListState
import TestSupport
import Testing

@testable import ListDiff

/// Reconfigures listed apart from reloads, structural changes, the kept-row mapping and the
/// documented index order.
@Suite("Reconfigures, kept rows and index order")
@MainActor
struct ReconfigureAndOrderTests {
  typealias Rows = ListVisibleRows<String, String>
  let validator = ChangesetValidator()

  func list(_ items: [String]) throws -> ListSnapshot<String, String> {
    var snapshot = ListSnapshot<String, String>()
    try snapshot.appendSections(["S"])
    try snapshot.appendItems(items)
    return snapshot
  }

  @Test func aReconfiguredRowIsNotReloaded() throws {
    let old = try list(["a", "b", "c"])
    var new = old
    try new.reconfigureItems(["b"])
    try new.reloadItems(["c"])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    #expect(changeset[0].itemReconfigures == [ListIndexPath(section: 0, row: 1)])
    #expect(changeset[0].reconfiguredItems == ["b"])
    #expect(changeset[0].itemReloads == [ListIndexPath(section: 0, row: 2)])
    #expect(!changeset.hasStructuralChanges)
    #expect(changeset.lines == ["~ reloaded c", "~ reconfigured b"])
    #expect(changeset.jsonDescription.hasSuffix(#""itemReloads":[{"section":0,"item":2}],"itemReconfigures":[{"section":0,"item":1}]}]}"#))
    try validator.validate(
      changeset, from: ListVisibleRows(old), to: ListVisibleRows(new), reloadedItems: ["c"], reconfiguredItems: ["b"])

    // Marked both ways: a reload, which does all a reconfigure does.
    var both = old
    try both.reconfigureItems(["b"])
    try both.reloadItems(["b"])
    let reloaded = ListChangeset(from: old, to: both)
    #expect(reloaded[0].reloadedItems == ["b"] && reloaded[0].itemReconfigures.isEmpty)
  }

  @Test func aReconfigureNextToStructuralChangesGetsABatchOfItsOwn() throws {
    let old = try list(["a", "b", "c"])
    var new = old
    try new.deleteItems(["a"])
    try new.reconfigureItems(["c"])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 2)
    #expect(changeset[0].hasStructuralChanges && changeset[0].itemReconfigures.isEmpty)
    #expect(!changeset[1].hasStructuralChanges)
    #expect(changeset[1].itemReconfigures == [ListIndexPath(section: 0, row: 1)])  // c's final row
    try validator.validate(changeset, from: ListVisibleRows(old), to: ListVisibleRows(new), reconfiguredItems: ["c"])
  }

  @Test func aStoreReconfigureReachesTheViewAsAReconfigure() throws {
    let store = ListStore<String, String>()
    try store.appendSections(["S"])
    try store.appendItems(["a", "b", "c"])
    let shown = store.head
    try store.reconfigureItems(["b"])
    let changeset = try store.changeset(from: shown, to: store.head)
    #expect(changeset.map(\.reconfiguredItems) == [["b"]])
    #expect(changeset.flatMap(\.itemReloads).isEmpty)

    let view = SimulatedListView(showing: ListVisibleRows(try store.state(at: shown)))
    let target = ListVisibleRows(store.snapshot)
    changeset.apply(to: view) { rows in view.dataSource = rows ?? target }
    #expect(view.failures.isEmpty, "\(view.failures)")
    #expect(view.shown == target)
  }

  @Test func theRowsDiffTakesAReconfigurePredicate() throws {
    let old = Rows(sections: ["S"], rows: [["a", "b", "c", "d"]])
    let new = Rows(sections: ["S"], rows: [["d", "a", "b", "c"]])
    let changeset = ListChangeset(
      from: old, to: new, itemNeedsReload: { $0 == "a" }, itemNeedsReconfigure: { $0 == "a" || $0 == "b" || $0 == "d" })
    try validator.validate(changeset, from: old, to: new, reloadedItems: ["a"], reconfiguredItems: ["b", "d"])
    #expect(Set(changeset.flatMap(\.reconfiguredItems)) == ["b", "d"])
    #expect(changeset.flatMap(\.reloadedItems) == ["a"])
  }

  @Test func hasStructuralChangesIsFalseOnlyForReloadsAndReconfigures() {
    var stage = ListChangeset<Int, Int>.Stage()
    #expect(!stage.hasStructuralChanges && stage.isEmpty)
    stage.itemReloads = [ListIndexPath(section: 0, row: 0)]
    stage.itemReconfigures = [ListIndexPath(section: 0, row: 1)]
    #expect(!stage.hasStructuralChanges && !stage.isEmpty)
    for change in 0..<7 {
      var changed = stage
      switch change {
      case 0: changed.sectionDeletes = [0]
      case 1: changed.sectionInserts = [0]
      case 2: changed.sectionMoves = [ListMove(from: 0, to: 1)]
      case 3: changed.sectionReloads = [0]
      case 4: changed.itemDeletes = [ListIndexPath(section: 0, row: 0)]
      case 5: changed.itemInserts = [ListIndexPath(section: 0, row: 0)]
      default: changed.itemMoves = [ListMove(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 1))]
      }
      #expect(changed.hasStructuralChanges, "change \(change)")
      #expect(ListChangeset(stages: [stage, changed]).hasStructuralChanges)
    }
    #expect(!ListChangeset(stages: [stage]).hasStructuralChanges)
  }

  @Test func deletesComeHighestFirstAndInsertsLowestFirst() throws {
    let old = Rows(sections: ["S", "T", "U"], rows: [["a", "b", "c", "d"], ["e"], ["f"]])
    let new = Rows(sections: ["S", "V", "W"], rows: [["x", "b", "y", "d", "z"], [], []])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset[0].sectionDeletes == [2, 1])
    #expect(changeset[0].sectionInserts == [1, 2])
    #expect(changeset[0].itemDeletes == [ListIndexPath(section: 0, row: 2), ListIndexPath(section: 0, row: 0)])
    #expect(changeset[0].deletedItems == ["c", "a"])
    #expect(changeset[0].itemInserts.map(\.row) == [0, 2, 4])
    // One by one, as listed, on plain arrays.
    var rows = old.rows[0]
    for path in changeset[0].itemDeletes { rows.remove(at: path.row) }
    for (path, id) in zip(changeset[0].itemInserts, changeset[0].insertedItems) { rows.insert(id, at: path.row) }
    #expect(rows == new.rows[0])
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func theValidatorRefusesTheWrongOrderAndMisplacedReconfigures() {
    let old = Rows(sections: ["S"], rows: [["a", "b", "c"]])
    let new = Rows(sections: ["S"], rows: [["b"]])
    var stage = ListChangeset<String, String>.Stage()
    stage.itemDeletes = [ListIndexPath(section: 0, row: 0), ListIndexPath(section: 0, row: 2)]
    stage.deletedItems = ["a", "c"]
    #expect(throws: ChangesetValidator.Failure.self) { try validator.validate(ListChangeset(stages: [stage]), from: old, to: new) }
    stage.itemDeletes.reverse()
    stage.deletedItems.reverse()
    #expect(throws: Never.self) { try validator.validate(ListChangeset(stages: [stage]), from: old, to: new) }
    // A reconfigure in a batch that also deletes: refused (and unexpected reconfigures too).
    stage.itemReconfigures = [ListIndexPath(section: 0, row: 1)]
    stage.reconfiguredItems = ["b"]
    #expect(throws: ChangesetValidator.Failure.self) {
      try validator.validate(ListChangeset(stages: [stage]), from: old, to: new, reconfiguredItems: ["b"])
    }
    var reconfigureOnly = ListChangeset<String, String>.Stage()
    reconfigureOnly.itemReconfigures = [ListIndexPath(section: 0, row: 0)]
    reconfigureOnly.reconfiguredItems = ["b"]
    let two = ListChangeset(stages: [{ var first = stage; first.itemReconfigures = []; first.reconfiguredItems = []; return first }(), reconfigureOnly])
    #expect(throws: Never.self) { try validator.validate(two, from: old, to: new, reconfiguredItems: ["b"]) }
    #expect(throws: ChangesetValidator.Failure.self) { try validator.validate(two, from: old, to: new) }
    #expect(throws: ChangesetValidator.Failure.self) { try validator.validate(two, from: old, to: new, reloadedItems: ["b"]) }
  }

  @Test func keptRowsFollowMovesAndShifts() {
    let old = Rows(sections: ["S", "T"], rows: [["a", "b", "c"], ["d", "e"]])
    let new = Rows(sections: ["S", "T"], rows: [["c", "x", "a", "e"], ["d"]])
    let kept = ListChangeset(from: old, to: new).keptRows(from: old)
    func path(_ section: Int, _ row: Int) -> ListIndexPath { ListIndexPath(section: section, row: row) }
    #expect(kept == [
      ListMove(from: path(0, 0), to: path(0, 2)), ListMove(from: path(0, 2), to: path(0, 0)),
      ListMove(from: path(1, 0), to: path(1, 0)), ListMove(from: path(1, 1), to: path(0, 3)),
    ])
  }

  /// Random snapshot pairs (section changes, moves, reloads, reconfigures): the kept rows are
  /// exactly the rows shown in both whose sections the changeset neither deletes, inserts nor
  /// reloads, each mapped to where the new rows show it; the view gets reconfigures apart.
  @Test(arguments: 0..<3)
  func keptRowsAndReconfiguresOverRandomChanges(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0x4EC0_0000 + UInt64(seedOffset))
    var reconfigured = 0
    for _ in 0..<SeededRandom.propertySteps(default: 200) {
      var nextID = 0
      let old = SnapshotModel.random(using: &generator, nextID: &nextID)
      var new = old
      SnapshotModel.mutate(&new, using: &generator, nextID: &nextID, steps: Int.random(in: 1...8, using: &generator))
      let changeset = ListChangeset(from: old, to: new)
      let oldRows = ListVisibleRows(old), newRows = ListVisibleRows(new)
      let kept = changeset.keptRows(from: oldRows)

      // Reloaded sections, and those deleted and inserted again (moved and changed), are replaced.
      let replaced = Set(changeset.flatMap(\.reloadedSections))
        .union(changeset.flatMap(\.deletedSections).filter { new.contains(section: $0) })
      var newPath: [Int: ListIndexPath] = [:]
      for (section, rows) in newRows.rows.enumerated() {
        guard !replaced.contains(newRows.sectionIdentifiers[section]) else { continue }
        for (row, id) in rows.enumerated() { newPath[id] = ListIndexPath(section: section, row: row) }
      }
      var expected: [ListMove<ListIndexPath>] = []
      for (section, rows) in oldRows.rows.enumerated() where !replaced.contains(oldRows.sectionIdentifiers[section]) {
        guard new.contains(section: oldRows.sectionIdentifiers[section]) else { continue }
        for (row, id) in rows.enumerated() {
          // A row moved into a section the changeset inserts comes with that section, not kept.
          if let to = newPath[id], old.contains(section: newRows.sectionIdentifiers[to.section]) {
            expected.append(ListMove(from: ListIndexPath(section: section, row: row), to: to))
          }
        }
      }
      #expect(kept == expected, "\nold:\n\(old.visualDescription())\nnew:\n\(new.visualDescription())\n\(changeset.lines)")

      let view = SimulatedListView(showing: oldRows)
      changeset.apply(to: view) { rows in view.dataSource = rows ?? newRows }
      #expect(view.failures.isEmpty, "\(view.failures)")
      reconfigured += changeset.reduce(0) { $0 + $1.itemReconfigures.count }
    }
    #expect(reconfigured > 0, "reconfigures were exercised")
  }
}
