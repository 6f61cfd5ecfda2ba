import Foundation
import ListJournal
import TestSupport
import Testing

/// Store → journal → reopen reproduces the live history exactly: every version's state, parent,
/// label and time, the head, the redo memory and every branch — and time travel in the file
/// (checkpoints, no replay) agrees.
@Suite struct RoundTripTests {
  static func compare(_ reopened: TextStore, with original: TextStore, live: [Int: TestSnapshot]) throws {
    #expect(reopened.head == original.head)
    #expect(reopened.latestVersion == original.latestVersion)
    #expect(reopened.eventCount == original.eventCount)
    #expect(cleared(reopened.snapshot) == cleared(original.snapshot))
    for number in 0...original.latestVersion.rawValue {
      let version = Version(number)
      #expect(reopened.info(for: version) == original.info(for: version), "info of \(version)")
      #expect(reopened.children(of: version) == original.children(of: version), "children of \(version)")
      #expect(try reopened.state(at: version) == live[number], "state of \(version)")
      #expect(try reopened.events(of: version) == original.events(of: version))
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func reopenReproducesLiveHistory(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("h.journal")
    let clock = TickingClock()
    var driver = RandomHistoryDriver(seed: seed)
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: seed % 2 == 0 ? .relaxed : .grouped,
        store: .init(checkpointInterval: 7, checkpointBudget: .bytes(16 << 10), journalCheckpointBytes: 600, clock: clock.closure)))
    for _ in 0..<propertySteps(150) { try driver.step(journal.store) }
    // Reopen while the writer is still open (a reader sees the written prefix after a sync).
    try journal.sync()
    let live = driver.live
    #expect(live.count == journal.store.latestVersion.rawValue + 1)
    // With a budget of a few checkpoints: thinned during the replay, same states.
    let history = try JournalHistory<TestSection, TestItem>.open(
      at: path, codec: HistoryCodec(), checkpointInterval: 2, checkpointBudget: .bytes(16 << 10))
    #expect(history.store.checkpointInterval > 2 && journal.store.checkpointInterval > 7, "thinned")
    try Self.compare(history.store, with: journal.store, live: live)
    #expect(history.info.frameCount > 1)
    #expect(history.info.checkpointCount >= 1)

    // The redo memory survives: redo from every version goes where it went live.
    let redo = journal.store.redoTarget
    #expect(history.store.redoTarget == redo)

    // Time travel in the file agrees with the live states, on every branch.
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    for number in 0...journal.store.latestVersion.rawValue {
      #expect(try travel.state(at: Version(number)) == live[number], "time travel to v\(number)")
    }
    // In random order too: the travel keeps the last checkpoint it decoded, so jumping between
    // stretches of the journal alternates reusing it and decoding another.
    var random = SeededRandom(seed: seed)
    for number in (0...journal.store.latestVersion.rawValue).shuffled(using: &random) {
      #expect(try travel.state(at: Version(number)) == live[number], "time travel (random order) to v\(number)")
    }
    try journal.close()

    // Reopening for writing continues the same history: new changes append after it.
    let reopened = try TextJournal.open(
      at: path,
      configuration: .init(durability: .strict, store: .init(checkpointInterval: 16, clock: clock.closure)))
    try Self.compare(reopened.store, with: journal.store, live: live)
    var more = driver
    for _ in 0..<propertySteps(150) / 3 { try more.step(reopened.store) }
    try reopened.close()
    let again = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointInterval: 16)
    try Self.compare(again.store, with: reopened.store, live: more.live)
    // Generic decoding (no app types) replays the same structure.
    let generic = try JournalHistory.open(at: path)
    #expect(generic.versions.map(\.parent) == again.versions.map(\.parent))
    #expect(generic.snapshot.itemIdentifiers.map(\.jsonText) == again.snapshot.itemIdentifiers.map { "\"\($0)\"" })
  }

  @Test func redoMemoryAndBranchesSurviveReopen() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("b.journal")
    do {
      let journal = try TextJournal.open(at: path, configuration: .init(durability: .strict))
      let store = journal.store
      try store.appendSections([TestSection("S")])  // v1
      try store.appendItems([TestItem("a")])  // v2
      try store.appendItems([TestItem("b")])  // v3
      try store.undo()  // head v2
      try store.appendItems([TestItem("c")])  // v4: a branch off v2
      try store.undo()  // head v2, redo → v4
      try store.checkout(3)  // head v3 (v2's redo becomes v3)
      try store.undo()  // head v2, redo → v3
      try journal.close()
    }
    let journal = try TextJournal.open(at: path, configuration: .init(durability: .strict))
    #expect(journal.store.head == 2)
    #expect(journal.store.children(of: 2) == [3, 4])
    #expect(journal.store.redoTarget == 3)
    try journal.store.redo()
    #expect(journal.store.snapshot.itemIdentifiers == ["a", "b"])
    try journal.close()
  }

  @Test func exportImportRoundTrip() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("e.journal")
    var driver = RandomHistoryDriver(seed: 11)
    let clock = TickingClock()
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 500, clock: clock.closure)))
    for _ in 0..<propertySteps(200) { try driver.step(journal.store) }
    try journal.close()
    let count = try JournalMaintenance.export(at: path, toJSONLines: directory.file("e.jsonl"))
    let imported = directory.file("i.journal")
    #expect(try JournalMaintenance.importJSONLines(from: directory.file("e.jsonl"), toJournalAt: imported) == count)
    let history = try JournalHistory<TestSection, TestItem>.open(at: imported)
    try Self.compare(history.store, with: journal.store, live: driver.live)
    // A malformed line is refused with its line number, and no output is left behind.
    try "{\"kind\":\"commit\"}\n".write(toFile: directory.file("bad.jsonl"), atomically: true, encoding: .utf8)
    #expect(throws: JournalStoreError.unsupported("\(directory.file("bad.jsonl")):1: missing or negative \"version\"")) {
      try JournalMaintenance.importJSONLines(from: directory.file("bad.jsonl"), toJournalAt: directory.file("bad.journal"))
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("bad.journal")))
  }

  @Test func verifyReportsSoundJournal() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("v.journal")
    var driver = RandomHistoryDriver(seed: 5)
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 400)))
    for _ in 0..<propertySteps(200) { try driver.step(journal.store) }
    try journal.close()
    let report = JournalMaintenance.verify(at: path, codec: HistoryCodec<TestSection, TestItem>())
    #expect(report.isValid, "\(String(describing: report.problem))")
    #expect(report.checkpointsChecked >= 1)
    #expect(report.versionCount == journal.store.latestVersion.rawValue + 1)
    let generic = JournalMaintenance.verify(at: path)
    #expect(generic.isValid)
    #expect(generic.checkpointsChecked == report.checkpointsChecked)
  }
}
