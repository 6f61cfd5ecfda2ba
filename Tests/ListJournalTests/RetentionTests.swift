import Foundation
import JournalFormat
import ListJournal
import TestSupport
import Testing

/// Dropping old history (`JournalMaintenance.compact(at:keeping:)`): every kept version reads as
/// in the untrimmed journal, every dropped one is a typed error naming where the kept history
/// starts, undo stops there, and the trimmed journal keeps working.
@Suite struct RetentionTests {
  typealias Codec = HistoryCodec<TestSection, TestItem>

  static func writeRandomHistory(at path: String, seed: UInt64, steps: Int) throws {
    var driver = RandomHistoryDriver(seed: seed)
    let clock = TickingClock()
    // Small journal checkpoints, so that cuts fall before, between and after them.
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 2_048, clock: clock.closure)))
    for _ in 0..<steps { try driver.step(journal.store) }
    // A few commits on the head last, so that short tails keep the head (random steps often
    // leave it on an older branch, which a cut then refuses to drop).
    for index in 0..<6 {
      try journal.store.transaction(label: "tail \(index)") { tx in
        if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("tail")]) }
        try tx.appendItems([TestItem("tail \(seed) \(index)")])
      }
    }
    try journal.close()
  }

  static func copy(_ from: String, to: String) throws {
    try? FileManager.default.removeItem(atPath: to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
  }

  /// The model of a cut: the first kept commit is the newest `count` versions' first (or the
  /// first at or after `since`), the kept history starts at its parent; a version is kept when
  /// its parents reach that version (or version 0, never dropped) without passing below the
  /// first kept commit.
  struct Cut {
    var firstKept: Int
    var keptFrom: Int

    init?(latest: Int, firstKept: Int, reference: TextStore) {
      guard firstKept >= 2 else { return nil }
      self.firstKept = firstKept
      keptFrom = firstKept <= latest ? reference.info(for: Version(firstKept))!.parent!.rawValue : reference.head.rawValue
    }

    func isKept(_ version: Int, in reference: TextStore) -> Bool {
      if version == 0 || version == keptFrom { return true }
      var cursor = version
      while cursor >= firstKept { cursor = reference.info(for: Version(cursor))!.parent!.rawValue }
      return (cursor == keptFrom || cursor == 0) && version >= firstKept
    }
  }

  /// Everything the trimmed journal shows, against the untrimmed one.
  static func expectTrimmed(
    _ trimmed: TextStore, reference: TextStore, cut: Cut, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let latest = reference.latestVersion.rawValue
    #expect(trimmed.latestVersion == reference.latestVersion, sourceLocation: sourceLocation)
    #expect(trimmed.head == reference.head, sourceLocation: sourceLocation)
    #expect(cleared(trimmed.snapshot) == cleared(reference.snapshot), sourceLocation: sourceLocation)
    #expect(trimmed.keptHistoryStart == Version(cut.keptFrom), sourceLocation: sourceLocation)
    var kept: [Int] = []
    for version in 0...latest {
      let number = Version(version)
      if cut.isKept(version, in: reference) {
        kept.append(version)
        #expect(try trimmed.state(at: number) == reference.state(at: number), "state at \(version)", sourceLocation: sourceLocation)
        if version != cut.keptFrom {
          #expect(trimmed.info(for: number) == reference.info(for: number), "info of \(version)", sourceLocation: sourceLocation)
          #expect(try trimmed.events(of: number) == reference.events(of: number), "events of \(version)", sourceLocation: sourceLocation)
        } else if version > 0 {
          #expect(trimmed.info(for: number)?.parent == nil, sourceLocation: sourceLocation)
        }
      } else {
        #expect(trimmed.info(for: number) == nil, "v\(version) is dropped", sourceLocation: sourceLocation)
        #expect(throws: HistoryError.versionDropped(number, keptFrom: Version(cut.keptFrom)), sourceLocation: sourceLocation) {
          _ = try trimmed.state(at: number)
        }
      }
    }
    // Changes between kept versions: as before between two descendants of the kept start (or
    // two of version 0, checked out after the cut); a typed error between the two.
    func root(_ version: Int) -> Int {
      var cursor = version
      while let parent = trimmed.info(for: Version(cursor))?.parent { cursor = parent.rawValue }
      return cursor
    }
    var random = SeededRandom(seed: UInt64(latest))
    for _ in 0..<40 where kept.count > 2 {
      let from = kept.randomElement(using: &random)!
      let to = kept.randomElement(using: &random)!
      if root(from) == root(to) {
        #expect(
          try trimmed.events(from: Version(from), to: Version(to)) == reference.events(from: Version(from), to: Version(to)),
          "events \(from) → \(to)", sourceLocation: sourceLocation)
      } else {
        #expect(
          throws: HistoryError.pathDropped(from: Version(from), to: Version(to), keptFrom: Version(cut.keptFrom)),
          sourceLocation: sourceLocation
        ) { _ = try trimmed.events(from: Version(from), to: Version(to)) }
      }
    }
  }

  @Test(arguments: 1...8 as ClosedRange<UInt64>)
  func keptVersionsReadAsBeforeAndDroppedOnesAreNamed(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let original = directory.file("original.journal")
    try Self.writeRandomHistory(at: original, seed: seed, steps: propertySteps(500))
    let reference = try JournalHistory.open(at: original, codec: Codec()).store
    let latest = reference.latestVersion.rawValue
    var random = SeededRandom(seed: seed &* 7_919)
    var trimmedOnce = 0
    for attempt in 0..<8 {
      let path = directory.file("trimmed-\(attempt).journal")
      try Self.copy(original, to: path)
      let retention: JournalRetention
      let firstKept: Int
      if attempt % 3 == 2 {
        let pick = Int.random(in: 1...latest + 1, using: &random)
        let time = pick <= latest ? reference.info(for: Version(pick))!.timestamp : 2e9
        retention = .since(timestamp: time)
        firstKept = (1...latest).first { reference.info(for: Version($0))!.timestamp >= time } ?? latest + 1
      } else {
        // Short tails half the time: a random history's head often sits on an older branch.
        let count = attempt % 2 == 0 ? Int.random(in: 1...min(latest, 12), using: &random) : Int.random(in: 1...latest + 2, using: &random)
        retention = .lastVersions(count)
        firstKept = latest - count + 1
      }
      guard let cut = Cut(latest: latest, firstKept: firstKept, reference: reference) else {
        let report = try JournalMaintenance.compact(at: path, keeping: retention, codec: Codec())
        #expect(report.droppedVersions == 0 && report.keptFrom == Version(0))
        #expect(try JournalHistory.open(at: path, codec: Codec()).versions == JournalHistory.open(at: original, codec: Codec()).versions)
        continue
      }
      guard cut.isKept(reference.head.rawValue, in: reference) else {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: JournalStoreError.retentionDropsHead(head: reference.head, keptFrom: Version(cut.keptFrom))) {
          _ = try JournalMaintenance.compact(at: path, keeping: retention, codec: Codec())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused trim leaves the journal as it was")
        continue
      }
      let report = try JournalMaintenance.compact(at: path, keeping: retention, codec: Codec())
      #expect(report.keptFrom == Version(cut.keptFrom))
      let dropped = (1..<cut.firstKept).count { $0 != cut.keptFrom }
      #expect(report.droppedVersions == dropped)
      trimmedOnce += 1
      try Self.expectTrimmed(try JournalHistory.open(at: path, codec: Codec()).store, reference: reference, cut: cut)

      // Undo walks back to where the kept history starts and stops there with a typed error.
      let journal = try TextJournal.open(at: path, configuration: .init(durability: .relaxed))
      var steps = 0
      while journal.store.canUndo {
        try journal.store.undo()
        #expect(cleared(journal.store.snapshot) == cleared(try reference.state(at: journal.store.head)))
        steps += 1
      }
      // The kept start, or version 0 when the head descends from a checkout to it after the cut.
      var start = reference.head.rawValue
      while start >= cut.firstKept { start = reference.info(for: Version(start))!.parent!.rawValue }
      #expect(journal.store.head == Version(start) && steps > 0 || reference.head.rawValue == start)
      #expect(throws: HistoryError.nothingToUndo(at: journal.store.head)) { try journal.store.undo() }
      if cut.keptFrom > 0 {
        if cut.keptFrom > 1 {
          #expect(throws: HistoryError.versionDropped(Version(1), keptFrom: Version(cut.keptFrom))) {
            try journal.store.checkout(Version(1))
          }
        }
      }
      // The trimmed journal takes new commits and keeps its start across a reopen.
      try journal.store.transaction(label: "after the trim") { tx in
        if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("new")]) }
        try tx.appendItems([TestItem("added after the trim \(attempt)")])
      }
      let added = cleared(journal.store.snapshot)
      try journal.close()
      let reopened = try JournalHistory.open(at: path, codec: Codec()).store
      #expect(reopened.keptHistoryStart == Version(cut.keptFrom))
      #expect(cleared(reopened.snapshot) == added)
      #expect(reopened.latestVersion.rawValue == latest + 1)
    }
    #expect(trimmedOnce > 0 || latest < 3, "seed \(seed) never trimmed")
  }

  @Test func aTrimmedJournalTrimsAgainAndItsStartCostsNoVersionNodes() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("linear.journal")
    let journal = try TextJournal.open(at: path, configuration: .init(durability: .relaxed))
    try journal.store.appendSections([TestSection("S")])
    for index in 0..<3_000 { try journal.store.appendItems([TestItem("item \(index)")]) }
    let head = cleared(journal.store.snapshot)
    try journal.close()
    let reference = try JournalHistory.open(at: path, codec: Codec()).store

    let first = try JournalMaintenance.compact(at: path, keeping: .lastVersions(1_000), codec: Codec())
    #expect(first.keptFrom == Version(2_001) && first.droppedVersions == 2_000)
    let second = try JournalMaintenance.compact(at: path, keeping: .lastVersions(10), codec: Codec())
    #expect(second.keptFrom == Version(2_991) && second.droppedVersions == 990)
    // Keeping more than the journal still holds drops nothing more.
    let third = try JournalMaintenance.compact(at: path, keeping: .lastVersions(500), codec: Codec())
    #expect(third.droppedVersions == 0 && third.keptFrom == Version(2_991))

    let trimmed = try JournalHistory.open(at: path, codec: Codec()).store
    #expect(cleared(trimmed.snapshot) == head)
    try Self.expectTrimmed(trimmed, reference: reference, cut: Cut(latest: 3_001, firstKept: 2_992, reference: reference)!)
    #expect(trimmed._storedVersionNodes == 1 + 11, "version 0, the kept start and its 10 descendants")
  }

  @Test func anOlderReaderRefusesARetentionGapAndARepairGapKeepsItsForm() throws {
    var codec = Codec()
    let repair = try codec.encode(.gap(HistoryGap(latestVersion: 9, lostCount: 4)), sequence: 1)
    #expect(repair.payload == [4], "a repair's gap is written as before")
    let retention = try codec.encode(.gap(HistoryGap(latestVersion: 9, lostCount: 9, reason: .retention)), sequence: 1)
    #expect(retention.payload == [9, 1])
    guard case .gap(let decoded) = try codec.decode(retention) else { Issue.record("not a gap"); return }
    #expect(decoded.reason == .retention && decoded.lostCount == 9)
    var unknown = retention
    unknown.payload = [9, 2]
    #expect(throws: HistoryCodecError.self) { _ = try codec.decode(unknown) }
  }

  @Test func aRetentionGapAnywhereButFirstIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("late-gap.journal")
    let writer = try JournalWriter.open(at: path, createIfMissing: true)
    var codec = Codec()
    let store = TextStore()
    try store.appendSections([TestSection("S")])
    let commit = HistoryCommit<TestSection, TestItem>(
      version: Version(1), parent: Version(0), timestamp: 1, label: nil, events: try store.events(of: Version(1)))
    for content: HistoryRecordContent<TestSection, TestItem> in [
      .commit(commit), .gap(HistoryGap(latestVersion: 3, lostCount: 2, reason: .retention)),
      .checkpoint(HistoryCheckpoint(head: Version(3), latestVersion: Version(3), snapshot: store.snapshot)),
    ] {
      let record = try codec.encode(content, sequence: 0)
      _ = try writer.append(JournalRecord(kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    }
    try writer.close()
    #expect {
      _ = try JournalHistory.open(at: path, codec: Codec())
    } throws: { error in
      "\(error)".contains("only the first record may drop history")
    }
  }
}
