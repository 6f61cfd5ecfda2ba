import ListDiff
import ListHistory
import ListPresenter
import ListState
import TestSupport
import Testing

/// The presenter core against a simulated collection view that enforces UIKit's batch rules:
/// long random runs of store operations, undo/redo/checkout, rebuilt-snapshot applies, gestures,
/// changes from other threads and changes made in the middle of a batch.
@Suite("The presenter drives a view through every store change")
@MainActor
struct ListPresenterTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Presenter = ListPresenter<TestSection, TestItem>
  typealias Rows = ListVisibleRows<String, String>

  static var storeWeights: [String: Int] {
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil  // no transaction counterpart
    return weights
  }

  static func present(_ store: Store) -> (Presenter, PresentedView) {
    let presenter = Presenter(store: store)
    let view = PresentedView(showing: presenter.rows)
    view.presenter = presenter
    presenter.renderer = view
    return (presenter, view)
  }

  /// Lets queued main-actor work (changes from other threads, deferred follow-ups) run.
  static func settle(_ presenter: Presenter) async {
    var turns = 0
    while presenter.hasPendingUpdates, turns < 10_000 {
      await Task.yield()
      turns += 1
    }
  }

  /// The view, the presenter and the store agree, and every query answers from the rows.
  static func check(_ presenter: Presenter, _ view: PresentedView, _ store: Store, _ context: String) -> Bool {
    let expected = Rows(store.snapshot)
    var ok = true
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition {
        Issue.record("\(context): \(message())")
        ok = false
      }
    }
    expect(view.view.failures.isEmpty, "\(view.view.failures)")
    expect(presenter.rows == expected, "presenter rows \(presenter.rows) != store rows \(expected)")
    expect(view.view.shown == expected, "view shows \(view.view.shown), store has \(expected)")
    expect(presenter.version == store.head, "presenter at \(presenter.version), store at \(store.head)")
    expect(presenter.numberOfSections == expected.sectionIdentifiers.count, "section count")
    for (section, rows) in expected.rows.enumerated() {
      expect(presenter.sectionIdentifier(at: section) == expected.sectionIdentifiers[section], "section \(section)")
      expect(presenter.section(at: section) == store.snapshot.section(expected.sectionIdentifiers[section]), "section value")
      expect(presenter.numberOfItems(inSection: section) == rows.count, "rows in section \(section)")
      for (row, id) in rows.enumerated() {
        let path = ListIndexPath(section: section, row: row)
        expect(presenter.itemIdentifier(at: path) == id, "item at \(path)")
        expect(presenter.indexPath(for: id) == path, "index path of \(id)")
        expect(presenter.item(at: path) == store.snapshot.item(id), "value at \(path)")
      }
      expect(presenter.itemIdentifier(at: ListIndexPath(section: section, row: rows.count)) == nil, "past the end")
    }
    expect(presenter.numberOfItems(inSection: expected.rows.count) == 0, "no such section")
    return ok
  }

  static func randomPath(in rows: Rows, using rng: inout SeededRandom) -> ListIndexPath? {
    let sections = rows.rows.indices.filter { !rows.rows[$0].isEmpty }
    guard let section = sections.randomElement(using: &rng) else { return nil }
    return ListIndexPath(section: section, row: Int.random(in: 0..<rows.rows[section].count, using: &rng))
  }

  @Test(arguments: 0..<4)
  func randomRunsKeepViewPresenterAndStoreInStep(seedOffset: Int) async throws {
    let seed = 0x9E5E_0000 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    var generator = ListOperationGenerator<TestSection, TestItem>(
      invalidProbability: 0.1, targetItemCount: 30, weights: Self.storeWeights)
    let store = Store()
    let (presenter, view) = Self.present(store)
    var kinds: [String: Int] = [:]
    var splitUpdates = 0
    presenter.didUpdate = { if $0.count > 1 { splitUpdates += 1 } }
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      let roll = Int.random(in: 0..<100, using: &rng)
      let rows = presenter.rows
      var kind = ""
      switch roll {
      case 0..<35:
        kind = "operations"
        let count = Int.random(in: 1...3, using: &rng)
        try? store.transaction(label: "Edit") { transaction in
          for _ in 0..<count {
            let operation = generator.next(for: transaction.snapshot, using: &rng)
            _ = try? operation.apply(to: &transaction)
          }
        }
      case 35..<45:
        kind = "undo"
        if store.canUndo { try store.undo() }
      case 45..<52:
        kind = "redo"
        if store.redoTarget != nil { try store.redo() }
      case 52..<55:
        kind = "checkout"
        try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &rng)))
      case 55..<62:
        kind = "rebuilt apply"
        var rebuilt = store.snapshot
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
          _ = try? generator.next(for: rebuilt, using: &rng).apply(to: &rebuilt)
        }
        try store.apply(rebuilt, label: "Sync")
      case 62..<72:
        kind = "disclosure tap"
        if let path = Self.randomPath(in: rows, using: &rng) {
          let id = rows[path]!
          let wasExpanded = store.snapshot.isExpanded(id)
          let head = store.head
          let expanded = try presenter.toggleExpansion(at: path)
          #expect(expanded == !wasExpanded && store.snapshot.isExpanded(id) == expanded)
          #expect(store.info(for: store.head)?.label == (expanded ? "Expand" : "Collapse"))
          #expect(store.info(for: store.head)?.parent == head, "one version")
          #expect(presenter.rows == Rows(store.snapshot), "a gesture's change is shown before it returns")
        }
      case 72..<86:
        kind = "drag"
        if let source = Self.randomPath(in: rows, using: &rng) {
          let section = Int.random(in: 0..<rows.rows.count, using: &rng)
          let remaining = rows.rows[section].count - (section == source.section ? 1 : 0)
          let destination = ListIndexPath(section: section, row: Int.random(in: 0...remaining, using: &rng))
          let id = rows[source]!
          let showsChildren = store.snapshot.isExpanded(id) && !store.snapshot.children(of: id).isEmpty
          var dragged = rows
          dragged.rows[source.section].remove(at: source.row)
          dragged.rows[destination.section].insert(id, at: destination.row)
          let head = store.head
          if rng.chance(0.5) {
            kind = "interactive drag"
            view.view.userMovedRow(from: source, to: destination)
            try presenter.moveRow(from: source, to: destination, viewAlreadyMoved: true)
            #expect(presenter.rows == view.view.shown, "the data source answers with the layout the view made")
          } else {
            try presenter.moveRow(from: source, to: destination)
          }
          if !showsChildren {
            #expect(Rows(store.snapshot) == dragged, "a row without visible children lands where it was dropped")
          }
          if store.head != head {
            #expect(store.info(for: store.head)?.label == "Move" && store.info(for: store.head)?.parent == head)
          }
        }
      case 86..<92:
        kind = "swipe delete"
        if let path = Self.randomPath(in: rows, using: &rng) {
          let id = rows[path]!
          try presenter.deleteRows(at: [path])
          #expect(!store.snapshot.contains(item: id))
          #expect(store.info(for: store.head)?.label == "Delete")
        }
      case 92..<95:
        kind = "commit from another thread"
        let operation = generator.next(for: store.snapshot, using: &rng)
        await Task.detached { try? store.transaction { _ = try operation.apply(to: &$0) } }.value
      case 95..<98:
        kind = "change during a batch"
        let operation = generator.next(for: store.snapshot, using: &rng)
        var fired = false
        view.duringBatch = {
          guard !fired else { return }
          fired = true
          try? store.transaction { _ = try operation.apply(to: &$0) }
          presenter.applyPendingUpdates()  // refused: an update is running
          if presenter.rows != view.view.dataSource { Issue.record("the rows changed inside a batch") }
        }
        if let path = Self.randomPath(in: rows, using: &rng) { _ = try presenter.toggleExpansion(at: path) }
        view.duringBatch = nil
      default:
        kind = "view on/off screen"
        view.view.isShowingRows.toggle()
      }
      kinds[kind, default: 0] += 1
      await Self.settle(presenter)
      guard Self.check(presenter, view, store, "seed \(seed) step \(step) (\(kind))") else { break }
    }
    #expect(view.view.batches > 0 && view.view.reloads > 0)
    #expect(kinds.count >= 12, "\(kinds)")
    #expect(splitUpdates > 0, "updates of several batches (intermediate rows) were exercised")
  }

  @Test func badIndexPathsAreTypedErrorsAndChangeNothing() throws {
    let store = Store()
    try store.appendSections([TestSection("S")])
    try store.appendItems([TestItem("a"), TestItem("b")])
    let (presenter, view) = Self.present(store)
    let head = store.head
    let outside = ListIndexPath(section: 0, row: 2)
    #expect(throws: ListError<String, String>.indexPathOutOfRange(section: 0, row: 2)) {
      try presenter.toggleExpansion(at: outside)
    }
    #expect(throws: ListError<String, String>.indexPathOutOfRange(section: 0, row: 2)) {
      try presenter.moveRow(from: ListIndexPath(section: 0, row: 0), to: outside)
    }
    #expect(throws: ListError<String, String>.indexPathOutOfRange(section: 1, row: 0)) {
      try presenter.moveRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 1, row: 0))
    }
    #expect(throws: ListError<String, String>.indexPathOutOfRange(section: 0, row: 2)) {
      try presenter.deleteRows(at: [ListIndexPath(section: 0, row: 0), outside])
    }
    #expect(store.head == head && presenter.rows == Rows(sections: ["S"], rows: [["a", "b"]]))
    #expect(view.view.batches == 0 && !presenter.hasPendingUpdates)
  }

  /// A dragged parent takes its children along: the view first shows the layout UIKit made (the
  /// parent alone moved), then, on the next turn, a batch moves the children after it.
  @Test func anInteractiveDragOfAParentBringsItsChildrenAlongAfterwards() async throws {
    let store = Store()
    try store.appendSections([TestSection("S")])
    try store.appendItems(["a", "p", "z"].map { TestItem($0) })
    try store.appendItems(["c1", "c2"].map { TestItem($0) }, underParent: "p")
    try store.expand(["p"])
    let (presenter, view) = Self.present(store)
    #expect(presenter.rows == Rows(sections: ["S"], rows: [["a", "p", "c1", "c2", "z"]]))
    let (from, to) = (ListIndexPath(section: 0, row: 1), ListIndexPath(section: 0, row: 4))
    view.view.userMovedRow(from: from, to: to)
    try presenter.moveRow(from: from, to: to, viewAlreadyMoved: true)
    #expect(presenter.rows == Rows(sections: ["S"], rows: [["a", "c1", "c2", "z", "p"]]))
    #expect(view.view.batches == 0, "no batch inside UIKit's own move")
    await Self.settle(presenter)
    #expect(view.view.shown == Rows(sections: ["S"], rows: [["a", "z", "p", "c1", "c2"]]))
    #expect(view.view.failures.isEmpty && view.view.batches == 1)
    try store.undo()
    await Self.settle(presenter)
    #expect(view.view.shown == Rows(sections: ["S"], rows: [["a", "p", "c1", "c2", "z"]]))
    #expect(view.view.failures.isEmpty)
  }

  /// When the store refuses a move the view has already made, the next turn moves the row back.
  @Test func aRefusedInteractiveDragIsUndoneOnScreen() async throws {
    let sink = FailingSink()
    let store = Store(codec: HistoryCodec(), sink: sink)
    try store.appendSections([TestSection("S")])
    try store.appendItems(["a", "b", "c"].map { TestItem($0) })
    let (presenter, view) = Self.present(store)
    let head = store.head
    sink.refuse(true)
    view.view.userMovedRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 2))
    #expect(throws: FailingSink.Refused.self) {
      try presenter.moveRow(
        from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 0, row: 2), viewAlreadyMoved: true)
    }
    #expect(presenter.rows == Rows(sections: ["S"], rows: [["b", "c", "a"]]), "the layout the view made, for now")
    await Self.settle(presenter)
    #expect(store.head == head)
    #expect(view.view.shown == Rows(sections: ["S"], rows: [["a", "b", "c"]]) && presenter.rows == view.view.shown)
    #expect(view.view.failures.isEmpty && view.view.batches == 1)
  }

  /// Threads committing at once while the main actor applies: every change arrives on the main
  /// actor, in the store's order, and the view ends showing the store.
  @Test func changesFromManyThreadsReachTheViewInOrder() async throws {
    let store = Store()
    try store.appendSections([TestSection("A"), TestSection("B")])
    let (presenter, view) = Self.present(store)
    var updates = 0
    presenter.didUpdate = { _ in updates += 1 }
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for step in 0..<50 {
            let id = "t\(thread)-\(step)"
            try? store.transaction { transaction in
              try transaction.appendItems([TestItem(id)], toSection: thread % 2 == 0 ? "A" : "B")
              if step % 5 == 4 { try transaction.moveItem(id, to: ListItemLocation(.section("A"), index: 0)) }
              if step % 7 == 6 { try transaction.deleteItems(["t\(thread)-\(step - 1)"]) }
            }
          }
        }
      }
      for round in 0..<20 {
        await Task.yield()
        if store.canUndo, round % 3 == 0 { _ = try? store.undo() }
      }
    }
    await Self.settle(presenter)
    #expect(Self.check(presenter, view, store, "after concurrent commits"))
    #expect(updates > 0 && view.view.batches > 0)
  }
}
