import ListDiff
import ListHistory
import ListPresenter
import ListState
import TestSupport
import Testing

/// The `NSOutlineView` core: the list as a tree, every store change as the calls an outline view
/// takes, its disclosure clicks and drops as versions — against a simulated outline view that
/// follows `NSOutlineView`'s documented rules.
@Suite("An outline adapter drives an outline view through every store change")
@MainActor
struct ListOutlineAdapterTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Presenter = ListPresenter<TestSection, TestItem>
  typealias Adapter = ListOutlineAdapter<TestSection, TestItem>
  typealias Node = ListOutlineNode<String, String>

  static func present(_ store: Store, sections: Bool = true, remembers: Bool = true) -> (Adapter, SimulatedOutlineView) {
    let adapter = Adapter(presenter: Presenter(store: store), showsSections: sections)
    return (adapter, SimulatedOutlineView(adapter: adapter, remembersExpansion: remembers))
  }

  /// What the view should show, read from the store alone; nil when it does.
  static func mismatch(_ view: SimulatedOutlineView, _ snapshot: TestSnapshot, sections: Bool) -> String? {
    var expected: [Node] = []
    for section in snapshot.sectionIdentifiers {
      if sections { expected.append(.section(section)) }
      expected += snapshot.visibleItems(inSection: section).map(Node.item)
    }
    let rows = view.rows
    guard rows == expected else { return "view rows \(rows), store rows \(expected)" }
    for node in rows {
      switch node {
      case .section(let id):
        guard view.cells[node] == "[\(snapshot.section(id)!.content)]" else { return "stale header \(id)" }
        guard view.loaded[node] != nil else { return "section \(id) not expanded" }
      case .item(let id):
        let hasChildren = !snapshot.children(of: id).isEmpty
        guard view.cells[node] == snapshot.item(id)!.content else { return "stale cell \(id): \(view.cells[node] ?? "-")" }
        guard view.expandable[node] == hasChildren else { return "\(id) expandable \(view.expandable[node]!), has children \(hasChildren)" }
        guard (view.loaded[node] != nil) == (snapshot.isExpanded(id) && hasChildren) else {
          return "\(id) expanded in the view: \(view.loaded[node] != nil), in the store: \(snapshot.isExpanded(id))"
        }
      }
    }
    return nil
  }

  static func fruit() throws -> Store {
    let store = Store()
    try store.appendSections([TestSection("Fruit"), TestSection("Veg")])
    try store.appendItems(["Apple", "Pear"].map { TestItem($0) }, toSection: "Fruit")
    try store.appendItems([TestItem("Leek")], toSection: "Veg")
    try store.appendItems(["Granny", "Fuji"].map { TestItem($0) }, underParent: "Apple")
    return store
  }

  @Test func theTreeIsSectionsThenItemsAndTheirChildren() throws {
    let store = try Self.fruit()
    let (adapter, view) = Self.present(store)
    #expect(adapter.numberOfChildren(of: nil) == 2 && adapter.child(1, of: nil) == .section("Veg"))
    #expect(adapter.child(2, of: nil) == nil)
    #expect((0..<2).map { adapter.child($0, of: .section("Fruit")) } == [.item("Apple"), .item("Pear")])
    #expect(adapter.numberOfChildren(of: .item("Apple")) == 2, "children are listed whether or not the item is open")
    #expect(adapter.isExpandable(.item("Apple")) && !adapter.isExpandable(.item("Pear")))
    #expect(adapter.isGroupItem(.section("Veg")) && !adapter.isGroupItem(.item("Leek")))
    #expect(adapter.parent(of: .item("Fuji")) == .item("Apple") && adapter.parent(of: .item("Leek")) == .section("Veg"))
    #expect(view.rows == [.section("Fruit"), .item("Apple"), .item("Pear"), .section("Veg"), .item("Leek")])

    let (flat, flatView) = Self.present(store, sections: false)
    #expect(flat.numberOfChildren(of: nil) == 3 && flat.child(2, of: nil) == .item("Leek"))
    #expect(flat.parent(of: .item("Leek")) == nil && flatView.rows.count == 3)
  }

  @Test func aDisclosureClickIsOneVersionAndUndoCollapsesTheView() async throws {
    let store = try Self.fruit()
    let (adapter, view) = Self.present(store)
    view.userToggle(.item("Apple"))
    #expect(store.snapshot.isExpanded("Apple") && store.info(for: store.head)?.label == "Expand")
    #expect(Self.mismatch(view, store.snapshot, sections: true) == nil)
    try store.undo()
    await ListPresenterTests.settle(adapter.presenter)
    #expect(!store.snapshot.isExpanded("Apple") && view.loaded[.item("Apple")] == nil)
    #expect(Self.mismatch(view, store.snapshot, sections: true) == nil && view.failures.isEmpty)
  }

  @Test func aCollapsedItemThatGainsItsFirstChildIsReloadedSoItShowsATriangle() async throws {
    let store = try Self.fruit()
    let (adapter, view) = Self.present(store)
    try store.appendItems([TestItem("Conference")], underParent: "Pear")
    await ListPresenterTests.settle(adapter.presenter)
    #expect(view.expandable[.item("Pear")] == true && view.groups == 0)
    // Expanding it in the store now reads its children.
    try store.expand(["Pear"])
    await ListPresenterTests.settle(adapter.presenter)
    #expect(view.rows.contains(.item("Conference")) && view.failures.isEmpty)
  }

  @Test func dropsPlaceItemsAmongTheParentsChildren() throws {
    let store = try Self.fruit()
    let (adapter, view) = Self.present(store)
    try store.expand(["Apple"])
    // Pear onto Apple: its last child.
    #expect(try adapter.moveDestination(of: "Pear", toParent: .item("Apple"), childIndex: -1) == ListItemLocation(.parent("Apple"), index: 2))
    // Granny below Fuji, among the same children: counted without Granny.
    #expect(try adapter.moveDestination(of: "Granny", toParent: .item("Apple"), childIndex: 2) == ListItemLocation(.parent("Apple"), index: 1))
    #expect(throws: ListError<String, String>.itemUnderOwnDescendant(item: "Apple", destination: "Fuji")) {
      try adapter.moveDestination(of: "Apple", toParent: .item("Fuji"), childIndex: 0)
    }
    #expect(throws: ListError<String, String>.indexOutOfRange(index: 0, count: 0)) {
      try adapter.moveDestination(of: "Apple", toParent: nil, childIndex: 0)
    }
    #expect(throws: ListError<String, String>.indexOutOfRange(index: 4, count: 3)) {
      try adapter.moveItem("Apple", toParent: .section("Fruit"), childIndex: 4)
    }
    try adapter.moveItem("Leek", toParent: .section("Fruit"), childIndex: 1)
    #expect(store.snapshot.rootItems(inSection: "Fruit") == ["Apple", "Leek", "Pear"])
    #expect(store.info(for: store.head)?.label == "Move")
    #expect(Self.mismatch(view, store.snapshot, sections: true) == nil && view.failures.isEmpty)
  }

  /// Long random runs — store operations, undo/redo, checkouts, rebuilt applies, clicks in the
  /// view, drops, deletes, changes from other threads, the view off screen — with and without
  /// section group items, with a view that remembers expansion and one that forgets it: after
  /// each, the view shows exactly the store's visible rows, expansion and current cells.
  @Test(arguments: [(0, true, true), (1, true, false), (2, false, true), (3, false, false)])
  func randomRunsKeepTheOutlineAndTheStoreInStep(seedOffset: Int, sections: Bool, remembers: Bool) async throws {
    let seed = 0x0071_1AE0 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    var weights = ListPresenterTests.storeWeights
    weights["expand"] = 12
    var generator = ListOperationGenerator<TestSection, TestItem>(
      invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let store = Store()
    let (adapter, view) = Self.present(store, sections: sections, remembers: remembers)
    var drops = 0
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      let rows = view.rows
      let items = rows.compactMap { if case .item(let id) = $0 { id } else { nil } }
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
      case 60..<75:
        if let id = items.randomElement(using: &rng) {
          let wasExpanded = store.snapshot.isExpanded(id)
          view.userToggle(.item(id))
          if !store.snapshot.children(of: id).isEmpty {
            #expect(store.snapshot.isExpanded(id) != wasExpanded, "seed \(seed) step \(step): the click on \(id) is recorded")
          }
        }
      case 75..<88:
        guard let id = items.randomElement(using: &rng) else { break }
        let parents: [Node?] = [nil] + rows.map { $0 }
        let parent = parents.randomElement(using: &rng)!
        let index = Int.random(in: -1...(adapter.numberOfChildren(of: parent) + 1), using: &rng)
        let head = store.head
        do {
          let location = try adapter.moveDestination(of: id, toParent: parent, childIndex: index)
          try adapter.moveItem(id, toParent: parent, childIndex: index)
          drops += 1
          #expect(store.snapshot.location(ofItem: id) == location, "seed \(seed) step \(step): \(id) lands where it was dropped")
        } catch {
          #expect(store.head == head, "seed \(seed) step \(step): a refused drop changes nothing")
        }
      case 88..<92:
        if let id = items.randomElement(using: &rng) {
          try adapter.deleteItems([id])
          #expect(!store.snapshot.contains(item: id))
        }
      case 92..<96:
        let operation = generator.next(for: store.snapshot, using: &rng)
        await Task.detached { try? store.transaction { _ = try operation.apply(to: &$0) } }.value
      default:
        view.isShowingRows.toggle()
      }
      await ListPresenterTests.settle(adapter.presenter)
      if let problem = Self.mismatch(view, store.snapshot, sections: sections) ?? view.failures.first {
        Issue.record("seed \(seed) step \(step): \(problem)")
        break
      }
    }
    #expect(view.groups > 20 && view.moves > 2 && view.reloads > 1 && drops > 10, "\(view.groups) groups, \(view.moves) moves, \(drops) drops")
  }
}
