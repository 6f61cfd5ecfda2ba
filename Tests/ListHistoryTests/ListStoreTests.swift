import ListHistory
import ListState
import Testing

@Suite struct ListStoreTests {
  @Test func versionsUndoRedoAndBranches() throws {
    let store = ListStore<String, String>()
    #expect(store.head == 0)
    try store.appendSections(["A"])  // v1
    try store.transaction(label: "Add") { tx in
      try tx.appendItems(["x", "y", "z"])
    }  // v2
    try store.moveItem("z", beforeItem: "x")  // v3
    #expect(store.snapshot.itemIdentifiers == ["z", "x", "y"])
    #expect(store.info(for: 2)?.label == "Add")
    #expect(store.info(for: 2)?.operationCount == 1)
    #expect(store.info(for: 3)?.parent == 2)

    let undo = try store.undo()
    #expect(undo.reverted == [3] && undo.head == 2 && undo.kind == .undo)
    let move = ListEvent<String, String>.moveItem(
      "z", from: ListItemLocation(.section("A"), index: 2), to: ListItemLocation(.section("A"), index: 0))
    #expect(undo.events == [move.inverse])
    #expect(store.snapshot.itemIdentifiers == ["x", "y", "z"])
    #expect(store.redoTarget == 3)

    // A new commit after undo starts a branch; the old one stays reachable.
    try store.deleteItems(["y"])  // v4, child of v2
    #expect(store.children(of: 2) == [3, 4])
    #expect(store.redoTarget == nil)
    #expect(throws: HistoryError.nothingToRedo(at: 4)) { try store.redo() }
    try store.undo()
    #expect(store.redoTarget == 4)  // most recently visited child
    try store.checkout(3)
    try store.undo()
    #expect(store.redoTarget == 3)
    let redo = try store.redo()
    #expect(redo.applied == [3])
    #expect(store.snapshot.itemIdentifiers == ["z", "x", "y"])
    #expect(try store.state(at: 4).itemIdentifiers == ["x", "z"])
    #expect(store.head == 3)  // time travel did not move the head

    try store.checkout(0)
    #expect(throws: HistoryError.nothingToUndo(at: 0)) { try store.undo() }
    #expect(throws: HistoryError.unknownVersion(99)) { try store.checkout(99) }
  }

  @Test func transactionsAreAllOrNothing() throws {
    let sink = RecordingSink()
    let store = ListStore<String, String>(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["A"])
    try store.appendItems(["a"])
    let before = Canonical(store.snapshot)
    #expect(throws: ListError<String, String>.itemsNotFound(["missing"])) {
      try store.transaction { tx in
        try tx.appendItems(["b", "c"])
        try tx.moveItem("missing", beforeItem: "a")
      }
    }
    #expect(Canonical(store.snapshot) == before)
    #expect(store.latestVersion == 2)
    #expect(sink.records.count == 2)

