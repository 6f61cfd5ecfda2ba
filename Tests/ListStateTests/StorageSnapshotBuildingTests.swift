import Testing

@testable import ListState

/// The bulk builders (`init(_:)`, `init(section:items:)`, large `appendItems`) build the same
/// state as one-by-one operations, and reject duplicates without a partial state.
@Suite struct StorageSnapshotBuildingTests {
  typealias Snapshot = ListSnapshot<String, Int>

  @Test func bulkInitMatchesStepByStepBuild() throws {
    let outline = ListOutline<Int>([
      .init(1, isExpanded: true, children: [.init(2), .init(3, children: [.init(4)])]),
      .init(5),
    ])
    let built = try Snapshot([("A", outline), ("B", ListOutline(items: Array(100..<400))), ("C", ListOutline())])
    var stepwise = Snapshot()
    try stepwise.appendSections(["A", "B", "C"])
    try stepwise.appendItems([1, 5], toSection: "A")
    try stepwise.appendItems([2, 3], underParent: 1)
    try stepwise.appendItems([4], underParent: 3)
    try stepwise.expand([1])
    for id in 100..<400 { try stepwise.appendItems([id], toSection: "B") }
    #expect(built == stepwise)
    #expect(built.itemIdentifiers == stepwise.itemIdentifiers)
    #expect(built.visibleItems(inSection: "A") == [1, 2, 3, 5])
    #expect(built.outline(ofSection: "A") == outline)
    #expect(built.index(ofItem: 250) == 5 + 150)
    #expect(built.sectionIdentifier(containingItem: 4) == "A")
    built._checkInvariants()
  }

  @Test func bulkInitRejectsDuplicates() {
    #expect(throws: Snapshot.Failure.duplicateItems([2])) {
      try Snapshot([("A", ListOutline(items: [1, 2])), ("B", ListOutline(items: [2, 3]))])
    }
    #expect(throws: Snapshot.Failure.duplicateSections(["A"])) {
      try Snapshot([("A", ListOutline()), ("A", ListOutline())])
    }
    #expect(throws: Snapshot.Failure.duplicateItems([7, 3])) {
      try Snapshot(section: "S", items: [7, 3, 7, 3, 3])
    }
  }

  @Test func largeAppendsIntoNonEmptyListsUseBothBulkPaths() throws {
    var snapshot = try Snapshot(section: "A", items: Array(0..<2000))
    let before = snapshot
    // Larger than a quarter of the list: the hash map is rebuilt by merging.
    try snapshot.appendItems(Array(2000..<3000), toSection: "A")
    // Small: inserted one by one.
    try snapshot.insertItems(Array(3000..<3010), beforeItem: 10)
    #expect(snapshot.numberOfItems == 3010)
    #expect(snapshot.index(ofItem: 3000) == 10)
    #expect(snapshot.index(ofItem: 2999) == 3009)
    #expect(before.numberOfItems == 2000 && before.index(ofItem: 1999) == 1999 && !before.contains(item: 2500))
    snapshot._checkInvariants()
    // A failing bulk append changes nothing.
    let unchanged = snapshot
    #expect(throws: Snapshot.Failure.itemsAlreadyExist([5, 2500])) {
      try snapshot.appendItems([9000, 5, 9001, 2500])
    }
    #expect(snapshot == unchanged)
    #expect(snapshot.reloadedItemIdentifiers == unchanged.reloadedItemIdentifiers)
    snapshot._checkAllInvariants()
    // The records go in first and are taken out again: an existing item late in a batch,
    // under a parent, and into storage shared with a copy.
    let shared = snapshot
    let batch = Array(5000..<5060) + [17] + Array(6000..<6030)
    #expect(throws: Snapshot.Failure.itemsAlreadyExist([17])) { try snapshot.appendItems(batch, underParent: 3) }
    #expect(throws: Snapshot.Failure.itemsAlreadyExist([17])) { try snapshot.appendItems(batch, toSection: "A") }
    #expect(snapshot == unchanged && shared == unchanged)
    snapshot._checkAllInvariants()
    shared._checkAllInvariants()
    for id in batch where id != 17 { #expect(!snapshot.contains(item: id) && !shared.contains(item: id)) }
    // And the same batch without the existing item goes in whole.
    try snapshot.appendItems(batch.filter { $0 != 17 }, underParent: 3)
    #expect(snapshot.children(of: 3) == batch.filter { $0 != 17 })
    #expect(shared == unchanged)
    snapshot._checkAllInvariants()
  }

  @Test func identityIsCheapAndImpliesEquality() throws {
    var snapshot = try Snapshot(section: "A", items: Array(0..<100))
    let copy = snapshot
    #expect(copy.isIdentical(to: snapshot))
    try snapshot.moveItem(5, beforeItem: 0)
    #expect(!copy.isIdentical(to: snapshot))
    try snapshot.moveItem(5, afterItem: 4)
    #expect(copy == snapshot)
    #expect(!copy.isIdentical(to: snapshot))
  }
}
