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

/// `defersWrites`: changes are held in memory and written together at `flush`/`sync`/`close`.
@Suite struct JournalStoreDeferredWriteTests {
  /// The commit records the file holds now, read as another process would.
  func versionsInFile(_ path: String) throws -> [UInt64] {
    try JournalReader.open(at: path).readAll().filter { $0.kind == .commit }.map(\.version)
  }

  @Test func heldBackChangesReachTheFileAtFlushInOneChunk() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let journal = try TextJournal.open(at: path, durability: .relaxed, defersWrites: true)
    try journal.store.appendSections([TestSection("S")])
    for index in 0..<20 { try journal.store.appendItems([TestItem("i\(index)")]) }
    try journal.store.moveItem("i3", beforeItem: "i0")
    try journal.store.undo()
    #expect(journal.store.latestVersion == 22)
    #expect(try versionsInFile(path).isEmpty)  // visible in the store, not yet in the file
    try journal.flush()
    #expect(try versionsInFile(path) == Array(1...22))
    #expect(try JournalReader.open(at: path).frames.map(\.chunkCount) == [1])
    #expect(journal.durableVersion == 0)  // relaxed: written, not synced
    try journal.flush()  // nothing held back: no-op
    try journal.store.appendItems([TestItem("late")])
    try journal.close()  // flushes, then syncs
    #expect(journal.durableVersion == 23)
    let reopened = try TextJournal.open(at: path, durability: .strict)
    #expect(reopened.store.latestVersion == 23)
    #expect(reopened.store.head == 23)
    #expect(reopened.store.info(for: 23)?.parent == 21)  // committed after the undo
    #expect(reopened.store.snapshot == journal.store.snapshot)
    try reopened.close()
  }

  @Test(arguments: [JournalDurability.strict, .grouped])
  func syncFlushesAndMakesDurable(durability: JournalDurability) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let journal = try TextJournal.open(at: path, durability: durability, defersWrites: true)
    try journal.store.appendSections([TestSection("S")])
    try journal.store.appendItems([TestItem("a"), TestItem("b")])
    #expect(journal.durableVersion == 0)
    try journal.makeDurable(through: journal.store.head)
    #expect(journal.durableVersion == 2)
    #expect(try versionsInFile(path) == [1, 2])
    try journal.close()
  }

  @Test func aFullBufferIsWrittenWithoutAFlush() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let journal = try TextJournal.open(at: path, durability: .relaxed, defersWrites: true)
    try journal.store.appendSections([TestSection("S")])
    let content = String(repeating: "x", count: 1_000)
    for index in 0..<100 { try journal.store.appendItems([TestItem("i\(index)", content: content)]) }
    // More than 64 KiB of records were held: the older ones are in the file already.
    let written = try versionsInFile(path)
    #expect(written.count > 50 && written.count < 101)
    #expect(written == Array(1...UInt64(written.count)))
    try journal.close()
    #expect(try versionsInFile(path) == Array(1...101))
    #expect(throws: JournalError.writerClosed(cause: "closed")) { try journal.store.appendItems([TestItem("late")]) }
  }

  @Test func aFailedDeferredWriteFailsTheFlushAndClosesTheWriter() throws {
    let fs = FaultInjectingFileSystem()
    var options = JournalOptions()
    options.fileSystem = fs
    let journal = try TextJournal.open(at: "/j", durability: .relaxed, options: options, defersWrites: true)
    try journal.store.appendSections([TestSection("S")])
    try journal.flush()
    try journal.store.appendItems([TestItem("a")])
    fs.inject(.write, onCall: 1)
    #expect(throws: JournalStoreError.self) { try journal.flush() }
    #expect(journal.isClosed)
    #expect(throws: JournalError.self) { try journal.store.appendItems([TestItem("b")]) }
    #expect(journal.store.latestVersion == 2)  // visible, never written nor durable
    let reopened = try TextJournal.open(at: "/j", durability: .relaxed, options: options)
    #expect(reopened.store.latestVersion == 1)
    try reopened.close()
  }
}
