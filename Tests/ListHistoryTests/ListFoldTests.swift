import ListHistory
import ListState
import TestSupport
import Testing

/// `ListFold` against the model: folding a random history's events gives the states the store
/// reached live, and a damaged event is refused exactly when the model refuses it, leaving the
/// fold unchanged.
@Suite struct ListFoldTests {
  typealias Store = ListStore<String, TestRow>
  typealias Event = ListEvent<String, TestRow>
  typealias Fold = ListFold<String, TestRow>

  /// A store driven by random transactions, undos, redos and checkouts; the live state of
  /// every version it created.
  func randomHistory(seed: UInt64, steps: Int) throws -> (Store, [Int: Canonical<String, TestRow>]) {
    let store = Store(checkpointInterval: 16)
    var history = RandomHistory(seed: seed, mix: .init(undo: 8, redo: 4, checkout: 3))
    try history.drive(store, steps: steps)
    return (store, history.live)
  }

  @Test(arguments: [11, 12, 13] as [UInt64])
  func foldingEveryVersionsEventsReproducesItsState(seed: UInt64) throws {
    let (store, live) = try randomHistory(seed: seed, steps: SeededRandom.propertySteps(default: 400))
    // From the empty list along the version tree, one version at a time (each fold continues
    // from its parent's), and the result equals the state the store reached live.
    var folds: [Int: Fold] = [0: Fold()]
    for version in 1...store.latestVersion.rawValue {
      let parent = store.info(for: Version(version))!.parent!.rawValue
      var fold = folds[parent]!
      for event in try store.events(of: Version(version)) { try fold.apply(event) }
      #expect(Canonical(fold.snapshot()) == live[version], "v\(version)")
      folds[version] = fold
    }
  }

  @Test(arguments: [21, 22] as [UInt64])
  func foldingBetweenAnyTwoVersionsMatchesTheModel(seed: UInt64) throws {
    let (store, live) = try randomHistory(seed: seed, steps: SeededRandom.propertySteps(default: 300))
    var random = SeededRandom(seed: seed &* 7)
    for _ in 0..<60 {
      let a = Int.random(in: 0...store.latestVersion.rawValue, using: &random)
      let b = Int.random(in: 0...store.latestVersion.rawValue, using: &random)
      // Through the inverse events up to the common ancestor, then down: `events(from:to:)`.
      var fold = Fold(try store.state(at: Version(a)))
      #expect(Canonical(fold.snapshot()) == live[a])
      for event in try store.events(from: Version(a), to: Version(b)) { try fold.apply(event) }
      #expect(Canonical(fold.snapshot()) == live[b], "v\(a) → v\(b)")
      // And back with `revert`, event by event in reverse order.
      for event in try store.events(from: Version(a), to: Version(b)).reversed() { try fold.revert(event) }
      #expect(Canonical(fold.snapshot()) == live[a], "v\(b) ← v\(a)")
    }
  }

  @Test(arguments: [31, 32, 33] as [UInt64])
  func damagedEventsAreRefusedExactlyWhenTheModelRefusesThem(seed: UInt64) throws {
    let (store, _) = try randomHistory(seed: seed, steps: SeededRandom.propertySteps(default: 300))
    var random = SeededRandom(seed: seed &+ 1000)
    var refused = 0
    var accepted = 0
    for version in 1...store.latestVersion.rawValue {
      var snapshot = try store.state(at: store.info(for: Version(version))!.parent!)
      var fold = Fold(snapshot)
      for event in try store.events(of: Version(version)) {
        for damaged in damage(event, in: snapshot, using: &random) {
          let before = Canonical(fold.snapshot())
          var modelCopy = snapshot
          var modelError: HistoryError? = nil
          do { try damaged.apply(to: &modelCopy) } catch { modelError = error }
          var foldCopy = fold
          var foldError: HistoryError? = nil
          do { try foldCopy.apply(damaged) } catch { foldError = error }
          #expect((modelError == nil) == (foldError == nil), "\(damaged): model \(String(describing: modelError)), fold \(String(describing: foldError))")
          if foldError != nil {
            refused += 1
            #expect(Canonical(foldCopy.snapshot()) == before, "a refused \(damaged) changed the fold")
          } else if modelError == nil {
            accepted += 1
            #expect(Canonical(foldCopy.snapshot()) == Canonical(modelCopy), "\(damaged)")
          }
        }
        try event.apply(to: &snapshot)
        try fold.apply(event)
      }
    }
    #expect(refused > 100)
    #expect(accepted > 10)
  }

