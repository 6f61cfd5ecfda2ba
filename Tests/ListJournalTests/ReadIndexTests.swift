import Foundation
import JournalFormatTesting
import ListJournal
import TestSupport
import Testing

/// The read index (`<journal>.index`): what it serves equals what the full replay gives, and it
/// is used only while it describes the journal exactly.
@Suite struct ReadIndexTests {
  typealias TextIndex = JournalReadIndex<TestSection, TestItem>
  typealias GenericIndex = JournalReadIndex<JournalValueElement, JournalValueElement>

  /// Writes a random history of `steps` through a journal-backed store and closes it.
  static func writeRandomHistory(at path: String, seed: UInt64, steps: Int) throws {
    var driver = RandomHistoryDriver(seed: seed)
    let clock = TickingClock()
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(clock: clock.closure)))
    for _ in 0..<steps { try driver.step(journal.store) }
    try journal.close()
  }

  /// Everything the index serves, against the replay of the same journal.
  static func expectIndexMatchesReplay<Section, Item>(
    _ index: JournalReadIndex<Section, Item>, _ history: JournalHistory<Section, Item>, seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(index.info == history.info, sourceLocation: sourceLocation)
    #expect(index.versionCount == history.versions.count, sourceLocation: sourceLocation)
    #expect(index.head == history.head, sourceLocation: sourceLocation)
    #expect(index.eventCount == history.store.eventCount, sourceLocation: sourceLocation)
    #expect(try index.versions() == history.versions, sourceLocation: sourceLocation)
    var head = history.snapshot
    head.clearMarkers()
    #expect(try index.snapshot() == head, sourceLocation: sourceLocation)
    #expect(try ListSnapshot(index.headSections()) == head, sourceLocation: sourceLocation)
    let indexed = Set(try index.indexedVersions().map(\.rawValue))
    for number in 0..<index.versionCount {
      let version = Version(number)
      #expect(try index.entry(for: version) == history.entry(for: version), sourceLocation: sourceLocation)
      let info = try #require(try index.info(for: version))
      let entry = try history.entry(for: version)
      #expect(info.parent == entry.parent && info.timestamp == entry.timestamp && info.label == entry.label)
      #expect(info.operationCount == entry.operationCount, sourceLocation: sourceLocation)
      #expect(try index.parent(of: version) == entry.parent, sourceLocation: sourceLocation)
      if indexed.contains(number) || number == 0 {
        #expect(try index.events(of: version) == history.events(of: version), "version \(number)", sourceLocation: sourceLocation)
      } else {
        #expect(try index.events(of: version) == nil, sourceLocation: sourceLocation)
      }
      if let state = try index.state(at: version) {
        #expect(state == (try history.state(at: version)), "state at \(number)", sourceLocation: sourceLocation)
        let sections = try #require(try index.sections(at: version))
        #expect(try ListSnapshot(sections) == state, "sections at \(number)", sourceLocation: sourceLocation)
      } else {
        #expect(try index.sections(at: version) == nil, sourceLocation: sourceLocation)
      }
    }
    var random = SeededRandom(seed: seed)
    for _ in 0..<50 {
      let from = Version(Int.random(in: 0..<index.versionCount, using: &random))
      let to = Version(Int.random(in: 0..<index.versionCount, using: &random))
      guard let events = try index.events(from: from, to: to) else { continue }
      #expect(events == (try history.events(from: from, to: to)), "events \(from) → \(to)", sourceLocation: sourceLocation)
    }
    #expect(try index.entry(for: Version(index.versionCount)) == nil, sourceLocation: sourceLocation)
    #expect(try index.state(at: Version(index.versionCount)) == nil, sourceLocation: sourceLocation)
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func roundTripOfRandomHistories(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: seed, steps: propertySteps(250))
    #expect(FileManager.default.fileExists(atPath: path + ".index"))
    let reader = try JournalReader.open(at: path)
    try Self.expectIndexMatchesReplay(
      TextIndex.open(journal: reader, codec: HistoryCodec()), JournalHistory<TestSection, TestItem>.open(at: path), seed: seed)
    // Any app's journal, without its types.
    try Self.expectIndexMatchesReplay(
      GenericIndex.open(journal: reader, codec: .generic()), JournalHistory.open(at: path), seed: seed)
  }

  /// With few indexed versions, the states away from the head are not served (nil), and the
  /// ones it serves still equal the replay's.
  @Test(arguments: [5, 6] as [UInt64])
  func aShortIndexServesOnlyWhatItHolds(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: seed, steps: propertySteps(250))
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    try history.writeReadIndex(codec: HistoryCodec(), recentVersions: 8)
    let index = try TextIndex.open(journal: history.reader, codec: HistoryCodec())
    #expect(try index.indexedVersions().count <= 16)
    var served = 0
    for number in 0..<index.versionCount where try index.state(at: Version(number)) != nil { served += 1 }
    #expect(served > 1 && served < index.versionCount)
    try Self.expectIndexMatchesReplay(index, history, seed: seed)
  }

  // MARK: Written by the store

  @Test func aCleanCloseWritesTheIndexAndAReopenWithoutChangesKeepsIt() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 9, steps: 60)
    let written = try Data(contentsOf: URL(fileURLWithPath: path + ".index"))
    let journal = try TextJournal.open(at: path)
    try journal.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".index")) == written)
    // One more change: a new index for the longer journal.
    let again = try TextJournal.open(at: path)
    try again.store.appendSections([TestSection("late")])
    try again.close()
    let reader = try JournalReader.open(at: path)
    let index = try TextIndex.open(journal: reader, codec: HistoryCodec())
    #expect(index.latestVersion == again.store.latestVersion)
    #expect(try index.snapshot().sectionIdentifiers.last == "late")
  }

  @Test func writesReadIndexOffWritesNone() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    var options = JournalOptions()
    options.writesReadIndex = false
    let journal = try TextJournal.open(at: path, configuration: .init(options: options))
    try journal.store.appendSections([TestSection("S")])
    try journal.close()
    #expect(!FileManager.default.fileExists(atPath: path + ".index"))
  }

  /// A journal a store appended to without closing (a crash, or a store still open): the
  /// index describes a shorter journal and is ignored.
  @Test func appendingWithoutClosingLeavesTheIndexStale() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 3, steps: 40)
    let journal = try TextJournal.open(at: path, configuration: .init(durability: .strict))
    try journal.store.appendSections([TestSection("unclosed")])
    let reader = try JournalReader.open(at: path)
    #expect(throws: JournalReadIndexProblem.self) { try TextIndex.open(journal: reader, codec: HistoryCodec()) }
    do {
      _ = try TextIndex.open(journal: reader, codec: HistoryCodec())
    } catch {
      guard case .stale = error else { Issue.record("expected a stale index, got \(error)"); return }
    }
    #expect(try TextIndex.open(at: path, codec: HistoryCodec()) == nil)
    // The replay sees the change; closing writes a new index that does too.
    #expect(try JournalHistory<TestSection, TestItem>.open(at: path).snapshot.sectionIdentifiers.last == "unclosed")
    try journal.close()
    let index = try #require(try TextIndex.open(at: path, codec: HistoryCodec()))
    #expect(try index.snapshot().sectionIdentifiers.last == "unclosed")
  }

  /// A writer whose write failed closes without an index: its store may hold what the file does not.
  @Test func aFailedWriterWritesNoIndex() throws {
    let fs = FaultInjectingFileSystem()
    var options = JournalOptions()
    options.fileSystem = fs
    let journal = try TextJournal.open(at: "/j", configuration: .init(durability: .strict, options: options))
    try journal.store.appendSections([TestSection("S")])
    fs.inject(.write, onCall: 1)
    #expect(throws: (any Error).self) { try journal.store.appendItems([TestItem("a")]) }
    try? journal.close()
    #expect(!fs.exists("/j.index"))
  }

  /// Failing to write the index never fails `close()` and never touches the journal; the
  /// temporary file is removed.
  @Test(arguments: [FaultInjectingFileSystem.Operation.open, .write, .sync, .rename])
  func aFailedIndexWriteIsIgnored(operation: FaultInjectingFileSystem.Operation) throws {
    /// Writes the same journal each time; fails the `failing`-th operation of the kind from
    /// the close on; returns how many the close made.
    func run(_ fs: FaultInjectingFileSystem, writesReadIndex: Bool, failing: Int?) throws -> Int {
      var options = JournalOptions()
      options.fileSystem = fs
      options.writesReadIndex = writesReadIndex
      options.fixedSalt = 7
      options.fixedCreationTimeNanoseconds = 1
      let journal = try TextJournal.open(
        at: "/j",
        configuration: .init(durability: .strict, options: options, store: .init(clock: { 1_700_000_000 })))
      try journal.store.appendSections([TestSection("S")])
      try journal.store.appendItems([TestItem("a"), TestItem("b")])
      let before = fs.count(of: operation)
      if let failing { fs.inject(operation, onCall: failing) }
      try journal.close()
      return fs.count(of: operation) - before
    }
    let twin = FaultInjectingFileSystem()
    let closing = try run(twin, writesReadIndex: false, failing: nil)
    let fs = FaultInjectingFileSystem()
    _ = try run(fs, writesReadIndex: true, failing: closing + 1)
    #expect(fs.paths() == ["/j"])
    #expect(fs.contents(of: "/j") == twin.contents(of: "/j"))
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    let history = try JournalHistory<TestSection, TestItem>.open(reader: reader, codec: HistoryCodec(), progress: nil)
    #expect(history.snapshot.itemIdentifiers == ["a", "b"])
    // Without the fault the index is there.
    let clean = FaultInjectingFileSystem()
    _ = try run(clean, writesReadIndex: true, failing: nil)
    #expect(clean.paths() == ["/j", "/j.index"])
  }

  // MARK: Damaged, stale, foreign

  static func expectUnused(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try TextIndex.open(at: path, codec: HistoryCodec()) == nil, sourceLocation: sourceLocation)
    #expect(try GenericIndex.open(at: path) == nil, sourceLocation: sourceLocation)
  }

  @Test func everyFlippedByteOrCutMakesTheIndexUnused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 21, steps: 12)
    let indexPath = path + ".index"
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: indexPath)))
    #expect(original.count < 4_096)
    func install(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: indexPath)) }
    for offset in original.indices {
      var damaged = original
      damaged[offset] ^= 0x5A
      try install(damaged)
      try Self.expectUnused(path)
    }
    for length in stride(from: 0, to: original.count, by: 7) {
      try install(Array(original[..<length]))
      try Self.expectUnused(path)
    }
    try install(original + [0])
    try Self.expectUnused(path)
    try install(original)
    #expect(try TextIndex.open(at: path, codec: HistoryCodec()) != nil)
  }

  /// An index whose checksum and journal prefix are right but whose sections are not what a
  /// writer writes: it opens (the header is right), but nothing it serves is trusted blindly —
  /// each part either fails as damaged or decodes, and no reader crashes.
  @Test func craftedSectionsNeverCrashAReader() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 22, steps: 30)
    let reader = try JournalReader.open(at: path)
    let real = try JournalReadIndexFile.read(at: path + ".index")
    var random = SeededRandom(seed: 22)
    for round in 0..<300 {
      var sections: [JournalReadIndexFile.Section] = []
      for kind in [1, 2, 3, 4, 6] as [UInt32] {
        var bytes = try #require(try real.section(kind))
        switch (round + Int(kind)) % 4 {
        case 0: continue  // left out
        case 1: bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2 where kind != 1:
          for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
          }
        default: break  // as written
        }
        sections.append(.init(kind: kind, bytes: bytes, compressed: round % 3 == 0))
      }
      let bytes = try JournalReadIndexFile.encode(journal: reader.prefix, sections: sections)
      try JournalReadIndexFile.write(bytes, at: path + ".index")
      guard let index = try? TextIndex.open(journal: reader, codec: HistoryCodec()) else { continue }
      _ = try? index.versions()
      _ = try? index.snapshot()
      _ = try? index.headSections()
      _ = try? index.indexedVersions()
      for number in 0..<index.versionCount {
        _ = try? index.state(at: Version(number))
        _ = try? index.sections(at: Version(number))
        _ = try? index.entry(for: Version(number))
        _ = try? index.parent(of: Version(number))
        _ = try? index.events(from: Version(number), to: index.head)
        _ = try? index.redoChild(of: Version(number))
      }
    }
  }

  @Test func anIndexOfAnotherJournalIsStale() throws {
    let directory = TemporaryDirectory()
    let first = directory.file("a.journal")
    let second = directory.file("b.journal")
    try Self.writeRandomHistory(at: first, seed: 31, steps: 40)
    try Self.writeRandomHistory(at: second, seed: 31, steps: 40)  // the same history, another salt
    try FileManager.default.removeItem(atPath: second + ".index")
    try FileManager.default.copyItem(atPath: first + ".index", toPath: second + ".index")
    let reader = try JournalReader.open(at: second)
    #expect(throws: JournalReadIndexProblem.self) { try TextIndex.open(journal: reader, codec: HistoryCodec()) }
    try Self.expectUnused(second)
  }

  /// Compaction rewrites the journal with a new salt and carries its index over; the index of
  /// the older generation no longer describes it.
  @Test func compactionCarriesTheIndexOverAndTheOldGenerationsIsStale() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 41, steps: 80)
    let old = try Data(contentsOf: URL(fileURLWithPath: path + ".index"))
    _ = try JournalMaintenance.compact(at: path)
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    let index = try TextIndex.open(journal: history.reader, codec: HistoryCodec())
    try Self.expectIndexMatchesReplay(index, history, seed: 41)
    try old.write(to: URL(fileURLWithPath: path + ".index"))
    try Self.expectUnused(path)
  }

  // MARK: Golden journals

  static func goldenJournals() -> [String] {
    var names: [String] = []
    for folder in ["", "Legacy/"] {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: GoldenJournalTests.directory + "/" + folder)) ?? []
      names += files.filter { $0.hasSuffix(".journal") }.map { folder + $0 }
    }
    return names.sorted()
  }

  @Test func goldenJournalsExist() { #expect(Self.goldenJournals().count >= 10) }

  /// Every golden journal reads alike with an index built for it (by a replay, or by the first
  /// write of a library that writes indexes) and without one.
  @Test(arguments: goldenJournals())
  func goldenJournalReadsAlikeWithAndWithoutAnIndex(name: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("golden.journal")
    try FileManager.default.copyItem(atPath: GoldenJournalTests.directory + "/" + name, toPath: path)
    #expect(try TextIndex.open(at: path, codec: HistoryCodec()) == nil)
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    let generic = try JournalHistory.open(at: path)
    if !generic.lostVersions.isEmpty {
      // A repaired journal's gap cannot be described by an index (FORMAT.md §4.1): none is
      // written, by a replay or a write; readers replay it.
      #expect(throws: JournalStoreError.self) { try generic.writeReadIndex(codec: .generic()) }
      let journal = try TextJournal.open(at: path)
      try journal.close()
      #expect(!FileManager.default.fileExists(atPath: path + ".index"))
      let verification = JournalMaintenance.verify(at: path, writingReadIndex: true)
      #expect(verification.isValid && !verification.readIndexWritten)
      return
    }
    try generic.writeReadIndex(codec: .generic())
    try Self.expectIndexMatchesReplay(try #require(try TextIndex.open(at: path, codec: HistoryCodec())), history, seed: 1)
    try Self.expectIndexMatchesReplay(try #require(try GenericIndex.open(at: path)), generic, seed: 1)
    // A journal written before indexes existed gains one on its first write, and reads the same.
    try FileManager.default.removeItem(atPath: path + ".index")
    let journal = try TextJournal.open(at: path)
    try journal.close()
    try Self.expectIndexMatchesReplay(try #require(try TextIndex.open(at: path, codec: HistoryCodec())), history, seed: 2)
    #expect(JournalMaintenance.verify(at: path).isValid)
  }

  @Test func verifyWritesAMissingIndexOnlyForASoundJournal() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try Self.writeRandomHistory(at: path, seed: 51, steps: 30)
    try FileManager.default.removeItem(atPath: path + ".index")
    #expect(!JournalMaintenance.verify(at: path).readIndexWritten)
    #expect(!FileManager.default.fileExists(atPath: path + ".index"))
    #expect(JournalMaintenance.verify(at: path, writingReadIndex: true).readIndexWritten)
    #expect(try GenericIndex.open(at: path) != nil)
    // Already there and right: left alone.
    #expect(!JournalMaintenance.verify(at: path, writingReadIndex: true).readIndexWritten)
  }
}
