import ListDiff
import ListState
import TestSupport
import Testing

/// The loop every platform adapter runs (`ListChangeset.apply(to:setData:completion:)`), driven
/// against a simulated view that checks each batch under UIKit's rules.
@Suite("Applying a changeset to a batch-updating view")
@MainActor
struct ListBatchUpdateTargetTests {
  typealias Rows = ListVisibleRows<String, String>

  @Test(arguments: 0..<3)
  func randomChangesReachTheViewBatchByBatch(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0xBA7C_0000 + UInt64(seedOffset))
    var splits = 0
    for _ in 0..<SeededRandom.propertySteps(default: 150) {
      var nextID = 0
      let old = SnapshotModel.random(using: &generator, nextID: &nextID)
      var new = old
      SnapshotModel.mutate(&new, using: &generator, nextID: &nextID, steps: Int.random(in: 1...8, using: &generator))
      let changeset = ListChangeset(from: old, to: new)
      let target = ListVisibleRows(new)
      let view = SimulatedListView(showing: ListVisibleRows(old))
      var completed = 0
      changeset.apply(to: view, setData: { rows in view.dataSource = rows ?? target }, completion: { _ in completed += 1 })
      #expect(view.failures.isEmpty, "\(view.failures)\n\(changeset.jsonDescription)")
      #expect(view.shown == target)
      #expect(view.batches == changeset.count)
      #expect(view.reloads == 0)
      #expect(completed == 1)
      if changeset.count > 1 { splits += 1 }
    }
    #expect(splits > 0, "split changesets (several batches) were exercised")
  }

  @Test func anEmptyChangesetOnlyCompletes() {
    let rows = Rows(sections: ["S"], rows: [["a"]])
    let view = SimulatedListView(showing: rows)
    var completed: [Bool] = []
    ListChangeset<String, String>().apply(to: view, setData: { _ in Issue.record("no data to set") }) { completed.append($0) }
    #expect(completed == [true])
    #expect(view.batches == 0 && view.reloads == 0)
  }

  @Test func offScreenTheFinalRowsAreSetAndReloaded() throws {
    var old = ListSnapshot<String, String>()
    try old.appendSections(["S"])
    try old.appendItems(["a", "b"])
    var new = old
    try new.moveItem("b", beforeItem: "a")
    try new.appendItems(["c"])
    let view = SimulatedListView(showing: ListVisibleRows(old), onScreen: false)
    var handed: [Rows?] = []
    var completed: [Bool] = []
    ListChangeset(from: old, to: new).apply(
      to: view,
      setData: { rows in
        handed.append(rows)
        view.dataSource = rows ?? ListVisibleRows(new)
      }, completion: { completed.append($0) })
    #expect(handed == [nil])
    #expect(view.batches == 0 && view.reloads == 1)
    #expect(view.shown == ListVisibleRows(new))
    #expect(completed == [true])
  }

  /// The simulated view is a real check: a batch whose operations do not match the new rows fails.
  @Test func theSimulatedViewRefusesAWrongBatch() {
    let view = SimulatedListView(showing: Rows(sections: ["S"], rows: [["a", "b"]]))
    var stage = ListChangeset<String, String>.Stage()
    stage.itemDeletes = [ListIndexPath(section: 0, row: 0)]
    ListChangeset(stages: [stage]).apply(to: view) { _ in view.dataSource = Rows(sections: ["S"], rows: [["a"]]) }
    #expect(!view.failures.isEmpty)
  }
}
