import Foundation
import ListHistory
import ListJournal
import ListPresenter
import ListState
import TestSupport
import Testing

/// The undo bridge's stacks against the store's history, through random commits, undo and redo
/// from the manager (the Edit menu) and from the store, checkouts, changes from other threads,
/// and a journal reopened.
@Suite("The system's undo follows the store's history")
@MainActor
struct ListUndoBridgeTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Bridge = ListUndoBridge<TestSection, TestItem>

  static func settle(_ store: Store, _ bridge: Bridge) async {
    var turns = 0
    while !bridge.isInStepWithStore, turns < 10_000 {
      await Task.yield()
      turns += 1
    }
    for _ in 0..<5 { await Task.yield() }
  }

  /// The head's ancestors, oldest first (version 0 has no undo).
  static func undoPath(_ store: Store) -> [Version] {
    var path: [Version] = []
    var version = store.head
    while let parent = store.info(for: version)?.parent {
      path.append(version)
      version = parent
    }
    return path.reversed()
  }

  /// The manager's stacks are exactly the store's history: every undo group undoes the next
  /// ancestor, every redo group redoes the next version of the redo path, named by its label.
  static func check(_ bridge: Bridge, _ manager: SimulatedUndoManager, _ store: Store, _ context: String) -> Bool {
    var ok = true
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition {
        Issue.record("\(context): \(message())")
        ok = false
      }
    }
    let undo = undoPath(store)
    let redo = store.redoPath()
    expect(manager.failures.isEmpty, "\(manager.failures)")
    expect(bridge.undoVersions == Array(undo.suffix(bridge.undoVersions.count)), "undo \(bridge.undoVersions) vs \(undo)")
    // A manager that keeps only `levelsOfUndo` groups forgets the oldest (and an undo does not
    // bring them back); without a limit every ancestor is on the stack.
    if manager.levelsOfUndo > 0 {
      expect(bridge.undoVersions.count <= manager.levelsOfUndo, "undo depth beyond the manager's levels")
    } else {
      expect(bridge.undoVersions.count == undo.count, "undo depth \(bridge.undoVersions.count) vs \(undo.count)")
    }
    // With a limited manager a rebuild registers only as many redo groups as it keeps.
    let redoShown = Array(bridge.redoVersions.reversed())
    expect(redoShown == (manager.levelsOfUndo > 0 ? Array(redo.prefix(redoShown.count)) : redo), "redo \(redoShown) vs \(redo)")
    expect(manager.undoStack.count == bridge.undoVersions.count, "manager undo stack \(manager.undoStack.count)")
    expect(manager.redoStack.count == bridge.redoVersions.count, "manager redo stack \(manager.redoStack.count)")
    expect(manager.undoStack.map(\.name) == bridge.undoVersions.map { store.info(for: $0)?.label ?? "" }, "undo names")
    expect(manager.redoStack.map(\.name) == bridge.redoVersions.map { store.info(for: $0)?.label ?? "" }, "redo names")
    expect(manager.canUndo == !bridge.undoVersions.isEmpty && manager.canRedo == !redo.isEmpty, "can undo/redo")
    return ok
  }

  static let labels = ["Add", "Move", "Rename", "Delete", "Sort"]

  static func commit(_ store: Store, _ rng: inout SeededRandom, _ counter: inout Int) throws {
    counter += 1
    let label = rng.chance(0.1) ? nil : labels.randomElement(using: &rng)!
    let id = "i\(counter)"
    try store.transaction(label: label) { transaction in
      if transaction.snapshot.numberOfSections == 0 { try transaction.appendSections([TestSection("S")]) }
      try transaction.appendItems([TestItem(id)])
    }
  }

  @Test(arguments: 0..<3)
  func randomUndoRedoCommitSequencesKeepTheStacksInStep(seedOffset: Int) async throws {
    let seed = 0x0_0D0_0000 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    let store = Store()
    let manager = SimulatedUndoManager()
    manager.groupsByEvent = seedOffset != 1
    manager.levelsOfUndo = seedOffset == 2 ? 7 : 0
    var counter = 0
    for _ in 0..<4 { try Self.commit(store, &rng, &counter) }
    let bridge = Bridge(store: store, manager: manager)
    #expect(Self.check(bridge, manager, store, "seed \(seed) at start"))
    for step in 0..<SeededRandom.propertySteps(default: 400) {
      let roll = Int.random(in: 0..<100, using: &rng)
      let head = store.head
      var kind = ""
      switch roll {
      case 0..<30:
        kind = "commit"
        try Self.commit(store, &rng, &counter)
      case 30..<50:
        kind = "Edit ▸ Undo"
        let expected = store.info(for: head)?.parent
        let couldUndo = manager.canUndo
        manager.undo()
        if couldUndo { #expect(store.head == expected, "\(seed) \(step): the manager's undo undoes the store's head") }
      case 50..<65:
        kind = "Edit ▸ Redo"
        let expected = store.redoTarget
        let couldRedo = manager.canRedo
        manager.redo()
        if couldRedo { #expect(store.head == expected, "\(seed) \(step): the manager's redo redoes the store's redo target") }
      case 65..<75:
        kind = "store undo"
        if store.canUndo { try store.undo() }
      case 75..<83:
        kind = "store redo"
        if store.redoTarget != nil { try store.redo() }
      case 83..<88:
        kind = "checkout"
        try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &rng)))
      case 88..<93:
        kind = "commit from another thread"
        counter += 1
        let id = "t\(counter)"
        await Task.detached {
          try? store.transaction(label: "Sync") { transaction in
            if transaction.snapshot.numberOfSections == 0 { try transaction.appendSections([TestSection("S")]) }
            try transaction.appendItems([TestItem(id)])
          }
        }.value
      default:
        kind = "undo then commit in one go"
        if store.canUndo { try store.undo() }
        try Self.commit(store, &rng, &counter)
      }
      await Self.settle(store, bridge)
      guard Self.check(bridge, manager, store, "seed \(seed) step \(step) (\(kind))") else { break }
    }
  }

  /// After a journal is reopened the manager gets the same stacks back: the undo stack from the
  /// head's ancestors, the redo stack from the redo memory the journal kept.
  @Test(arguments: 0..<3)
  func aReopenedJournalGivesTheSameStacks(seedOffset: Int) async throws {
    let directory = NSTemporaryDirectory() + "listpresenter-undo-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/list.journal"
    var rng = SeededRandom(seed: 0x0_0D0_1000 + UInt64(seedOffset))
    var counter = 0
    var before: (undo: [Version], redo: [Version], names: [String], redoNames: [String])
    do {
      let journal = try JournalStore<TestSection, TestItem>.open(at: path, configuration: .init(durability: .relaxed))
      let manager = SimulatedUndoManager()
      let bridge = Bridge(store: journal.store, manager: manager)
      for _ in 0..<SeededRandom.propertySteps(default: 60) {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5: try Self.commit(journal.store, &rng, &counter)
        case 5..<8: manager.undo()
        default: manager.redo()
        }
        await Self.settle(journal.store, bridge)
      }
      // End with something to redo.
      manager.undo()
      manager.undo()
      await Self.settle(journal.store, bridge)
      #expect(Self.check(bridge, manager, journal.store, "before closing"))
      before = (bridge.undoVersions, bridge.redoVersions, manager.undoStack.map(\.name), manager.redoStack.map(\.name))
      bridge.invalidate()
      #expect(manager.undoStack.isEmpty && manager.redoStack.isEmpty)
      try journal.close()
    }
    let journal = try JournalStore<TestSection, TestItem>.open(at: path, configuration: .init(durability: .relaxed))
    let manager = SimulatedUndoManager()
    let bridge = Bridge(store: journal.store, manager: manager)
    #expect(Self.check(bridge, manager, journal.store, "after reopening"))
    #expect(bridge.undoVersions == before.undo && bridge.redoVersions == before.redo)
    #expect(manager.undoStack.map(\.name) == before.names && manager.redoStack.map(\.name) == before.redoNames)
    #expect(!before.redo.isEmpty || before.undo.isEmpty)
    // Redo everything the journal remembered, through the manager.
    for version in before.redo.reversed() {
      manager.redo()
      #expect(journal.store.head == version)
    }
    #expect(!manager.canRedo && Self.check(bridge, manager, journal.store, "after redoing"))
    try journal.close()
  }

  @Test func labelsNameTheGroupsAndGroupingIsPerVersion() async throws {
    let store = Store()
    let manager = SimulatedUndoManager()
    manager.groupsByEvent = false
    let bridge = Bridge(store: store, manager: manager, labelForUnlabelled: "Change")
    try store.transaction(label: "Add Fruit") { transaction in
      try transaction.appendSections([TestSection("Fruit")])
      try transaction.appendItems([TestItem("Apple"), TestItem("Pear")])
    }
    // Operations of one kind label their version ("Move Item"); mixed ones leave it unlabelled.
    try store.transaction { transaction in
      try transaction.moveItem("Pear", beforeItem: "Apple")
      try transaction.updateItem(TestItem("Pear", content: "ripe"))
    }
    await Self.settle(store, bridge)
    #expect(manager.undoStack.map(\.name) == ["Add Fruit", "Change"])
    #expect(manager.undoStack.map(\.actions.count) == [1, 1], "one action per version, however many events")
    manager.undo()
    #expect(store.snapshot.itemIdentifiers == ["Apple", "Pear"] && manager.redoActionName == "Change")
    manager.undo()
    #expect(store.snapshot.numberOfSections == 0 && !manager.canUndo)
    manager.redo()
    #expect(store.snapshot.itemIdentifiers == ["Apple", "Pear"] && manager.undoActionName == "Add Fruit")
    #expect(bridge.isInStepWithStore && manager.failures.isEmpty)
  }

  /// An undo the store refuses (a failing journal) is reported, and the stacks are rebuilt to
  /// match the store, which did not move.
  @Test func aRefusedUndoIsReportedAndTheStacksFollowTheStore() async throws {
    let sink = FailingSink()
    let store = Store(codec: HistoryCodec(), sink: sink)
    try store.appendSections([TestSection("S")])
    try store.appendItems([TestItem("a")])
    let manager = SimulatedUndoManager()
    let bridge = Bridge(store: store, manager: manager)
    var errors: [any Error] = []
    bridge.onError = { errors.append($0) }
    sink.refuse(true)
    manager.undo()
    #expect(errors.count == 1 && errors.first is FailingSink.Refused)
    #expect(store.head == Version(2))
    await Self.settle(store, bridge)
    #expect(Self.check(bridge, manager, store, "after the refused undo"))
    sink.refuse(false)
    manager.undo()
    #expect(store.head == Version(1) && manager.redoActionName == "Append Item")  // the operation's own words
  }
}
