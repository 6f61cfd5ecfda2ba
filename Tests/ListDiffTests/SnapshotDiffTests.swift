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
    #expect(back.lines == ["- deleted temperature", "- deleted relay"])  // deletes highest first
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
        == #"{"stages":[{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[],"sectionReloads":[],"itemDeletes":[],"itemInserts":[],"itemMoves":[],"itemReloads":[{"section":0,"item":1}],"itemReconfigures":[]}]}"#
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
          reloadedSections: expected.sections, reloadedItems: expected.items, reconfiguredItems: expected.reconfigures)
      } catch {
        Issue.record("\(error)\nold:\n\(old.visualDescription())\nnew:\n\(new.visualDescription())\n\(changeset.jsonDescription)")
        return
      }
      stageCounts[min(changeset.count, 3)] += 1
    }
  }

  /// Few changed or marked items are found by their positions, many by a predicate; an edited
  /// copy shares storage with the old snapshot, a rebuilt one does not. Every combination, with
  /// section moves (the split path maps positions between stages), must pass the validator.
  @Test func fewAndManyChangesInLargeSnapshots() throws {
    var generator = SeededRandom(seed: 0x5A9_1000)
    for round in 0..<SeededRandom.propertySteps(default: 16) {
      var nextID = 0
      var old = TestSnapshot()
      try old.appendSections([Header(id: 1_000_000), Header(id: 1_000_001), Header(id: 1_000_002)])
      for section in old.sectionIdentifiers {
        try old.appendItems((0..<300).map { Row(id: nextID + $0) }, toSection: section)
        nextID += 300
      }
      for id in stride(from: 5, to: nextID, by: 37) {
        try old.appendItems([Row(id: 2_000_000 + id)], underParent: id)
        if id % 2 == 1 { try old.expand([id]) }
      }
      old.clearMarkers()
      var new = old
      SnapshotModel.mutate(&new, using: &generator, nextID: &nextID, steps: 40, sectionChanges: round % 2 == 0)
      let updates = round % 4 < 2 ? 4 : 200  // rows marked by position / tested by a predicate
      for _ in 0..<updates {
        guard let id = new.itemIdentifiers.randomElement(using: &generator) else { break }
        try new.updateItem(Row(id: id, content: new.item(id)!.content + 1))
      }
      if round % 3 == 0 { new.clearMarkers() }  // content alone must be enough
      if round % 2 == 0, let first = new.sectionIdentifiers.first {
        try new.moveSection(first, toIndex: new.numberOfSections - 1)
      }
      var rebuilt = TestSnapshot()
      for section in new.sections {
        try rebuilt.appendSections([section])
        try rebuilt.append(new.outline(ofSection: section.id)!, toSection: section.id)
      }
      let expected = SnapshotModel.expectedReloads(from: old, to: new)
      for target in [new, rebuilt] {
        let changeset = ListChangeset(from: old, to: target)
        // The rebuilt copy carries no markers: only content changes are reloaded.
        let expectedItems = target.reloadedItemIdentifiers.isEmpty && !new.reloadedItemIdentifiers.isEmpty
          ? SnapshotModel.expectedReloads(from: old, to: target).items : expected.items
        do {
          try validator.validate(
            changeset, from: ListVisibleRows(old), to: ListVisibleRows(target),
            reloadedSections: SnapshotModel.expectedReloads(from: old, to: target).sections, reloadedItems: expectedItems,
            reconfiguredItems: SnapshotModel.expectedReloads(from: old, to: target).reconfigures)
        } catch {
          Issue.record("round \(round): \(error)")
          return
        }
      }
    }
  }
}
