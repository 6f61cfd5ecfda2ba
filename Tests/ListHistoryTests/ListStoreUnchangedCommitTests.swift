import ListHistory
import ListState
import Testing

/// `Transaction.commitsWhenUnchanged`: a transaction whose operations changed nothing creates a
/// version only when asked to (the CLI's one version per command).
@Suite struct ListStoreUnchangedCommitTests {
  @Test func aTransactionThatChangesNothingCreatesAVersionOnlyWhenAsked() throws {
    let sink = RecordingSink()
    let store = ListStore<String, String>(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["A"])
    try store.appendItems(["x", "y"])  // v2
    // By default a move to where the item already is records nothing: no version.
    try store.transaction(label: "Move Item") { tx in try tx.moveItem("y", afterItem: "x") }
    #expect(store.head == 2)
    #expect(sink.records.count == 2)

    try store.transaction(label: "Move Item") { tx in
      tx.commitsWhenUnchanged = true
      try tx.moveItem("y", afterItem: "x")
    }
    #expect(store.head == 3)
    #expect(store.info(for: 3) == VersionInfo(version: 3, parent: 2, timestamp: store.info(for: 3)!.timestamp, label: "Move Item", operationCount: 0))
    #expect(try store.events(of: 3).isEmpty)
    #expect(store.snapshot.itemIdentifiers == ["x", "y"])
    #expect(sink.records.count == 3)

    // It is a version like any other: undo, redo, and a replay restores it.
    let undo = try store.undo()
    #expect(undo.head == 2 && undo.reverted == [3])
    #expect(store.snapshot.itemIdentifiers == ["x", "y"])
    try store.redo()
    let reopened = try ListStore<String, String>(replaying: sink.records, codec: HistoryCodec())
    #expect(reopened.head == 3)
    #expect(reopened.info(for: 3)?.operationCount == 0)
    #expect(reopened.info(for: 3)?.label == "Move Item")
    #expect(reopened.snapshot == store.snapshot)

    // A failing body still creates nothing.
    #expect(throws: (any Error).self) {
      try store.transaction { tx in
        tx.commitsWhenUnchanged = true
        try tx.moveItem("nope", afterItem: "x")
      }
    }
    #expect(store.head == 3)
  }
}