    // A transaction that records nothing creates no version.
    try store.transaction { _ in }
    #expect(store.latestVersion == 2)
  }

  @Test func failedTransactionRestoresTheHeadWithItsMarkers() throws {
    // Without observers a transaction works on the head's own storage; a failure after several
    // operations must still leave the head, its markers and later commits exactly as before.
    let store = ListStore<String, String>()
    try store.appendSections(["A", "B"])
    try store.appendItems(["a", "b", "c"], toSection: "A")
    try store.appendItems(["x"], underParent: "a")
    try store.transaction { tx in
      try tx.expand(["a"])
      try tx.reloadItems(["b"])
      try tx.reconfigureItems(["c"])
    }
    let before = Canonical(store.snapshot)
    let markers = (store.snapshot.reloadedItemIdentifiers, store.snapshot.reconfiguredItemIdentifiers)
    #expect(markers == (["b"], ["c"]))
    #expect(throws: ListError<String, String>.itemsNotFound(["missing"])) {
      try store.transaction { tx in
        try tx.moveItem("c", beforeItem: "a")
        try tx.deleteItems(["a"])
        try tx.appendItems(["d"], toSection: "B")
        try tx.reloadItems(["d"])
        try tx.collapse(["missing"])
      }
    }
    #expect(Canonical(store.snapshot) == before)
    #expect(store.snapshot.reloadedItemIdentifiers == markers.0)
    #expect(store.snapshot.reconfiguredItemIdentifiers == markers.1)
    // A transaction that changes nothing keeps the head too.
    try store.transaction { tx in try tx.moveItem("b", afterItem: "a") }
    #expect(Canonical(store.snapshot) == before && store.snapshot.reloadedItemIdentifiers == markers.0)
    try store.moveItem("c", beforeItem: "a")
    #expect(store.snapshot.itemIdentifiers(inSection: "A") == ["c", "a", "x", "b"])
    try store.undo()
    #expect(Canonical(store.snapshot) == before)
  }

  @Test func optimisticConcurrency() throws {
    let store = ListStore<String, String>()
    try store.appendSections(["A"])
    let seen = store.head
    try store.appendItems(["a"])
    #expect(throws: HistoryError.versionConflict(expected: seen, actual: 2)) {
      try store.transaction(expecting: seen) { try $0.appendItems(["b"]) }
    }
    try store.transaction(expecting: 2) { try $0.appendItems(["b"]) }
    #expect(store.snapshot.itemIdentifiers == ["a", "b"])
  }

  @Test func sinkFailureLeavesStoreAndStreamIntact() throws {
    let sink = RecordingSink()
    let store = ListStore<String, TestRow>(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["A"])
    try store.appendItems([TestRow(1, "one")])
    sink.failNext()
    #expect(throws: RecordingSink.Failure.self) { try store.appendItems([TestRow(2, "two")]) }
    #expect(store.latestVersion == 2 && store.snapshot.itemIdentifiers == [1])
    sink.failNext()
    #expect(throws: RecordingSink.Failure.self) { try store.undo() }
    #expect(store.head == 2)
    // The codec forgot the identifiers of the dropped record: the stream still decodes.
    try store.appendItems([TestRow(2, "two"), TestRow(3, "three")])
    try store.undo()
    let replayed = try ListStore<String, TestRow>(replaying: sink.records, codec: HistoryCodec())
    #expect(replayed.head == store.head)
    #expect(Canonical(try replayed.state(at: 3)) == Canonical(try store.state(at: 3)))
  }

  @Test func observersAndAsyncChanges() async throws {
    let store = ListStore<String, String>()
    let log = ListMutex<[String]>([])
    let token = store.observe { change in
      log.withLock { $0.append("\(change.kind) \(change.previousHead)->\(change.head)") }
    }
    let stream = store.changes
    try store.appendSections(["A"])
    try store.appendItems(["a", "b"])
    try store.undo()
    try store.redo()
    try store.checkout(0)
    #expect(
      log.withLock { $0 } == ["commit v0->v1", "commit v1->v2", "undo v2->v1", "redo v1->v2", "checkout v2->v0"])
    var iterator = stream.makeAsyncIterator()
    var kinds: [ListChange<String, String>.Kind] = []
    for _ in 0..<5 { if let change = await iterator.next() { kinds.append(change.kind) } }
    #expect(kinds == [.commit, .commit, .undo, .redo, .checkout])
    token.cancel()
    try store.redo()
    #expect(log.withLock { $0.count } == 5)
  }

  @Test func derivedDifferencesMatchComputedOnes() throws {
    let store = ListStore<String, TestRow>()
    try store.appendSections(["A", "B"])
    try store.appendItems((1...6).map { TestRow($0) }, toSection: "A")
    try store.appendItems([TestRow(7)], toSection: "B")
    let changes = ListMutex<[ListChange<String, TestRow>]>([])
    let token = store.observe { change in changes.withLock { $0.append(change) } }
    try store.moveItem(2, afterItem: 5)
    try store.deleteItems([4])
    try store.insertItems([TestRow(8)], beforeItem: 7)
    try store.updateItem(TestRow(1, "new"))
    try store.undo()
    try store.undo()
    for change in changes.withLock({ $0 }) {
      let transaction = change.transaction
      let derived = transaction.difference
      #expect(
        transaction.initialSnapshot.itemIdentifiers.applying(derived) == transaction.finalSnapshot.itemIdentifiers)
    }
    _ = token
  }

  @Test func concurrentCommitsAreSerialized() async throws {
    let store = ListStore<String, Int>()
    try store.appendSections(["A"])
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<4 {
        group.addTask {
          for index in 0..<50 { try? store.appendItems([worker * 1000 + index]) }
        }
      }
    }
    #expect(store.snapshot.numberOfItems == 200)
    #expect(store.latestVersion == 201)
  }
}

import ListLocking
