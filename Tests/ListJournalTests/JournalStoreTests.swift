import ListJournal
import TestSupport
import Testing

@Suite struct JournalStoreTests {
  @Test func createAppendReopen() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let clock = TickingClock()
    do {
      let journal = try TextJournal.open(at: path, durability: .strict, clock: clock.closure)
      try journal.store.appendSections([TestSection("Fruit")])
      try journal.store.appendItems([TestItem("Apple"), TestItem("Pear")])
      try journal.store.moveItem("Pear", beforeItem: "Apple")
      try journal.store.undo()
      #expect(journal.durableVersion == 3)
      try journal.close()
    }
    let reopened = try TextJournal.open(at: path, durability: .strict)
    #expect(reopened.store.head == 2)
    #expect(reopened.store.latestVersion == 3)
    #expect(reopened.store.snapshot.itemIdentifiers == ["Apple", "Pear"])
    #expect(reopened.store.redoTarget == 3)
    try reopened.close()

    let history = try JournalHistory.open(at: path)
    #expect(history.versions.count == 4)
    #expect(history.head == 2)
    #expect(history.info.commitCount == 3)
    #expect(history.info.headMoveCount == 1)
  }
}
