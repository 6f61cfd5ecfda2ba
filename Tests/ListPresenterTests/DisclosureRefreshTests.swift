import ListDiff
import ListHistory
import ListPresenter
import ListState
import TestSupport
import Testing

/// A row whose disclosure state changes (it expands or collapses, gains its first child or loses
/// its last) and stays on screen is reconfigured, in a batch UIKit accepts, so a cell that draws
/// its own chevron redraws it.
@Suite("The presenter reconfigures rows whose disclosure changes")
@MainActor
struct DisclosureRefreshTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Presenter = ListPresenter<TestSection, TestItem>
  typealias Rows = ListVisibleRows<String, String>
  typealias Changeset = ListChangeset<String, String>

  /// S: a, p (c1, c2; collapsed), z.
  static func outline() throws -> Store {
    let store = Store()
    try store.appendSections([TestSection("S")])
    try store.appendItems(["a", "p", "z"].map { TestItem($0) })
    try store.appendItems(["c1", "c2"].map { TestItem($0) }, underParent: "p")
    return store
  }

  /// Records every update's changeset.
  static func present(_ store: Store) -> (Presenter, PresentedView, () -> [Changeset]) {
    let (presenter, view) = ListPresenterTests.present(store)
    var changesets: [Changeset] = []
    presenter.didUpdate = { changesets.append($0) }
    return (presenter, view, { changesets })
  }

  @Test func aToggledParentIsReconfiguredAfterItsChildrenMove() throws {
    let store = try Self.outline()
    let (presenter, view, changesets) = Self.present(store)
    try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 1))
    var changeset = try #require(changesets().last)
    #expect(changeset.count == 2, "the inserts, then a batch UIKit lets reconfigure in")
    #expect(changeset[0].insertedItems == ["c1", "c2"] && changeset[0].itemReconfigures.isEmpty)
    #expect(changeset[1].reconfiguredItems == ["p"] && changeset[1].itemReconfigures == [ListIndexPath(section: 0, row: 1)])
    #expect(!changeset[1].hasStructuralChanges)

    try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 1))
    changeset = try #require(changesets().last)
    #expect(changeset.map(\.deletedItems) == [["c2", "c1"], []])
    #expect(changeset.map(\.reconfiguredItems) == [[], ["p"]])
    #expect(view.view.failures.isEmpty && view.view.shown == Rows(store.snapshot))
  }

  /// The first child of a collapsed row changes no row, yet the row now shows a chevron.
  @Test func aRowThatGainsOrLosesItsFirstChildIsReconfigured() async throws {
    let store = try Self.outline()
    let (presenter, view, changesets) = Self.present(store)
    try store.appendItems([TestItem("k")], underParent: "a")
    await ListPresenterTests.settle(presenter)
    var changeset = try #require(changesets().last)
    #expect(changeset.count == 1 && changeset[0].reconfiguredItems == ["a"] && !changeset.hasStructuralChanges)
    try store.expand(["a"])
    await ListPresenterTests.settle(presenter)
    try store.deleteItems(["k"])
    await ListPresenterTests.settle(presenter)
    changeset = try #require(changesets().last)
    #expect(changeset.map(\.deletedItems) == [["k"], []] && changeset.map(\.reconfiguredItems) == [[], ["a"]])
    // A content change next to the flip: one batch of reloads and reconfigures.
    try store.transaction { tx in
      try tx.appendItems([TestItem("k2")], underParent: "z")
      try tx.reloadItems(["a"])
    }
    await ListPresenterTests.settle(presenter)
    changeset = try #require(changesets().last)
    #expect(changeset.count == 1 && changeset[0].reloadedItems == ["a"] && changeset[0].reconfiguredItems == ["z"])
    #expect(view.view.failures.isEmpty && presenter.rows == view.view.shown)
  }

  @Test func rowsAlreadyRefreshedOrHiddenAreLeftAlone() async throws {
    let store = try Self.outline()
    try store.appendItems([TestItem("g")], underParent: "c1")
    try store.expand(["p"])
    let (presenter, view, changesets) = Self.present(store)
    // c1 expands while p collapses: c1 leaves the screen, only p is reconfigured.
    try store.transaction { tx in
      try tx.expand(["c1"])
      try tx.collapse(["p"])
    }
    await ListPresenterTests.settle(presenter)
    #expect(changesets().last?.flatMap(\.reconfiguredItems) == ["p"])
    // p expands and is reloaded in the same version: reloaded, not also reconfigured.
    try store.transaction { tx in
      try tx.expand(["p"])
      try tx.updateItem(TestItem("p", content: "renamed"))
    }
    await ListPresenterTests.settle(presenter)
    let changeset = try #require(changesets().last)
    #expect(changeset.flatMap(\.reloadedItems) == ["p"] && changeset.flatMap(\.reconfiguredItems).isEmpty)
    #expect(view.view.failures.isEmpty && presenter.rows == Rows(store.snapshot))
  }

  @Test func theOptOutLeavesChangesetsAsTheDiffMadeThem() async throws {
    let store = try Self.outline()
    let (presenter, view, changesets) = Self.present(store)
    presenter.reconfiguresDisclosureChanges = false
    let before = store.snapshot
    try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 1))
    let events = try store.events(from: Version(store.head.rawValue - 1), to: store.head)
    #expect(changesets().last == ListChangeset(from: before, to: store.snapshot, events: events))
    #expect(changesets().last?.flatMap(\.reconfiguredItems) == [])
    try store.appendItems([TestItem("k")], underParent: "a")
    await ListPresenterTests.settle(presenter)
    #expect(changesets().last?.isEmpty == true)
    #expect(view.view.failures.isEmpty)
  }

  /// Long random runs with many expansions: every row that stays visible and changes its
  /// disclosure is refreshed, nothing else is reconfigured (no reconfigure markers are drawn), and
  /// every batch passes UIKit's rules.
  @Test(arguments: 0..<3)
  func randomRunsRefreshExactlyTheRowsWhoseDisclosureChanged(seedOffset: Int) async throws {
    let seed = 0xD15C_0000 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    var weights = ListPresenterTests.storeWeights
    weights["reconfigureItems"] = nil
    weights["expand"] = 14
    weights["collapse"] = 8
    var generator = ListOperationGenerator<TestSection, TestItem>(
      invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let store = Store()
    let (presenter, view) = ListPresenterTests.present(store)
    var shown = presenter.snapshot
    var problems: [String] = []
    var reconfigured = 0
    var movingUpdates = 0
    presenter.didUpdate = { changeset in
      let new = presenter.snapshot
      defer { shown = new }
      var refreshed = Set<String>()
      var freshSections = Set<String>()
      for stage in changeset {
        refreshed.formUnion(stage.insertedItems + stage.reloadedItems + stage.reconfiguredItems)
        freshSections.formUnion(stage.insertedSections + stage.reloadedSections)
      }
      var flipped = Set<String>()
      for id in new.visibleItems where shown.isVisible(id) {
        if shown.isExpanded(id) != new.isExpanded(id)
          || shown.children(of: id).isEmpty != new.children(of: id).isEmpty
        {
          flipped.insert(id)
        }
      }
      for id in flipped where !refreshed.contains(id) && !freshSections.contains(new.sectionIdentifier(containingItem: id)!) {
        problems.append("\(id) changed its disclosure but was not refreshed: \(changeset.textDescription)")
      }
      let reconfigures = changeset.flatMap(\.reconfiguredItems)
      for id in reconfigures where !flipped.contains(id) {
        problems.append("\(id) reconfigured without a disclosure change: \(changeset.textDescription)")
      }
      reconfigured += reconfigures.count
      if !reconfigures.isEmpty, changeset.hasStructuralChanges { movingUpdates += 1 }
    }
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      let rows = presenter.rows
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<45:
        try? store.transaction(label: "Edit") { transaction in
          for _ in 0..<Int.random(in: 1...3, using: &rng) {
            _ = try? generator.next(for: transaction.snapshot, using: &rng).apply(to: &transaction)
          }
        }
      case 45..<55: if store.canUndo { try store.undo() }
      case 55..<60: if store.redoTarget != nil { try store.redo() }
      case 60..<63: try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &rng)))
      case 63..<68:
        var rebuilt = store.snapshot
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          _ = try? generator.next(for: rebuilt, using: &rng).apply(to: &rebuilt)
        }
        try store.apply(rebuilt, label: "Sync")
      case 68..<88:
        if let path = ListPresenterTests.randomPath(in: rows, using: &rng) { try presenter.toggleExpansion(at: path) }
      default:
        if let source = ListPresenterTests.randomPath(in: rows, using: &rng) {
          let section = Int.random(in: 0..<rows.rows.count, using: &rng)
          let remaining = rows.rows[section].count - (section == source.section ? 1 : 0)
          let destination = ListIndexPath(section: section, row: Int.random(in: 0...remaining, using: &rng))
          if rng.chance(0.5) {
            view.view.userMovedRow(from: source, to: destination)
            try presenter.moveRow(from: source, to: destination, viewAlreadyMoved: true)
          } else {
            try presenter.moveRow(from: source, to: destination)
          }
        }
      }
      await ListPresenterTests.settle(presenter)
      guard ListPresenterTests.check(presenter, view, store, "seed \(seed) step \(step)"), problems.isEmpty else {
        Issue.record("seed \(seed) step \(step): \(problems)")
        break
      }
    }
    #expect(reconfigured > 20 && movingUpdates > 5, "flips were exercised, also next to moving rows")
  }
}
