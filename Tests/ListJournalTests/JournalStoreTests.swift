import Foundation
import ListJournal
import Synchronization
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
    // More than 64 KiB of records were held: the older ones were handed to the background
    // writer and reach the file without a flush (the rest stay held).
    var written = try versionsInFile(path)
    let deadline = ContinuousClock.now + .seconds(20)
    while written.isEmpty && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.002)
      written = try versionsInFile(path)
    }
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
