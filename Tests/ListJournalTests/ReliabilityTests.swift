import Foundation
import ListJournal
import TestSupport
import Testing

/// The reliability regime at the store level: truncation at (nearly) every byte offset, bit
/// flips, and faults injected under a journal-backed store.
@Suite struct ReliabilityTests {
  /// A multi-frame journal written by a strict store, with what a reader must see after each
  /// complete record.
  struct Fixture {
    var bytes: [UInt8]
    /// End offset of each record's chunk, in record order (one record per chunk in `.strict`).
    var recordEnds: [Int]
    /// End offset of every chunk (empty frame-end chunks too).
    var chunkEnds: [Int]
    /// (latest version, head) after the first k records, for k = 0...count.
    var afterRecords: [(latest: Int, head: Int)]
    /// Live state of every version.
    var live: [Int: TestSnapshot]
  }

  static func makeFixture(seed: UInt64, steps: Int) throws -> Fixture {
    let directory = TemporaryDirectory()
    let path = directory.file("f.journal")
    var options = JournalOptions()
    options.frameTargetBytes = 700
    var driver = RandomHistoryDriver(seed: seed)
    driver.generator.targetItemCount = 12
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: .strict, options: options,
        store: .init(checkpointInterval: 8, journalCheckpointBytes: 350, clock: TickingClock().closure)))
    for _ in 0..<steps { try driver.step(journal.store) }
    try journal.close()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // Walk the chunks (FORMAT.md §3: 48-byte header, compressed length at +8, record count at +16).
    var recordEnds: [Int] = []
    var chunkEnds: [Int] = []
    var offset = 64
    func load32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    while offset + 48 <= bytes.count {
      let end = offset + 48 + load32(offset + 8)
      let records = load32(offset + 16)
      precondition(records <= 1, "strict writes one record per chunk")
      if records == 1 { recordEnds.append(end) }
      chunkEnds.append(end)
      offset = end
    }
    precondition(offset == bytes.count)
    // Heads after each record, from a generic decode of the records.
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var after = [(latest: 0, head: 0)]
    for record in try JournalReader.open(at: path).readAll() {
      var (latest, head) = after.last!
      switch try codec.decode(HistoryRecord(kind: HistoryRecord.Kind(rawValue: record.kind.rawValue)!, sequence: record.sequence, version: record.version, payload: record.payload)) {
      case .commit(let commit): (latest, head) = (commit.version.rawValue, commit.version.rawValue)
      case .headMove(let move): head = move.to.rawValue
      case .checkpoint, .gap: break
      }
      after.append((latest, head))
    }
    precondition(after.count == recordEnds.count + 1)
    return Fixture(bytes: bytes, recordEnds: recordEnds, chunkEnds: chunkEnds, afterRecords: after, live: driver.live)
  }

  /// Checks a reopened history against the fixture's prefix of `records` records.
  static func expectPrefix(_ history: JournalHistory<TestSection, TestItem>, records: Int, fixture: Fixture, _ context: String) throws {
    let expected = fixture.afterRecords[records]
    #expect(history.latestVersion.rawValue == expected.latest, "\(context): latest")
    #expect(history.head.rawValue == expected.head, "\(context): head")
    #expect(cleared(history.snapshot) == fixture.live[expected.head], "\(context): head state")
    for number in 0...expected.latest {
      #expect(try history.state(at: Version(number)) == fixture.live[number], "\(context): state of v\(number)")
    }
  }

  @Test func truncationAtEveryOffsetReopensToTheLongestCommittedPrefix() throws {
    let fixture = try Self.makeFixture(seed: 21, steps: propertySteps(80))
    let directory = TemporaryDirectory()
    let path = directory.file("t.journal")
    #expect(fixture.recordEnds.count > 30)
    #expect(fixture.chunkEnds.count > fixture.recordEnds.count)  // frames ended before checkpoints
    var replayed = Set<Int>()
    for cut in 0...fixture.bytes.count {
      try Data(fixture.bytes[0..<cut]).write(to: URL(fileURLWithPath: path))
      let complete = fixture.recordEnds.prefix { $0 <= cut }.count
      if cut < 64 {
        #expect(throws: JournalError.notAJournal(path: path)) { try JournalReader.open(at: path).recordCount }
        continue
      }
      // Every offset: the reader's readable prefix is exactly the complete records.
      let reader = try JournalReader.open(at: path)
      #expect(reader.recordCount == UInt64(complete), "cut at \(cut)")
      #expect(reader.recovery.validBytes == Int64(fixture.chunkEnds.last { $0 <= cut } ?? 64), "cut at \(cut)")
      // Once per distinct prefix (the replay is the same for equal readable prefixes): the
      // whole history of that prefix, every version, the head.
      if replayed.insert(complete).inserted || cut == fixture.bytes.count {
        let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointInterval: 8)
        try Self.expectPrefix(history, records: complete, fixture: fixture, "cut at \(cut)")
      }
    }
    #expect(replayed.count == fixture.recordEnds.count + 1)
  }

  @Test func writerRecoversATornTailAndContinues() throws {
    let fixture = try Self.makeFixture(seed: 22, steps: 60)
    let directory = TemporaryDirectory()
    var random = SeededRandom(seed: 5)
    for round in 0..<12 {
      let path = directory.file("w\(round).journal")
      let cut = Int.random(in: 64..<fixture.bytes.count, using: &random)
      var bytes = Array(fixture.bytes[0..<cut])
      if round % 3 == 1 { bytes += [UInt8](repeating: 0, count: 100) }  // zero-filled tail
      if round % 3 == 2 { bytes += (0..<77).map { _ in UInt8.random(in: 0...255, using: &random) } }  // garbage tail
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let complete = fixture.recordEnds.prefix { $0 <= cut }.count
      let journal = try TextJournal.open(
        at: path,
        configuration: .init(durability: .strict, store: .init(checkpointInterval: 8)))
      let validEnd = fixture.chunkEnds.last { $0 <= cut } ?? 64
      #expect(journal.recovery.tornTailBytes == Int64(bytes.count - validEnd))
      #expect(journal.store.latestVersion.rawValue == fixture.afterRecords[complete].latest)
      #expect(journal.store.head.rawValue == fixture.afterRecords[complete].head)
      // Appending after recovery never writes after garbage: the new commit reopens cleanly.
      try journal.store.transaction { tx in try tx.insertSections([TestSection("new-\(round)")], at: 0) }
      let head = journal.store.head
      let state = cleared(journal.store.snapshot)
      try journal.close()
      let reopened = try JournalHistory<TestSection, TestItem>.open(at: path)
      #expect(reopened.head == head)
      #expect(cleared(reopened.snapshot) == state)
      #expect(reopened.reader.recovery.tornTailBytes == 0)
    }
  }

  @Test func bitFlipsAreDetectedOrRecoveredNeverADifferentState() throws {
    let fixture = try Self.makeFixture(seed: 23, steps: 40)
    let directory = TemporaryDirectory()
    let path = directory.file("b.journal")
    var random = SeededRandom(seed: 99)
    let flips = propertySteps(400)
    var detected = 0
    var recovered = 0
    for index in 0..<flips {
      var bytes = fixture.bytes
      let position = Int.random(in: 0..<bytes.count, using: &random)
      if index % 10 == 9 {
        // A burst of random bytes.
        for offset in position..<min(bytes.count, position + Int.random(in: 2...40, using: &random)) {
          bytes[offset] = UInt8.random(in: 0...255, using: &random)
        }
      } else {
        bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
      }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      do {
        let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointInterval: 8)
        // Recovered: must be exactly a committed prefix — never a different state.
        let records = Int(history.reader.recordCount)
        // (A flip in an unchecked header field, such as the creation time, loses nothing.)
        let expected = fixture.afterRecords[records]
        #expect(history.latestVersion.rawValue == expected.latest, "flip at \(position)")
        #expect(history.head.rawValue == expected.head, "flip at \(position)")
        #expect(cleared(history.snapshot) == fixture.live[expected.head], "flip at \(position)")
        recovered += 1
      } catch {
        // Detected: a typed error that names where.
        switch error {
        case .journal(.corrupted(let offset, _, _)): #expect(offset >= 0 && offset <= Int64(position) + 48, "flip at \(position) reported at \(offset)")
        case .journal(.notAJournal), .journal(.newerFormat): #expect(position < 64)
        case .journal(.tooLarge): break
        case .invalidRecord(let offset, _, _, _): #expect(offset >= 64)
        default: Issue.record("unexpected error \(error) for a flip at \(position)")
        }
        detected += 1
      }
    }
    #expect(detected + recovered == flips)
    #expect(detected > 0)
  }
}