  @Test func aSmallFoldReadsAsExpected() throws {
    var fold = ListFold<String, String>()
    try fold.apply(.insertSection("Fruit", items: ListOutline(items: ["Apple", "Pear"]), at: 0))
    try fold.apply(.moveItem("Pear", from: .init(.section("Fruit"), index: 1), to: .init(.section("Fruit"), index: 0)))
    try fold.apply(.insertItems(ListOutline(items: ["Granny Smith"]), at: .init(.parent("Apple"), index: 0)))
    try fold.apply(.expand("Apple", wasExpanded: false))
    let snapshot = fold.snapshot()
    #expect(snapshot.itemIdentifiers == ["Pear", "Apple", "Granny Smith"])
    #expect(snapshot.isExpanded("Apple"))
    #expect(fold.numberOfItems == 3 && fold.numberOfSections == 1)
    // Events an untrusted journal may carry: refused or harmless, never a crash.
    var model = snapshot
    for odd: ListEvent<String, String> in [
      .deleteItems(ListOutline(), from: .init(.parent("nowhere"), index: 7)),
      .insertItems(ListOutline(), at: .init(.section("Fruit"), index: 3)),
      .moveItem("Pear", from: .init(.section("Fruit"), index: -1), to: .init(.section("Fruit"), index: 0)),
      .moveItem("Pear", from: .init(.section("Fruit"), index: 0), to: .init(.section("Fruit"), index: 9)),
      .reloadItems([]),
    ] {
      var modelCopy = model
      let modelRefused = (try? odd.apply(to: &modelCopy)) == nil
      var foldCopy = fold
      let foldRefused = (try? foldCopy.apply(odd)) == nil
      #expect(modelRefused == foldRefused, "\(odd)")
      if !foldRefused { #expect(foldCopy.snapshot() == modelCopy) }
    }
    model = fold.snapshot()
    #expect(model == snapshot)
    #expect(throws: HistoryError.inconsistentEvent(reason: "moveItem: item Apple cannot move under itself or its descendant Granny Smith")) {
      try fold.apply(.moveItem("Apple", from: .init(.section("Fruit"), index: 1), to: .init(.parent("Granny Smith"), index: 0)))
    }
  }

  @Test func longSiblingSequencesSplitAndShrinkTheirBlocks() throws {
    // Thousands of roots in one section, edited at random positions: the block list splits
    // and drops blocks; the result is checked against the model (and invariants run in debug).
    var both = FoldAndModel<String, Int>()
    func apply(_ event: ListEvent<String, Int>) throws { try both.apply(event) }
    try apply(.insertSection("S", items: ListOutline(), at: 0))
    var random = SeededRandom(seed: 5)
    var next = 0
    let location = { (index: Int) in ListItemLocation<String, Int>(.section("S"), index: index) }
    for _ in 0..<2_400 {
      let count = both.model.numberOfItems
      if count < 50 || Int.random(in: 0..<3, using: &random) > 0 {
        try apply(.insertItems(ListOutline(items: [next]), at: location(Int.random(in: 0...count, using: &random))))
        next += 1
      } else {
        let from = Int.random(in: 0..<count, using: &random)
        let id = both.model.rootItems(inSection: "S")[from]
        if Bool.random(using: &random) {
          try apply(.deleteItems(ListOutline(items: [id]), from: location(from)))
        } else {
          try apply(.moveItem(id, from: location(from), to: location(Int.random(in: 0..<count, using: &random))))
        }
      }
    }
    #expect(both.model.numberOfItems > 2 * 256)  // more than one block
    #expect(both.fold.snapshot() == both.model)
  }

