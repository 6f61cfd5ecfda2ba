import ListHistory
import ListState
import ListLocking
import Testing

/// The examples of `Sources/ListJournal/ListJournal.docc/History.md`, run as written, with the
/// results the article states. If one of these fails, fix the article too.
@Suite("History article examples")
struct HistoryDocumentationExampleTests {
  struct Row: ListElement, Codable, Hashable {
    let id: String
    var title: String
  }

  /// The article's sink: keeps every record in memory. (The article's `Mutex` needs iOS 18 /
  /// macOS 15, above the package's floor, so the tests use `ListMutex`, which has its API.)
  final class MemorySink: HistoryRecordSink {
    let records = ListMutex<[HistoryRecord]>([])
    func write(_ record: HistoryRecord) throws { records.withLock { $0.append(record) } }
  }

  /// "Transactions": versions 1 and 2.
  func groceries() throws -> ListStore<String, Row> {
    let store = ListStore<String, Row>()
    try store.appendSections(["Inbox"])  // v1
    try store.transaction(label: "Add Groceries") { tx in  // v2
      try tx.appendItems([Row(id: "groceries", title: "Groceries")])
      try tx.appendItems([Row(id: "milk", title: "Milk")], underParent: "groceries")
      try tx.expand(["groceries"])
    }
    return store
  }

  @Test func transactionsAndVersions() throws {
    let store = try groceries()
    #expect(store.head == 2)
    #expect("\(store.head)" == "v2")
    #expect(store.info(for: 2)?.label == "Add Groceries")
    #expect(store.info(for: 2)?.operationCount == 3)
    #expect(store.info(for: 2)?.parent == 1)
    #expect(store.snapshot.visibleItems == ["groceries", "milk"])

    let count = try store.transaction(label: "Add Two") { tx -> Int in
      try tx.appendItems([Row(id: "taxes", title: "Taxes"), Row(id: "gym", title: "Gym")])
      tx.label = "Add Taxes and Gym"
      return tx.snapshot.numberOfItems
    }
    #expect(count == 4)
    #expect(store.info(for: 3)?.label == "Add Taxes and Gym")

    // A transaction that records nothing creates no version.
    try store.transaction { _ in }
    #expect(store.latestVersion == 3)

    // One no-op rule: expanding an expanded item creates no version.
    try store.expand(["groceries"])
    #expect(store.head == 3)

    // Undo-menu labels.
    try store.moveItem("milk", beforeItem: "groceries")
    #expect(store.info(for: store.head)?.label == "Move Item")
    try store.transaction { tx in
      try tx.deleteItems(["milk"])
      try tx.deleteItems(["taxes", "gym"])
    }
    #expect(store.info(for: store.head)?.label == "Delete 3 Items")
    try store.collapse(["groceries"], label: "Hide Groceries")
    #expect(store.info(for: store.head)?.label == "Hide Groceries")
  }

  @Test func allOrNothing() throws {
    let store = try groceries()
    var message = ""
    do {
      try store.transaction { tx in
        try tx.appendItems([Row(id: "eggs", title: "Eggs")], underParent: "groceries")
        try tx.moveItem("eggs", beforeItem: "bread")  // no "bread": throws
      }
    } catch {
      message = "\(error)"
    }
    #expect(message == "unknown items: 'bread'")
    #expect(!store.snapshot.contains(item: "eggs"))
    #expect(store.latestVersion == 2)
  }

