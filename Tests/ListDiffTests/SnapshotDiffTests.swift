import ListDiff
import ListState
import TestSupport
import Testing

@Suite("Full diff between snapshots")
struct SnapshotDiffTests {
  let validator = ChangesetValidator()

  @Test func expandingAParentInsertsItsRows() throws {
    var old = ListSnapshot<String, String>()
    try old.appendSections(["Topics"])
    try old.appendItems(["shellies", "zigbee"])
    try old.appendItems(["relay", "temperature"], underParent: "shellies")
    var new = old
    try new.expand(["shellies"])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    #expect(changeset[0].itemInserts == [ListIndexPath(section: 0, row: 1), ListIndexPath(section: 0, row: 2)])
    #expect(changeset.lines == ["+ inserted relay", "+ inserted temperature"])
    try validator.validate(changeset, from: ListVisibleRows(old), to: ListVisibleRows(new))
    let back = ListChangeset(from: new, to: old)
    #expect(back.lines == ["- deleted relay", "- deleted temperature"])
  }

  @Test func updatedContentIsReloadedAndIdentityOnlyItemsUseMarkers() throws {
    var old = ListSnapshot<Header, Row>()
    try old.appendSections([Header(id: 0)])
    try old.appendItems([Row(id: 1), Row(id: 2), Row(id: 3)])
    var new = old
    try new.updateItem(Row(id: 2, content: 5))
    new.clearMarkers()  // content alone must be enough
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.lines == ["~ reloaded 2"])
    #expect(
      changeset.jsonDescription
        == #"{"stages":[{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[],"sectionReloads":[],"itemDeletes":[],"itemInserts":[],"itemMoves":[],"itemReloads":[{"section":0,"item":1}]}]}"#
    )

    var plain = ListSnapshot<String, String>()
    try plain.appendSections(["S"])
    try plain.appendItems(["a", "b"])
    var marked = plain
    try marked.reloadItems(["b"])
    #expect(ListChangeset(from: plain, to: marked).lines == ["~ reloaded b"])
    #expect(ListChangeset(from: plain, to: plain).isEmpty)
  }

  @Test(arguments: 0..<4)
  func randomSnapshotPairsPassTheValidator(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0x5A9_0000 + UInt64(seedOffset))
    var stageCounts = [Int](repeating: 0, count: 4)
    defer { #expect(stageCounts[2] + stageCounts[3] > 0, "the split paths were exercised: \(stageCounts)") }
    for _ in 0..<SeededRandom.propertySteps(default: 250) {
      var nextID = 0
      let old = SnapshotModel.random(using: &generator, nextID: &nextID)
      var new = old
      SnapshotModel.mutate(&new, using: &generator, nextID: &nextID, steps: Int.random(in: 1...8, using: &generator))
      let changeset = ListChangeset(from: old, to: new)
      let expected = SnapshotModel.expectedReloads(from: old, to: new)
      do {
        try validator.validate(
          changeset, from: ListVisibleRows(old), to: ListVisibleRows(new),
          reloadedSections: expected.sections, reloadedItems: expected.items)
      } catch {
        Issue.record("\(error)\nold:\n\(old.visualDescription())\nnew:\n\(new.visualDescription())\n\(changeset.jsonDescription)")
        return
      }
      stageCounts[min(changeset.count, 3)] += 1
    }
  }
}
