import ListHistory
import ListState
import TestSupport
import Testing

@testable import ListDiff

@Suite("Event-derived diff")
struct EventDiffTests {
  let validator = ChangesetValidator()

  /// A random history with branches: commits of random edits (applied as minimal events),
  /// undos, and single-operation commits that later cancel out.
  func randomHistory(using generator: inout SeededRandom) throws -> (ListStore<Header, Row>, [Version]) {
    let store = ListStore<Header, Row>()
    var nextID = 0
    var versions: [Version] = [store.head]
    try store.apply(SnapshotModel.random(using: &generator, nextID: &nextID, maxItems: 30), expansion: .fromTarget)
    versions.append(store.head)
    for _ in 0..<24 {
      if Int.random(in: 0..<6, using: &generator) == 0, store.canUndo {
        try store.undo()
        continue
      }
      var target = store.snapshot
      let sectionChanges = Int.random(in: 0..<4, using: &generator) == 0
      if sectionChanges {
        SnapshotModel.mutate(&target, using: &generator, nextID: &nextID, steps: Int.random(in: 1...3, using: &generator))
      } else {
        SnapshotModel.mutateItems(&target, using: &generator, nextID: &nextID, steps: Int.random(in: 1...3, using: &generator))
      }
      try store.apply(target, expansion: .fromTarget)
      if store.head != versions.last { versions.append(store.head) }
    }
    return (store, versions)
  }

  @Test(arguments: 0..<4)
  func eventAndFullDiffsAgreeOnTheRows(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0xE7E7_0000 + UInt64(seedOffset))
    var derived = 0
    for _ in 0..<SeededRandom.propertySteps(default: 5) {
      let (store, versions) = try randomHistory(using: &generator)
      for _ in 0..<20 {
        guard let from = versions.randomElement(using: &generator), let to = versions.randomElement(using: &generator)
        else { continue }
        let old = try store.state(at: from), new = try store.state(at: to)
        let events = try store.events(from: from, to: to)
        let full = ListChangeset(from: old, to: new)
        let fromEvents = ListChangeset(from: old, to: new, events: events)
        let isDerived = _EventDiffer.changeset(from: old, to: new, events: events) != nil
        if isDerived { derived += 1 }

        var markedItems = Set<Int>(), reconfiguredItems = Set<Int>(), markedSections = Set<Int>()
        for event in events {
          if case .reloadItems(let ids) = event { markedItems.formUnion(ids) }
          if case .reconfigureItems(let ids) = event { reconfiguredItems.formUnion(ids) }
          if case .reloadSections(let ids) = event { markedSections.formUnion(ids) }
        }
        let expected = SnapshotModel.expectedReloads(from: old, to: new)
        let oldVisible = Set(old.visibleItems), newVisible = Set(new.visibleItems)
        let eventReconfigures = reconfiguredItems.subtracting(markedItems).filter { oldVisible.contains($0) && newVisible.contains($0) }
        let eventExpectedItems = expected.items.union(markedItems.filter { oldVisible.contains($0) && newVisible.contains($0) })
          .subtracting(eventReconfigures)
        let eventExpectedSections = expected.sections.union(
          markedSections.filter { old.contains(section: $0) && new.contains(section: $0) })
        do {
          try validator.validate(full, from: ListVisibleRows(old), to: ListVisibleRows(new),
            reloadedSections: expected.sections, reloadedItems: expected.items, reconfiguredItems: expected.reconfigures)
          try validator.validate(fromEvents, from: ListVisibleRows(old), to: ListVisibleRows(new),
            reloadedSections: eventExpectedSections, reloadedItems: eventExpectedItems, reconfiguredItems: eventReconfigures)
        } catch {
          Issue.record("\(error)\n\(from) → \(to)\nold:\n\(old.visualDescription())\nnew:\n\(new.visualDescription())\nevents: \(events)\nfull: \(full.lines)\nevents: \(fromEvents.lines)")
          return
        }
        // Without section changes (the derived path) both are single-stage over the same sections,
        // and both minimal.
        #expect(!isDerived || fromEvents.numberOfItemMoves == full.numberOfItemMoves, "both minimal; the full diff's moves are minimal\nold:\n\(old.visualDescription())\nnew:\n\(new.visualDescription())\nfull: \(full.lines)\nevents: \(fromEvents.lines)")
      }
    }
    #expect(derived > 20, "the event-derived path ran (\(derived) pairs)")
  }

  @Test func twoMovedRowsAreTwoMovesAndCancellationsCancel() throws {
    let store = ListStore<String, String>()
    try store.transaction { tx in
      try tx.appendSections(["S"])
      try tx.appendItems((0..<200).map { "r\($0)" })
    }
    let start = store.head
    try store.transaction { tx in try tx.moveItem("r10", afterItem: "r150") }
    try store.transaction { tx in try tx.appendItems(["temp"]) }
    try store.transaction { tx in try tx.moveItem("r3", beforeItem: "r0") }
    try store.transaction { tx in try tx.deleteItems(["temp"]) }
    let events = try store.events(from: start, to: store.head)
    let old = try store.state(at: start), new = store.snapshot
    let changeset = try #require(_EventDiffer.changeset(from: old, to: new, events: events))
    #expect(changeset.numberOfItemMoves == 2)
    #expect(changeset.lines == ["→ moved r3", "→ moved r10"])
    try validator.validate(changeset, from: ListVisibleRows(old), to: ListVisibleRows(new))
    let back = try store.changeset(from: store.head, to: start)
    #expect(back.numberOfItemMoves == 2)
  }

  @Test func aRowDeletedAndInsertedAgainWithNewContentIsReloaded() throws {
    let store = ListStore<Header, Row>()
    try store.transaction { tx in
      try tx.appendSections([Header(id: 0)])
      try tx.appendItems((0..<10).map { Row(id: $0) })
    }
    let start = store.head
    try store.transaction { tx in try tx.deleteItems([4]) }
    try store.transaction { tx in try tx.insertItems([Row(id: 4, content: 9)], beforeItem: 5) }
    let old = try store.state(at: start), new = store.snapshot
    let changeset = try #require(_EventDiffer.changeset(from: old, to: new, events: try store.events(from: start, to: store.head)))
    #expect(changeset.lines == ["~ reloaded 4"])
    try validator.validate(changeset, from: ListVisibleRows(old), to: ListVisibleRows(new), reloadedItems: [4])
  }
}