  @Test func optimisticConcurrency() throws {
    let store = try groceries()
    let seen = store.head  // v2, when the edit began
    try store.appendItems([Row(id: "taxes", title: "Taxes")])  // meanwhile: v3
    #expect(throws: HistoryError.versionConflict(expected: 2, actual: 3)) {
      try store.transaction(label: "Rename", expecting: seen) { tx in
        try tx.updateItem(Row(id: "milk", title: "Oat milk"))
      }
    }
    #expect(store.snapshot.item("milk")?.title == "Milk")
  }

  @Test func events() throws {
    let store = try groceries()
    let events = try store.events(of: 2)
    #expect(events.map(\.kindName) == ["insertItems", "insertItems", "expand"])
    #expect(
      events[1] == .insertItems(ListOutline(items: [Row(id: "milk", title: "Milk")]), at: ListItemLocation(.parent("groceries"), index: 0)))
    #expect(events[2] == .expand("groceries", wasExpanded: false))
    #expect(events[2].inverse == .collapse("groceries", wasExpanded: true))

    var replayed = ListSnapshot<String, Row>()
    for version in 1...2 {
      for event in try store.events(of: Version(version)) { try event.apply(to: &replayed) }
    }
    #expect(replayed == store.snapshot)

    var fold = ListFold<String, Row>()
    for version in 1...2 {
      for event in try store.events(of: Version(version)) { try fold.apply(event) }
    }
    #expect(fold.snapshot() == store.snapshot)

    // Verification refuses an event that does not fit the state.
    var empty = ListSnapshot<String, Row>()
    #expect(throws: HistoryError.self) { try events[2].apply(to: &empty) }
  }

  @Test func undoTree() throws {
    let store = try groceries()
    try store.appendItems([Row(id: "taxes", title: "Taxes")])  // v3
    try store.moveItem("taxes", beforeItem: "groceries")  // v4

    let undo = try store.undo()
    #expect(undo.kind == .undo && undo.previousHead == 4 && undo.head == 3)
    #expect(undo.reverted == [4])
    #expect(store.snapshot.rootItems(inSection: "Inbox") == ["groceries", "taxes"])
    #expect(store.redoTarget == 4)

    let redo = try store.redo()
    #expect(redo.applied == [4])
    try store.undo()

    try store.deleteItems(["taxes"])  // v5: a new branch off v3; v4 stays
    #expect(store.children(of: 3) == [4, 5])
    #expect(store.redoTarget == nil)
    try store.undo()  // back to v3
    #expect(store.redoTarget == 5)  // the child most recently visited
    try store.checkout(4)  // jump to the other branch
    #expect(store.snapshot.rootItems(inSection: "Inbox") == ["taxes", "groceries"])
    try store.undo()
    #expect(store.redoTarget == 4)

    try store.checkout(0)
    #expect(!store.canUndo)
    #expect(throws: HistoryError.nothingToUndo(at: 0)) { try store.undo() }
    try store.checkout(5)
    #expect(throws: HistoryError.nothingToRedo(at: 5)) { try store.redo() }
    #expect(throws: HistoryError.unknownVersion(42)) { try store.checkout(42) }
  }

  @Test func timeTravel() throws {
    let store = try groceries()
    try store.appendItems([Row(id: "taxes", title: "Taxes")])  // v3
    try store.moveItem("taxes", beforeItem: "groceries")  // v4
    try store.undo()
    try store.deleteItems(["taxes"])  // v5, sibling of v4

    #expect(try store.state(at: 1).numberOfItems == 0)
    #expect(try store.state(at: 4).rootItems(inSection: "Inbox") == ["taxes", "groceries"])
    #expect(store.head == 5)  // time travel does not move the head

    let path = try store.events(from: 4, to: 5)  // undo v4's move, then v5's delete
    #expect(path.map(\.kindName) == ["moveItem", "deleteItems"])
    var state = try store.state(at: 4)
    for event in path { try event.apply(to: &state) }
    #expect(state == store.snapshot)
  }

  /// "Checkpoints and memory".
  @Test func checkpointBudgets() throws {
    let store = ListStore<String, Row>()  // 4,096+ events, 256 MiB
    let phone = ListStore<String, Row>(checkpointBudget: .bytes(32 << 20))  // at most ~32 MB of checkpoints
    let fixed = ListStore<String, Row>(checkpointInterval: 16_384, checkpointBudget: .unbounded)
    #expect(store.checkpointInterval == 4_096 && fixed.checkpointInterval == 16_384)
    #expect(phone.checkpointInterval == 4096)  // until the budget is reached, then 8192, 16384, …
    #expect(CheckpointBudget.default == .bytes(256 << 20) && CheckpointBudget.estimatedBytesPerItem == 128)

    var configuration = ListStore<String, Row>.Configuration()
    configuration.checkpointBudget = .bytes(32 << 20)
    configuration.clock = { 1_700_000_000 }  // reproducible timestamps
    let configured = ListStore<String, Row>(configuration: configuration)
    try configured.appendSections(["Inbox"])
    #expect(configured.info(for: 1)?.timestamp == 1_700_000_000)
    #expect(configured.checkpointInterval == ListStoreConfiguration.defaultCheckpointInterval)

    // The doubling itself, on a small scale: checkpoints after every version, room for a few.
    let small = ListStore<String, Row>(checkpointInterval: 1, checkpointBudget: .bytes(16 << 10))
    try small.appendSections(["Inbox"])
    for n in 1...200 { try small.appendItems([Row(id: "\(n)", title: "Item \(n)")]) }
    #expect(small.checkpointInterval > 1)
    #expect(try small.state(at: 100).numberOfItems == 99)
  }

  @Test func observing() throws {
    let store = try groceries()
    let seen = ListMutex<[String]>([])
    let token = store.observe { change in
      seen.withLock { $0.append("\(change.kind) \(change.previousHead)→\(change.head)") }
    }
    try store.appendItems([Row(id: "taxes", title: "Taxes")])
    try store.undo()
    try store.redo()
    try store.checkout(1)
    #expect(seen.withLock { $0 } == ["commit v2→v3", "undo v3→v2", "redo v2→v3", "checkout v3→v1"])

    let last = ListMutex<ListChange<String, Row>?>(nil)
    let second = store.observe { change in last.withLock { $0 = change } }
    try store.checkout(3)
    let change = try #require(last.withLock { $0 })
    #expect(change.transaction.initialSnapshot.numberOfItems == 0)
    #expect(change.transaction.finalSnapshot.itemIdentifiers == ["groceries", "milk", "taxes"])
    #expect(change.transaction.sectionTransactions[0].finalItems == ["groceries", "milk", "taxes"])
    #expect(change.applied == [2, 3])

    token.cancel()
    second.cancel()
    try store.undo()
    #expect(seen.withLock { $0.count } == 5)
  }

  @Test func observingAsAnAsyncSequence() async throws {
    let store = try groceries()
    let changes = store.changes  // observation starts here
    try store.appendItems([Row(id: "taxes", title: "Taxes")])
    try store.undo()
    var kinds: [ListChange<String, Row>.Kind] = []
    for await change in changes {
      kinds.append(change.kind)
      if kinds.count == 2 { break }
    }
    #expect(kinds == [.commit, .undo])
  }

  @Test func codecAndReplay() throws {
    let sink = MemorySink()
    let store = ListStore<String, Row>(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["Inbox"])
    try store.appendItems([Row(id: "milk", title: "Milk")])
    try store.undo()
    let records = sink.records.withLock { $0 }
    #expect(records.map(\.kind) == [.commit, .commit, .headMove])

    let reopened = try ListStore<String, Row>(replaying: records, codec: HistoryCodec())
    #expect(reopened.head == store.head)
    #expect(reopened.redoTarget == 2)
    #expect(try reopened.state(at: 2) == (try store.state(at: 2)))

    // Any app's records, without its types.
    let generic = try ListStore<JournalValueElement, JournalValueElement>(replaying: records, codec: .generic())
    let milk = try #require(try generic.state(at: 2).item(.string("milk")))
    #expect(milk.content["title"] == .string("Milk"))
    #expect(try milk.content.decode(as: Row.self) == Row(id: "milk", title: "Milk"))
  }

  @Test func journalValues() throws {
    let value = try JournalValue(encoding: Row(id: "milk", title: "Milk"))
    #expect(value == .object([.init("id", .string("milk")), .init("title", .string("Milk"))]))
    #expect(value.jsonText == #"{"id":"milk","title":"Milk"}"#)
    #expect(value["title"] == .string("Milk"))
    #expect(try value.decode(as: Row.self) == Row(id: "milk", title: "Milk"))
  }
}