  @Test func childrenOfDeletedItemsLeaveNothingBehind() throws {
    // Items gain children (inserted under them or moved there), lose them (moved away,
    // deleted) and are deleted with their subtrees, over and over: what deleted parents held
    // is reused by later parents, and every state matches the model (invariants run in debug).
    var both = FoldAndModel<String, Int>(checksEachStep: true)
    func apply(_ event: ListEvent<String, Int>) throws { try both.apply(event) }
    let root = { (index: Int) in ListItemLocation<String, Int>(.section("S"), index: index) }
    let under = { (parent: Int, index: Int) in ListItemLocation<String, Int>(.parent(parent), index: index) }
    try apply(.insertSection("S", items: ListOutline(items: [0, 1]), at: 0))
    for round in 0..<4 {
      let parent = 10 * round + 100
      // A parent arriving with a subtree, then a child inserted under a former leaf (its first).
      let subtree = ListOutline<Int>.Node(parent, isExpanded: true, children: [.init(parent + 1, children: [.init(parent + 2)])])
      try apply(.insertItems(ListOutline([subtree]), at: root(2)))
      try apply(.insertItems(ListOutline(items: [parent + 3]), at: under(1, 0)))
      // The grandchild moves to the top level, the child moves under item 1, then back.
      try apply(.moveItem(parent + 2, from: under(parent + 1, 0), to: root(0)))
      try apply(.moveItem(parent + 1, from: under(parent, 0), to: under(1, 1)))
      try apply(.moveItem(parent + 1, from: under(1, 1), to: under(parent, 0)))
      // Deleted with its subtree; then item 1's child and the moved grandchild go too.
      try apply(.deleteItems(ListOutline([both.model.outline(of: parent, includingParent: true)!.roots[0]]), from: root(3)))
      try apply(.deleteItems(ListOutline(items: [parent + 3]), from: under(1, 0)))
      try apply(.deleteItems(ListOutline(items: [parent + 2]), from: root(0)))
    }
    #expect(both.model.itemIdentifiers == [0, 1])
    #expect(both.fold.numberOfItems == 2)
  }

  /// Variants of `event` that may no longer fit `snapshot`: shifted positions, unknown or
  /// existing identifiers, other old contents or expansion, a move under the item itself.
  func damage(_ event: Event, in snapshot: ListSnapshot<String, TestRow>, using random: inout SeededRandom) -> [Event] {
    let items = snapshot.itemIdentifiers
    let someItem = items.isEmpty ? 1 : items[Int.random(in: 0..<items.count, using: &random)]
    func shifted(_ location: Event.Location, by delta: Int) -> Event.Location {
      var copy = location
      copy.index += delta
      return copy
    }
    switch event {
    case .moveItem(let id, let from, let to):
      return [
        .moveItem(id, from: shifted(from, by: 1), to: to),
        .moveItem(id, from: from, to: shifted(to, by: 3)),
        .moveItem(id, from: from, to: .init(.parent(id), index: 0)),
        .moveItem(id, from: from, to: .init(.parent(someItem), index: 0)),
        .moveItem(someItem, from: from, to: to),
        .moveItem(id, from: from, to: .init(.section("nowhere"), index: 0)),
      ]
    case .deleteItems(let outline, let location):
      var changed = outline
      changed.roots[0].item.title += "!"
      var flipped = outline
      flipped.roots[0].isExpanded.toggle()
      return [.deleteItems(outline, from: shifted(location, by: 1)), .deleteItems(changed, from: location), .deleteItems(flipped, from: location)]
    case .insertItems(let outline, let location):
      var existing = outline
      existing.roots[0].item.id = someItem
      return [
        .insertItems(outline, at: shifted(location, by: 1)), .insertItems(outline, at: shifted(location, by: -1_000)),
        .insertItems(existing, at: location), .insertItems(outline, at: .init(.parent(-9), index: 0)),
      ]
    case .updateItem(let old, let new):
      return [.updateItem(old: TestRow(old.id, old.title + "?"), new: new), .updateItem(old: old, new: TestRow(someItem, new.title))]
    case .replaceItem(let old, let new):
      return [.replaceItem(old: TestRow(old.id, old.title + "?"), new: new), .replaceItem(old: old, new: TestRow(someItem, "x"))]
    case .expand(let id, let was):
      return [.expand(id, wasExpanded: !was), .expand(-5, wasExpanded: was)]
    case .collapse(let id, let was):
      return [.collapse(id, wasExpanded: !was), .collapse(someItem, wasExpanded: was)]
    case .insertSection(let section, let items, let index):
      return [.insertSection(section, items: items, at: index + 100), .insertSection(snapshot.sectionIdentifiers.first ?? "x", items: items, at: 0)]
    case .deleteSection(let section, let items, let index):
      return [.deleteSection(section, items: items, at: index + 1), .deleteSection(section + "?", items: items, at: index)]
    case .moveSection(let id, let from, let to):
      return [.moveSection(id, from: from + 1, to: to), .moveSection(id, from: from, to: to + 50)]
    case .updateSection(let old, let new):
      return [.updateSection(old: old + "?", new: new)]
    case .replaceSection(let old, let new):
      return [.replaceSection(old: old + "?", new: new), .replaceSection(old: old, new: snapshot.sectionIdentifiers.first ?? old)]
    case .reloadItems(let ids):
      return [.reloadItems(ids + [-4])]
    case .reconfigureItems(let ids):
      return [.reconfigureItems([-4] + ids)]
    case .reloadSections(let ids):
      return [.reloadSections(ids + ["nowhere"])]
    }
  }
}
