import ListDiff
import ListHistory
@testable import ListPresenter
import ListState
import TestSupport
import Testing

/// The `NSTableView` core: one list of rows with section headers as group rows, every batch as
/// steps applied one after another, drops above rows as moves — against a simulated table that
/// applies steps as `NSTableView` does and keeps stale cells stale.
@Suite("A table adapter drives a one-list table through every store change")
@MainActor
struct ListTableAdapterTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Presenter = ListPresenter<TestSection, TestItem>
  typealias Adapter = ListTableAdapter<TestSection, TestItem>

  static func present(_ store: Store, headers: Bool = true) -> (Adapter, SimulatedTableView) {
    let adapter = Adapter(presenter: Presenter(store: store), showsSectionHeaders: headers)
    return (adapter, SimulatedTableView(adapter: adapter))
  }

  /// The cells a table showing the store should have, read from the store alone.
  static func expectedCells(_ snapshot: TestSnapshot, headers: Bool) -> [SimulatedTableView.Cell] {
    var cells: [SimulatedTableView.Cell] = []
    for section in snapshot.sections {
      if headers { cells.append(.init(id: "[\(section.id)]", content: section.content)) }
      for id in snapshot.visibleItems(inSection: section.id) {
        let content = "\(snapshot.item(id)!.content) \(snapshot.isExpanded(id)) \(!snapshot.children(of: id).isEmpty)"
        cells.append(.init(id: id, content: content))
      }
    }
    return cells
  }

  static func fruitAndVegetables() throws -> Store {
    let store = Store()
    try store.appendSections([TestSection("Fruit"), TestSection("Veg")])
    try store.appendItems(["Apple", "Pear"].map { TestItem($0) }, toSection: "Fruit")
    try store.appendItems([TestItem("Leek")], toSection: "Veg")
    try store.appendItems([TestItem("Granny")], underParent: "Apple")
    return store
  }

  @Test func rowsAreHeadersThenVisibleItems() throws {
    let store = try Self.fruitAndVegetables()
    let (adapter, table) = Self.present(store)
    #expect(adapter.numberOfRows == 5)
    #expect((0..<5).map { adapter.row(at: $0) } == [
      .sectionHeader(0), .item(ListIndexPath(section: 0, row: 0)), .item(ListIndexPath(section: 0, row: 1)),
      .sectionHeader(1), .item(ListIndexPath(section: 1, row: 0)),
    ])
    #expect(adapter.row(at: 5) == nil && adapter.row(at: -1) == nil)
    #expect((0..<5).map(adapter.isGroupRow) == [true, false, false, true, false])
    #expect(adapter.itemIdentifier(atRow: 2) == "Pear" && adapter.itemIdentifier(atRow: 3) == nil)
    #expect(adapter.section(atRow: 3)?.id == "Veg" && adapter.item(atRow: 4)?.id == "Leek")
    #expect(adapter.index(ofItem: "Leek") == 4 && adapter.index(ofItem: "Granny") == nil)
    #expect(adapter.index(of: .sectionHeader(1)) == 3 && adapter.index(of: .item(ListIndexPath(section: 0, row: 2))) == nil)
    #expect(table.cells.map { $0!.id } == ["[Fruit]", "Apple", "Pear", "[Veg]", "Leek"])

    let (flat, _) = Self.present(store, headers: false)
    #expect(flat.numberOfRows == 3 && flat.itemIdentifier(atRow: 2) == "Leek" && !flat.isGroupRow(0))
    #expect(flat.index(of: .sectionHeader(0)) == nil)
  }

  @Test func aDisclosureClickInsertsTheChildrenAndReloadsTheParent() throws {
    let store = try Self.fruitAndVegetables()
    let (adapter, table) = Self.present(store)
    #expect(try adapter.toggleExpansion(atRow: 1))
    #expect(store.info(for: store.head)?.label == "Expand")
    #expect(table.cells.compactMap { $0?.id } == ["[Fruit]", "Apple", "Granny", "Pear", "[Veg]", "Leek"])
    #expect(table.cells == Self.expectedCells(store.snapshot, headers: true), "Apple's cell shows it expanded")
    #expect(table.failures.isEmpty && table.groups == 1 && table.reloads == 0)
    #expect(throws: ListTableError.notAnItem(row: 0)) { try adapter.toggleExpansion(atRow: 0) }
    #expect(throws: ListTableError.rowOutOfRange(row: 9, numberOfRows: 6)) { try adapter.deleteRows([1, 9]) }
    #expect(store.snapshot.contains(item: "Apple"))
  }

  @Test func dropsAboveRowsMoveItems() throws {
    let store = try Self.fruitAndVegetables()
    let (adapter, table) = Self.present(store)
    // [Fruit] Apple Pear [Veg] Leek
    #expect(adapter.moveDestination(draggingRow: 1, aboveRow: 3)! == (ListIndexPath(section: 0, row: 0), ListIndexPath(section: 0, row: 1)))
    #expect(adapter.moveDestination(draggingRow: 4, aboveRow: 0)! == (ListIndexPath(section: 1, row: 0), ListIndexPath(section: 0, row: 0)))
    #expect(adapter.moveDestination(draggingRow: 1, aboveRow: 5)! == (ListIndexPath(section: 0, row: 0), ListIndexPath(section: 1, row: 1)))
    #expect(adapter.moveDestination(draggingRow: 0, aboveRow: 2) == nil, "a header is not dragged")
    #expect(!adapter.canMoveRow(1, aboveRow: 6) && adapter.canMoveRow(1, aboveRow: 6 - 1))
    try adapter.moveRow(4, aboveRow: 1)
    #expect(table.cells.compactMap { $0?.id } == ["[Fruit]", "Leek", "Apple", "Pear", "[Veg]"])
    #expect(store.info(for: store.head)?.label == "Move" && table.moves == 1 && table.failures.isEmpty)
    #expect(throws: ListTableError.notAnItem(row: 4)) { try adapter.moveRow(4, aboveRow: 0) }
  }

  /// Long random runs: store operations, undo/redo, checkouts, rebuilt applies, clicks, drops and
  /// deletes through the adapter, changes from other threads, the table off screen; after each,
  /// the table shows exactly the store's rows with up-to-date cells.
  @Test(arguments: [(0, true), (1, true), (2, false), (3, false)])
  func randomRunsKeepTheTableAndTheStoreInStep(seedOffset: Int, headers: Bool) async throws {
    let seed = 0x7AB1_E000 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    var generator = ListOperationGenerator<TestSection, TestItem>(
      invalidProbability: 0.05, targetItemCount: 30, weights: ListPresenterTests.storeWeights)
    let store = Store()
    let (adapter, table) = Self.present(store, headers: headers)
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      let count = adapter.numberOfRows
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<40:
        try? store.transaction(label: "Edit") { transaction in
          for _ in 0..<Int.random(in: 1...3, using: &rng) {
            _ = try? generator.next(for: transaction.snapshot, using: &rng).apply(to: &transaction)
          }
        }
      case 40..<48: if store.canUndo { try store.undo() }
      case 48..<52: if store.redoTarget != nil { try store.redo() }
      case 52..<55: try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &rng)))
      case 55..<60:
        var rebuilt = store.snapshot
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          _ = try? generator.next(for: rebuilt, using: &rng).apply(to: &rebuilt)
        }
        try store.apply(rebuilt, label: "Sync")
      case 60..<72:
        if count > 0, let id = adapter.itemIdentifier(atRow: Int.random(in: 0..<count, using: &rng)) {
          try adapter.toggleExpansion(atRow: adapter.index(ofItem: id)!)
        }
      case 72..<88:
        guard count > 0 else { break }
        let source = Int.random(in: 0..<count, using: &rng)
        let gap = Int.random(in: 0...count, using: &rng)
        guard let id = adapter.itemIdentifier(atRow: source) else {
          #expect(throws: ListTableError.notAnItem(row: source)) { try adapter.moveRow(source, aboveRow: gap) }
          break
        }
        let before = table.cells.map { $0!.id }
        let showsChildren = store.snapshot.isExpanded(id) && !store.snapshot.children(of: id).isEmpty
        try adapter.moveRow(source, aboveRow: gap)
        if !showsChildren {
          // The row lands where it was dropped (above the first header: under it).
          var expected = before
          expected.remove(at: source)
          expected.insert(id, at: max(gap > source ? gap - 1 : gap, headers ? 1 : 0))
          #expect(table.cells.map { $0!.id } == expected, "seed \(seed) step \(step): \(id) dropped above row \(gap)")
        }
      case 88..<93:
        if count > 0, let id = adapter.itemIdentifier(atRow: Int.random(in: 0..<count, using: &rng)) {
          try adapter.deleteRows([adapter.index(ofItem: id)!])
          #expect(!store.snapshot.contains(item: id))
        }
      case 93..<96:
        let operation = generator.next(for: store.snapshot, using: &rng)
        await Task.detached { try? store.transaction { _ = try operation.apply(to: &$0) } }.value
      default:
        table.isShowingRows.toggle()
      }
      await ListPresenterTests.settle(adapter.presenter)
      let expected = Self.expectedCells(store.snapshot, headers: headers)
      let cells = table.cells.map { $0 ?? .init(id: "?", content: "") }
      guard table.failures.isEmpty, cells == expected else {
        Issue.record("seed \(seed) step \(step): \(table.failures)\n table: \(cells)\n store: \(expected)")
        break
      }
      for row in 0..<adapter.numberOfRows {
        guard let shown = adapter.row(at: row), adapter.index(of: shown) == row else {
          Issue.record("seed \(seed) step \(step): row \(row) does not map back")
          break
        }
      }
    }
    #expect(table.groups > 50 && table.moves > 10 && table.reloads > 0, "\(table.groups) groups, \(table.moves) moves")
  }

  /// The steps of random batches over one list, applied one after another to an array, give the
  /// batch's after rows; kept rows are found where they end.
  @Test func sequentialStepsReachEveryBatchsTarget() throws {
    var rng = SeededRandom(seed: 0x5E0_5C81)
    var checked = 0
    for round in 0..<SeededRandom.propertySteps(default: 2_000) {
      let old = (0..<Int.random(in: 0...12, using: &rng)).map { $0 }
      var new = old.filter { _ in rng.chance(0.7) }.shuffled(using: &rng)
      if rng.chance(0.5) { new = new.sorted() }  // sometimes only deletes and inserts
      for extra in 100..<(100 + Int.random(in: 0...4, using: &rng)) {
        new.insert(extra, at: Int.random(in: 0...new.count, using: &rng))
      }
      let changeset = ListChangeset(from: ListVisibleRows(sections: [0], rows: [old]), to: ListVisibleRows(sections: [0], rows: [new]))
      var rows = old
      for stage in changeset {
        let after = stage.after?.rows[0] ?? new
        let script = try #require(
          _SequentialScript(
            beforeCount: rows.count, afterCount: after.count, deletes: stage.itemDeletes.map(\.row),
            inserts: stage.itemInserts.map(\.row), moves: stage.itemMoves.map { ($0.from.row, $0.to.row) }),
          "round \(round)")
        let before = rows
        for step in script.steps {
          switch step {
          case .remove(let indexes): for index in indexes.reversed() { rows.remove(at: index) }
          case .insert(let indexes): for index in indexes { rows.insert(-1, at: index) }
          case .move(let from, let to): rows.insert(rows.remove(at: from), at: to)
          }
        }
        for (index, row) in rows.enumerated() where row == -1 { rows[index] = after[index] }
        #expect(rows == after, "round \(round): \(old) → \(new) by \(script.steps)")
        let movedOrDeleted = Set(stage.itemDeletes.map(\.row) + stage.itemMoves.map(\.from.row))
        for index in before.indices where !movedOrDeleted.contains(index) {
          #expect(script.afterIndex(ofKept: index).map { after[$0] } == before[index])
        }
        #expect(script.steps.count { if case .move = $0 { true } else { false } } <= stage.itemMoves.count)
        rows = after
        checked += 1
      }
    }
    #expect(checked > 1_000)
    #expect(_SequentialScript(beforeCount: 2, afterCount: 2, deletes: [0], inserts: [], moves: []) == nil, "counts miss")
    #expect(_SequentialScript(beforeCount: 2, afterCount: 1, deletes: [0], inserts: [], moves: [(0, 0)]) == nil, "a deleted row moves")
  }
}
