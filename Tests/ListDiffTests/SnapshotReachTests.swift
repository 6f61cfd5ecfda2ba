import ListDiff
import ListHistory
import ListState
import TestSupport
import Testing

@Suite("Applying a whole snapshot as minimal operations")
struct SnapshotReachTests {
  /// Seed keep-expansion-state.txt: a rebuilt snapshot (all collapsed) must not close what the
  /// user opened.
  @Test func rebuildingKeepsWhatTheUserExpanded() throws {
    var current = ListSnapshot<String, String>()
    try current.appendSections(["topics"])
    try current.appendItems(["shellies"])
    try current.appendItems(["shelly1pm-51b1904"], underParent: "shellies")
    try current.appendItems(["relay", "temperature"], underParent: "shelly1pm-51b1904")
    try current.expand(["shellies", "shelly1pm-51b1904"])

    var rebuilt = ListSnapshot<String, String>()  // the model rebuilt from scratch: nothing expanded
    try rebuilt.appendSections(["topics"])
    try rebuilt.appendItems(["shellies"])
    try rebuilt.appendItems(["shelly1pm-51b1904"], underParent: "shellies")
    try rebuilt.appendItems(["relay", "temperature", "power"], underParent: "shelly1pm-51b1904")

    var applied = current
    let operations = try applied.apply(rebuilt)
    #expect(operations == [.insertItems(ListOutline(items: ["power"]), at: ListItemLocation(.parent("shelly1pm-51b1904"), index: 2))])
    #expect(applied.isExpanded("shellies") && applied.isExpanded("shelly1pm-51b1904"))
    #expect(applied.visibleItems(inSection: "topics") == ["shellies", "shelly1pm-51b1904", "relay", "temperature", "power"])

    var fromTarget = current
    try fromTarget.apply(rebuilt, expansion: .fromTarget)
    #expect(fromTarget == rebuilt)
  }

  @Test(arguments: 0..<4)
  func randomTargetsAreReachedMinimally(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0x4EAC_0000 + UInt64(seedOffset))
    for _ in 0..<SeededRandom.propertySteps(default: 250) {
      var nextID = 0
      let current = SnapshotModel.random(using: &generator, nextID: &nextID)
      var target = current
      SnapshotModel.mutate(&target, using: &generator, nextID: &nextID, steps: Int.random(in: 1...10, using: &generator))
      if Bool.random(using: &generator) {  // a rebuilt target knows nothing of expansion
        try target.collapse(target.itemIdentifiers)
      }

      var exact = current
      let operations = try exact.apply(target, expansion: .fromTarget)
      #expect(exact == target, "fromTarget reaches the target exactly")
      #expect(operations == (try current.operations(toReach: target, expansion: .fromTarget)))

      var kept = current
      try kept.apply(target)
      #expect(kept.sectionIdentifiers == target.sectionIdentifiers && kept.sections == target.sections)
      for id in target.sectionIdentifiers { #expect(kept.outline(ofSection: id)?.itemIdentifiers == target.outline(ofSection: id)?.itemIdentifiers) }
      for id in target.itemIdentifiers {
        #expect(kept.item(id) == target.item(id))
        #expect(kept.parent(of: id) == target.parent(of: id))
        #expect(kept.isExpanded(id) == (current.contains(item: id) ? current.isExpanded(id) : target.isExpanded(id)))
      }

      // Minimal: survivors are never deleted or re-inserted; moves are exactly, per container,
      // the items that changed container plus those outside a longest increasing run.
      var moves = 0, sectionMoves = 0
      for operation in operations {
        switch operation {
        case .moveItem: moves += 1
        case .moveSection: sectionMoves += 1
        case .insertItems(let outline, _): for id in outline.itemIdentifiers { #expect(!current.contains(item: id)) }
        case .deleteItems(let ids): for id in ids { #expect(!target.contains(item: id)) }
        default: break
        }
      }
      #expect(moves == expectedItemMoves(from: current, to: target))
      let survivors = current.sectionIdentifiers.compactMap { target.index(ofSection: $0) }
      #expect(sectionMoves == survivors.count - naiveLISLength(survivors))
    }
  }

  func expectedItemMoves(from current: TestSnapshot, to target: TestSnapshot) -> Int {
    var containers: [ListItemContainer<Int, Int>] = target.sectionIdentifiers.map { .section($0) }
    containers += target.itemIdentifiers.map { .parent($0) }
    var moves = 0
    for container in containers {
      let children: [Int], before: [Int]
      switch container {
      case .section(let id):
        children = target.rootItems(inSection: id)
        before = current.rootItems(inSection: id)
      case .parent(let id):
        children = target.children(of: id)
        before = current.contains(item: id) ? current.children(of: id) : []
      }
      let stayed = before.compactMap { children.firstIndex(of: $0) }
      moves += stayed.count - naiveLISLength(stayed)
      moves += children.filter { current.contains(item: $0) && !before.contains($0) }.count
    }
    return moves
  }

  /// The store records a rebuilt snapshot as the few events that differ, keeping expansion.
  @Test func storeRecordsOnlyTheMinimalEvents() throws {
    let store = ListStore<String, String>()
    try store.transaction { tx in
      try tx.appendSections(["topics"])
      try tx.appendItems(["shellies", "zigbee"])
      try tx.appendItems(["relay", "temperature"], underParent: "shellies")
      try tx.expand(["shellies"])
    }
    var rebuilt = ListSnapshot<String, String>()
    try rebuilt.appendSections(["topics"])
    try rebuilt.appendItems(["zigbee", "shellies"])
    try rebuilt.appendItems(["relay", "temperature"], underParent: "shellies")
    let before = store.head
    try store.apply(rebuilt, label: "Refresh")
    let events = try store.events(of: store.head)
    #expect(events.count == 1)
    #expect(events.first?.kindName == "moveItem")
    #expect(store.snapshot.isExpanded("shellies"))
    #expect(try store.apply(rebuilt).isEmpty)
    #expect(store.head != before)
    let changeset = try store.changeset(from: before, to: store.head)
    #expect(changeset.numberOfItemMoves == 1)
  }
}
