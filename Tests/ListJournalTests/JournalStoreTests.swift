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

  /// A format 1.0 journal keeps its encoding when a newer library appends to it (an older
  /// reader can still read it); a new journal is 1.1 with the compact encoding.
  @Test func appendingKeepsTheFileFormatMinor() throws {
    let directory = TemporaryDirectory()
    func edit(_ journal: TextJournal, _ round: Int) throws {
      try journal.store.appendItems((0..<4).map { TestItem("r\(round)-\($0)", content: "item \($0)") })
      try journal.store.updateItem(TestItem("r\(round)-1", content: "changed"))
      try journal.store.deleteItems(["r\(round)-2"])
    }
    var payloads: [UInt16: [[UInt8]]] = [:]
    for minor in [0, 1] as [UInt16] {
      let path = directory.file("\(minor).journal")
      let clock = TickingClock()
      var options = JournalOptions()
      options.formatMinor = minor
      options.fixedSalt = 7
      let journal = try TextJournal.open(at: path, durability: .relaxed, options: options, clock: clock.closure)
      try journal.store.appendSections([TestSection("S")])
      try edit(journal, 0)
      try journal.close()
      // Reopened with default options: the file's minor decides.
      let reopened = try TextJournal.open(at: path, durability: .relaxed, clock: clock.closure)
      try edit(reopened, 1)
      try reopened.close()
      let reader = try JournalReader.open(at: path)
      #expect(reader.formatMinor == minor)
      payloads[minor] = try reader.readAll().map(\.payload)
      let history = try JournalHistory<TestSection, TestItem>.open(at: path)
      #expect(history.snapshot.itemIdentifiers == ["r0-0", "r0-1", "r0-3", "r1-0", "r1-1", "r1-3"])
      #expect(history.snapshot.item("r1-1")?.content == "changed")
    }
    // Same records, the 1.0 ones in the original encoding throughout (larger), the 1.1 ones compact.
    let original = payloads[0]!, compact = payloads[1]!
    #expect(original.count == compact.count)
    #expect(original.reduce(0) { $0 + $1.count } > compact.reduce(0) { $0 + $1.count })
    for (index, payload) in original.enumerated() { #expect(payload.count >= compact[index].count, "record \(index)") }
    // Records 5 and 6, written after reopening: the update and the delete store the old
    // content in the 1.0 file only.
    #expect(original.count == 7)
    #expect(original[5].count > compact[5].count && original[6].count > compact[6].count)
  }
}
