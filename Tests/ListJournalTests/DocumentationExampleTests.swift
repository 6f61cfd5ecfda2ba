import Foundation
import ListJournal
import ListLocking
import Testing

/// The examples of `Sources/ListJournal/ListJournal.docc/JournalFormat.md` (and the README's
/// tour), run as written, with the results the article states. If one of these fails, fix the
/// article too.
@Suite("Journal article examples")
struct JournalDocumentationExampleTests {
  struct Row: ListElement, Codable, Hashable {
    let id: String
    var title: String
  }

  @Test func openingAJournalBackedStore() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("todo.journal")

    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .strict))
    try journal.store.appendSections(["Inbox"])
    try journal.store.appendItems([Row(id: "milk", title: "Milk")])
    try journal.store.appendItems([Row(id: "eggs", title: "Eggs")])
    try journal.store.undo()
    #expect(journal.durableVersion == 3)  // strict: durable before each commit returned
    try journal.close()

    let reopened = try JournalStore<String, Row>.open(at: path)
    #expect(reopened.store.head == 2)
    #expect(reopened.store.redoTarget == 3)  // the redo memory survives too
    #expect(reopened.store.snapshot.item("milk")?.title == "Milk")
    try reopened.close()
  }

  @Test func openingWithAConfiguration() throws {
    let directory = TemporaryDirectory()
    let otherPath = directory.file("configured.journal")

    var configuration = JournalStoreConfiguration(durability: .strict)
    configuration.store.checkpointBudget = .bytes(32 << 20)
    let configured = try JournalStore<String, Row>.open(at: otherPath, configuration: configuration)
    try configured.store.appendSections(["Inbox"])
    #expect(configured.durability == .strict)
    #expect(configured.durableVersion == 1)  // strict: durable before the commit returned
    try configured.close()

    // The argument spelling and the configuration agree.
    var fixedClock = ListStoreConfiguration(clock: { 1_700_000_000 })
    fixedClock.checkpointInterval = 64
    let store = ListStore<String, Row>(configuration: fixedClock)
    try store.appendSections(["Inbox"])
    #expect(store.checkpointInterval == 64)
    #expect(store.info(for: 1)?.timestamp == 1_700_000_000)

    // A missing file is refused when the configuration says so.
    #expect(throws: JournalStoreError.self) {
      try JournalStore<String, Row>.open(
        at: directory.file("missing.journal"), configuration: .init(createIfMissing: false))
    }
  }

  @Test func durabilityModes() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("relaxed.journal")
    let acknowledged = ListMutex<Version>(0)
    let journal = try JournalStore<String, Row>.open(
      at: path,
      configuration: .init(durability: .relaxed, onDurable: { version in acknowledged.withLock { $0 = version } }))
    try journal.store.appendSections(["Inbox"])
    try journal.store.appendItems([Row(id: "milk", title: "Milk")])
    #expect(!journal.isDurable(journal.store.head))  // relaxed: in the page cache only
    try journal.makeDurable(through: journal.store.head)  // one fdatasync
    #expect(journal.isDurable(2) && journal.durableVersion == 2)
    #expect(acknowledged.withLock { $0 } == 2)
    try journal.close()
    #expect(journal.isClosed)
    #expect(throws: (any Error).self) { try journal.store.appendItems([Row(id: "eggs", title: "Eggs")]) }

    let grouped = try JournalStore<String, Row>.open(
      at: directory.file("grouped.journal"),
      configuration: .init(durability: .grouped(maxDelayMilliseconds: 2, maxBytes: 16 * 1024)))
    try grouped.store.appendSections(["Inbox"])
    try grouped.makeDurable(through: grouped.store.head)
    #expect(grouped.durableVersion == 1)
    try grouped.close()
  }

  @Test func deferredWrites() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("bulk.journal")
    let journal = try JournalStore<String, Row>.open(
      at: path,
      configuration: .init(durability: .relaxed, defersWrites: true))
    try journal.store.appendSections(["Inbox"])
    for index in 0..<1_000 { try journal.store.appendItems([Row(id: "r\(index)", title: "Row \(index)")]) }
    try journal.flush()  // every change above is in the file now
    #expect(try JournalReader.open(at: path).readAll().filter { $0.kind == .commit }.count == 1_001)
    try journal.close()
    let reopened = try JournalStore<String, Row>.open(at: path)
    #expect(reopened.store.snapshot.numberOfItems == 1_000)
    #expect(reopened.store.snapshot.item("r999")?.title == "Row 999")
    try reopened.close()
  }

  @Test func oneWriterManyReaders() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("shared.journal")
    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .strict))
    try journal.store.appendSections(["Inbox"])
    try journal.store.appendItems([Row(id: "milk", title: "Milk")])

    #expect(throws: JournalStoreError.journal(.locked(path: path))) {
      _ = try JournalStore<String, Row>.open(at: path)
    }
    let history = try JournalHistory.open(at: path)  // generic values, no lock taken
    #expect(history.head == 2)
    #expect(history.snapshot.itemIdentifiers == [.string("milk")])
    #expect(history.versions.map(\.version) == [0, 1, 2])
    #expect(history.info.commitCount == 2)

    let typed = try JournalHistory<String, Row>.open(at: path)
    #expect(try typed.state(at: 1).numberOfSections == 1)

    let travel = try JournalTimeTravel<String, Row>.open(at: path)
    #expect(try travel.state(at: 2).item("milk") == Row(id: "milk", title: "Milk"))
    try journal.close()
  }

  @Test func aReplicaJournalIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("shared.journal")
    try ReplicaJournalRefusalTests.writeReplicaJournal(at: path, commitRecords: 1)
    var refused: String?
    do {
      _ = try JournalStore<String, Row>.open(at: path)
    } catch .replicaJournal(let path) {
      refused = path
    }
    #expect(refused == path)
  }

  @Test func tornTailIsDroppedOnOpen() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("torn.journal")
    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .strict))
    try journal.store.appendSections(["Inbox"])
    try journal.store.appendItems([Row(id: "milk", title: "Milk")])
    try journal.close()

    // A crash in the middle of a write leaves a cut-off or zero-filled tail.
    let file = try #require(FileHandle(forWritingAtPath: path))
    try file.seekToEnd()
    try file.write(contentsOf: Data(repeating: 0, count: 100))
    try file.close()

    let reopened = try JournalStore<String, Row>.open(at: path)
    #expect(reopened.recovery.tornTailBytes == 100)
    #expect(reopened.store.head == 2)
    try reopened.store.appendItems([Row(id: "eggs", title: "Eggs")])  // written over the tail
    try reopened.close()
    #expect(JournalMaintenance.verify(at: path).isValid)
  }

  @Test func repairKeepsWhatFollowsAnIntactCheckpoint() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("damaged.journal")
    let journal = try JournalStore<String, Row>.open(
      at: path,
      configuration: .init(durability: .strict, store: .init(journalCheckpointBytes: 300)))
    try journal.store.appendSections(["Inbox"])
    for step in 2...40 { try journal.store.appendItems([Row(id: "i\(step)", title: "item \(step)")], toSection: "Inbox") }
    try journal.close()
    let undamaged = try JournalHistory<String, Row>.open(at: path)
    // Damage the chunk of v11 (one chunk per commit, FORMAT.md §3); a checkpoint follows later.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    func field(_ offset: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
    var offset = 64
    while field(offset + 28, 8) != 11 { offset += 48 + field(offset + 8, 4) }
    #expect(try JournalReader.open(at: path).frames.contains { $0.startsWithCheckpoint && $0.offset > Int64(offset) })
    bytes[offset + 50] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let repair = try JournalMaintenance.repair(at: path)
    #expect(repair.resumptions.count == 1)
    #expect(repair.keptRanges.count == 2)

    let history = try JournalHistory<String, Row>.open(at: path)
    let lost = try #require(history.lostVersions.first)
    #expect(history.lostVersions == [11...12])
    #expect(try history.state(at: 30) == undamaged.state(at: 30))
    #expect(throws: JournalStoreError.history(.versionLost(12, lost: lost))) { try history.state(at: 12) }

    let reopened = try JournalStore<String, Row>.open(at: path)
    let resumed = Version(lost.upperBound.rawValue + 1)
    try reopened.store.checkout(resumed)
    #expect(throws: HistoryError.historyGap(at: resumed, lost: lost)) { try reopened.store.undo() }
    try reopened.store.appendItems([Row(id: "new", title: "new")], toSection: "Inbox")
    #expect(reopened.store.info(for: reopened.store.head)?.parent == resumed)
    try reopened.close()
  }

  @Test func midFileCorruptionAndRepair() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("damaged.journal")
    for (section, item) in [("Inbox", "milk"), ("Done", "gym")] {  // two sessions: two frames
      let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .strict))
      try journal.store.appendSections([section])
      try journal.store.appendItems([Row(id: item, title: item)], toSection: section)
      try journal.close()
    }
    let secondFrame = try JournalReader.open(at: path).frames[1].offset

    // Flip one byte inside v3's chunk; v4's chunk after it is intact.
    let file = try #require(FileHandle(forUpdatingAtPath: path))
    try file.seek(toOffset: UInt64(secondFrame) + 50)
    let byte = try #require(try file.read(upToCount: 1))
    try file.seek(toOffset: UInt64(secondFrame) + 50)
    try file.write(contentsOf: Data([byte[0] ^ 0xFF]))
    try file.close()

    do {
      _ = try JournalStore<String, Row>.open(at: path)
      Issue.record("expected corruption")
    } catch .journal(.corrupted(let offset, let lastGoodVersion, _)) {
      #expect(offset == secondFrame)
      #expect(lastGoodVersion == 2)
    } catch {
      Issue.record("unexpected \(error)")
    }

    let prefix = try JournalHistory<String, Row>.open(at: path, tolerateCorruption: true)
    #expect(prefix.head == 2)

    let report = JournalMaintenance.verify(at: path)
    #expect(!report.isValid)
    #expect(report.firstBadOffset == secondFrame)

    let segments = try JournalReader.openSegments(at: path)
    #expect(segments.readers.count == 1)
    #expect(segments.newestVersion == 4)

    let repair = try JournalMaintenance.repair(at: path)
    #expect(repair.keptBytes == secondFrame)
    let aside = try #require(repair.damagedCopyPath)
    #expect(FileManager.default.fileExists(atPath: aside))

    let repaired = try JournalStore<String, Row>.open(at: path)
    #expect(repaired.store.latestVersion == 2)
    #expect(repaired.store.snapshot.itemIdentifiers == ["milk"])
    try repaired.close()
  }

  @Test func maintenance() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("todo.journal")
    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .relaxed))
    try journal.store.appendSections(["Inbox"])
    for index in 0..<50 { try journal.store.appendItems([Row(id: "row \(index)", title: "Row \(index)")]) }
    try journal.store.undo()
    try journal.close()

    let report = try JournalMaintenance.compact(at: path)
    #expect(report.recordsAfter == report.recordsBefore)
    let verification = JournalMaintenance.verify(at: path)
    #expect(verification.isValid && verification.versionCount == 52)

    let records = try JournalMaintenance.export(at: path, toJSONLines: path + ".jsonl")
    #expect(records == 52)
    try JournalMaintenance.importJSONLines(from: path + ".jsonl", toJournalAt: path + ".copy")
    #expect(throws: JournalStoreError.self) {
      try JournalMaintenance.importJSONLines(from: path + ".jsonl", toJournalAt: path + ".copy")
    }
    let history = try JournalHistory<String, Row>.open(at: path + ".copy")
    #expect(history.head == 50 && history.latestVersion == 51)

    var limits = JournalLimits()
    limits.maxRecordPayload = 1 << 20
    #expect(try JournalHistory.open(at: path, limits: limits).info.versionCount == 52)
  }

  @Test func droppingOldHistory() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("todo.journal")
    let writing = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .relaxed))
    try writing.store.appendSections(["Inbox"])
    for index in 0..<12_000 { try writing.store.appendItems([Row(id: "row \(index)", title: "Row \(index)")]) }
    try writing.close()
    let codec = HistoryCodec<String, Row>()

    let report = try JournalMaintenance.compact(at: path, keeping: .lastVersions(10_000), codec: codec)
    #expect(report.keptFrom == 2_001 && report.droppedVersions == 2_000)
    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init())
    #expect(journal.store.keptHistoryStart == report.keptFrom)
    #expect(journal.store.snapshot.numberOfItems == 12_000)
    #expect(throws: HistoryError.versionDropped(Version(5), keptFrom: report.keptFrom)) {
      _ = try journal.store.state(at: Version(5))
    }
    try journal.close()
  }

  /// The README's tour: store + undo + journal + diff.
  @Test func readmeTour() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("todo.journal")

    let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .grouped))
    let store = journal.store
    try store.transaction(label: "Add Inbox") { tx in
      try tx.appendSections(["Inbox"])
      try tx.appendItems([Row(id: "a", title: "Groceries"), Row(id: "b", title: "Taxes")])
    }
    let shown = store.head
    try store.moveItem("b", beforeItem: "a")
    try store.updateItem(Row(id: "a", title: "Groceries!"))
    try store.undo()
    #expect(store.snapshot.itemIdentifiers == ["b", "a"])
    #expect(store.snapshot.item("a")?.title == "Groceries")
    #expect(try store.state(at: shown).itemIdentifiers == ["a", "b"])
    #expect(store.head == 2)

    let changeset = try store.changeset(from: shown, to: store.head)
    #expect(changeset.textDescription == "→ moved a")
    try journal.makeDurable(through: store.head)
    #expect(journal.isDurable(store.head))
    try journal.close()

    let reopened = try JournalStore<String, Row>.open(at: path)
    #expect(reopened.store.head == 2 && reopened.store.redoTarget == 3)
    try reopened.close()
  }
}
