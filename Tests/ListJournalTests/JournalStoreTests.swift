import Foundation
import JournalFormatTesting
import ListJournal
import ListLocking
import TestSupport
import Testing

@Suite struct JournalStoreTests {
  @Test func createAppendReopen() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let clock = TickingClock()
    do {
      let journal = try TextJournal.open(
        at: path,
        configuration: .init(durability: .strict, store: .init(clock: clock.closure)))
      try journal.store.appendSections([TestSection("Fruit")])
      try journal.store.appendItems([TestItem("Apple"), TestItem("Pear")])
      try journal.store.moveItem("Pear", beforeItem: "Apple")
      try journal.store.undo()
      #expect(journal.durableVersion == 3)
      try journal.close()
    }
    let reopened = try TextJournal.open(at: path, configuration: .init(durability: .strict))
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
      let journal = try TextJournal.open(
        at: path,
        configuration: .init(durability: .relaxed, options: options, store: .init(clock: clock.closure)))
      try journal.store.appendSections([TestSection("S")])
      try edit(journal, 0)
      try journal.close()
      // Reopened with default options: the file's minor decides.
      let reopened = try TextJournal.open(
        at: path,
        configuration: .init(durability: .relaxed, store: .init(clock: clock.closure)))
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
    let journal = try TextJournal.open(at: path, configuration: .init(durability: .relaxed, defersWrites: true))
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
    let reopened = try TextJournal.open(at: path, configuration: .init(durability: .strict))
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
    let journal = try TextJournal.open(at: path, configuration: .init(durability: durability, defersWrites: true))
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
    let journal = try TextJournal.open(at: path, configuration: .init(durability: .relaxed, defersWrites: true))
    try journal.store.appendSections([TestSection("S")])
    let content = String(repeating: "x", count: 1_000)
    for index in 0..<200 { try journal.store.appendItems([TestItem("i\(index)", content: content)]) }
    // More than 64 KiB of records were held: the older ones were handed to the background
    // writer and reach the file without a flush (the rest stay held). With `.relaxed` the
    // changes are encoded in the background too, taken in batches of 64: at least 192 of
    // them (over 190 KB) reached the sink.
    var written = try versionsInFile(path)
    let deadline = ContinuousClock.now + .seconds(20)
    while written.isEmpty && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.002)
      written = try versionsInFile(path)
    }
    try #require(!written.isEmpty)
    #expect(written.count > 50 && written.count < 201)
    #expect(written == Array(1...UInt64(written.count)))
    try journal.close()
    #expect(try versionsInFile(path) == Array(1...201))
    #expect(throws: JournalError.writerClosed(cause: "closed")) { try journal.store.appendItems([TestItem("late")]) }
  }

  @Test func aFailedDeferredWriteFailsTheFlushAndClosesTheWriter() throws {
    let fs = FaultInjectingFileSystem()
    var options = JournalOptions()
    options.fileSystem = fs
    let journal = try TextJournal.open(
      at: "/j",
      configuration: .init(durability: .relaxed, options: options, defersWrites: true))
    try journal.store.appendSections([TestSection("S")])
    try journal.flush()
    try journal.store.appendItems([TestItem("a")])
    fs.inject(.write, onCall: 1)
    #expect(throws: JournalStoreError.self) { try journal.flush() }
    #expect(journal.isClosed)
    #expect(throws: JournalError.self) { try journal.store.appendItems([TestItem("b")]) }
    #expect(journal.store.latestVersion == 2)  // visible, never written nor durable
    let reopened = try TextJournal.open(at: "/j", configuration: .init(durability: .relaxed, options: options))
    #expect(reopened.store.latestVersion == 1)
    try reopened.close()
  }
}

/// `defersWrites` hands full batches to a background writer: the file still gets every record in
/// the store's order, `flush` still means "in the file", and a failed background write is never
/// lost. The file is always checked with a separate reader, never by asking the journal.
@Suite struct JournalStoreBackgroundWriteTests {
  static func options(_ fs: FaultInjectingFileSystem) -> JournalOptions {
    var options = JournalOptions()
    options.fileSystem = fs
    return options
  }

  /// A distinct content string of about 1 KB (distinct, so the codec's intern table does not
  /// shrink it): a 64 KiB batch is about 130 steps of `MixedHistory`.
  static func content(_ index: Int) -> String { "\(index) " + String(repeating: "abcdefgh", count: 128) }

  /// Drives a mixed history — appends, deletions keeping the list short (small checkpoints, so
  /// many of them), undos and checkouts to older versions (branches) — and records each
  /// version's state.
  struct MixedHistory {
    var live: [Int: TestSnapshot] = [0: TestSnapshot()]
    var nextItem = 0

    mutating func start(_ store: TextStore) throws {
      try store.appendSections([TestSection("S")])
      live[store.head.rawValue] = cleared(store.snapshot)
    }

    mutating func step(_ store: TextStore, _ step: Int) throws {
      if step % 17 == 16, store.canUndo {
        try store.undo()
      } else if step % 41 == 40 {
        try store.checkout(Version(store.latestVersion.rawValue / 2))
      } else if step % 2 == 1, let oldest = store.snapshot.itemIdentifiers.first, store.snapshot.itemIdentifiers.count > 8 {
        try store.deleteItems([oldest])
        live[store.head.rawValue] = cleared(store.snapshot)
      } else {
        if store.snapshot.sectionIdentifiers.isEmpty { try store.appendSections([TestSection("S\(step)")]) }
        nextItem += 1
        try store.appendItems([TestItem("i\(nextItem)", content: content(nextItem))])
        live[store.head.rawValue] = cleared(store.snapshot)
      }
    }
  }

  /// The newest version among the records in the file now (a head move carries the newest
  /// version too): every record up to it is in the file, since records are written in order.
  static func lastVersionInFile(_ path: String) throws -> UInt64 {
    try JournalReader.open(at: path).frames.last?.lastVersion ?? 0
  }

  @Test func manyBatchesWithCheckpointsReachTheFileInOrderAtFlush() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let gate = GatedWriteFileSystem(base: POSIXFileSystem())
    var options = JournalOptions()
    options.fileSystem = gate
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: .relaxed, options: options, store: .init(journalCheckpointBytes: 16 * 1024), defersWrites: true))
    var history = MixedHistory()
    try history.start(journal.store)
    for step in 0..<2_750 { try history.step(journal.store, step) }
    // The last two or three batches wait behind a shut gate (fewer than the four the store may
    // hand over before it waits for room): the flush must wait for them.
    gate.shut()
    for step in 2_750..<3_000 { try history.step(journal.store, step) }
    gate.reopen(after: 0.05)
    try journal.flush()

    // Read by another reader, as another process would.
    let latest = journal.store.latestVersion.rawValue
    let records = try JournalReader.open(at: path).readAll()
    #expect(records.filter { $0.kind == .commit }.map(\.version) == Array(1...UInt64(latest)))
    #expect(zip(records, records.dropFirst()).allSatisfy { $0.version <= $1.version })
    let checkpoints = records.filter { $0.kind == .checkpoint }.count
    #expect(checkpoints > 12)
    #expect(records.filter { $0.kind == .headMove }.count > 100)
    let reader = try JournalReader.open(at: path)
    #expect(reader.frames.filter(\.startsWithCheckpoint).count == checkpoints)
    #expect(reader.recovery.tornTailBytes == 0)
    // Far more than one batch: most of them were written in the background.
    #expect(reader.frames.reduce(0) { $0 + $1.uncompressedBytes } > 20 * 64 * 1024)

    let replayed = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointInterval: 64)
    #expect(replayed.latestVersion == journal.store.latestVersion)
    #expect(replayed.head == journal.store.head)
    #expect(replayed.snapshot == journal.store.snapshot)
    #expect(replayed.versions.count == latest + 1)
    for version in 0...latest {
      #expect(try replayed.store.state(at: Version(version)) == history.live[version], "version \(version)")
      #expect(replayed.store.info(for: Version(version))?.parent == journal.store.info(for: Version(version))?.parent)
    }
    try journal.close()
  }

  /// With `.relaxed` deferred writes the records are encoded on a background queue too, and
  /// checkpoints follow a lagged rule that depends on the records alone: the same changes give
  /// the same records and frames however the threads run — here once with fast writes and once
  /// with every write slowed down (the encoder then waits for room, and the store for it).
  @Test func recordsDoNotDependOnTimingOfTheBackgroundWork() throws {
    let directory = TemporaryDirectory()
    func write(_ name: String, delay: Double) throws -> (records: [JournalRecord], frames: [String]) {
      let path = directory.file(name)
      var options = JournalOptions()
      options.fileSystem = GatedWriteFileSystem(base: POSIXFileSystem(), delay: delay)
      let clock = TickingClock()
      let journal = try TextJournal.open(
        at: path,
        configuration: .init(
          durability: .relaxed, options: options,
          store: .init(journalCheckpointBytes: 16 * 1024, clock: clock.closure), defersWrites: true))
      var history = MixedHistory()
      try history.start(journal.store)
      for step in 0..<2_000 { try history.step(journal.store, step) }
      try journal.close()
      let reader = try JournalReader.open(at: path)
      let frames = reader.frames.map { "\($0.firstVersion)-\($0.lastVersion) \($0.startsWithCheckpoint)" }
      return (try reader.readAll(), frames)
    }
    let fast = try write("fast.journal", delay: 0)
    let slow = try write("slow.journal", delay: 0.002)
    #expect(fast.records.filter { $0.kind == .checkpoint }.count > 10)
    #expect(fast.records.count == slow.records.count)
    // The first record that differs (nil: none), not two whole journals in a failure message.
    var firstDifference: Int?
    for (index, (a, b)) in zip(fast.records, slow.records).enumerated() where firstDifference == nil {
      if a.kind != b.kind || a.version != b.version || a.payload != b.payload { firstDifference = index }
    }
    #expect(firstDifference == nil, "records differ from index \(firstDifference ?? -1) on")
    #expect(fast.frames == slow.frames)
  }

  /// The `failingWrite`-th `pwrite` after the first commit fails, typically on the background
  /// writer while the store goes on committing.
  @Test(arguments: [1, 3, 8, 20])
  func aFailedBackgroundWriteSurfacesAndKeepsAConsistentPrefix(failingWrite: Int) throws {
    let fs = FaultInjectingFileSystem()
    let journal = try TextJournal.open(
      at: "/j",
      configuration: .init(
        durability: .relaxed, options: Self.options(fs),
        store: .init(journalCheckpointBytes: 16 * 1024), defersWrites: true))
    var history = MixedHistory()
    try history.start(journal.store)
    try journal.flush()
    fs.inject(.write, onCall: failingWrite)
    var confirmed = 1  // the newest version a successful flush covered
    var failure: (any Error)?
    for step in 0..<6_000 {
      do {
        try history.step(journal.store, step)
      } catch {
        failure = error
        break
      }
      if step % 500 == 499 {
        let covered = journal.store.latestVersion.rawValue
        do {
          try journal.flush()
          confirmed = covered
        } catch {
          failure = error
          break
        }
      }
    }
    // The injected EIO, typed: from a commit (a JournalError) or from `flush` (wrapped).
    switch failure {
    case let error as JournalError: #expect(Self.isInjectedWriteFailure(error), "\(error)")
    case JournalStoreError.journal(let error) as JournalStoreError: #expect(Self.isInjectedWriteFailure(error), "\(error)")
    default: Issue.record("expected the injected write failure, got \(String(describing: failure))")
    }
    #expect(journal.isClosed)
    // Never forgotten: every later change, flush and close fails with it.
    let latest = journal.store.latestVersion
    #expect(throws: JournalError.self) { try journal.store.appendItems([TestItem("late")]) }
    #expect(journal.store.latestVersion == latest)
    for _ in 0..<2 {
      #expect { try journal.flush() } throws: { error in
        guard case JournalStoreError.journal(let error) = error else { return false }
        return Self.isInjectedWriteFailure(error)
      }
    }
    #expect(throws: JournalStoreError.self) { try journal.close() }

    // The file (no crash: what was written is in the page cache) holds a prefix of the
    // history: every version a flush confirmed, each with exactly its live state.
    let reopened = try TextJournal.open(
      at: "/j",
      configuration: .init(durability: .relaxed, options: Self.options(fs), store: .init(checkpointInterval: 64)))
    let recovered = reopened.store.latestVersion.rawValue
    #expect(recovered >= confirmed)
    #expect(journal.durableVersion.rawValue <= recovered)
    // Up to where the failed write cut the batch (its chunks before the failed one are in the
    // file: it may have been a checkpoint's, after every commit so far).
    #expect(recovered <= latest.rawValue)
    for version in 0...recovered {
      #expect(try reopened.store.state(at: Version(version)) == history.live[version], "version \(version)")
    }
    try reopened.close()
  }

  /// The injected `EIO` itself (not a later `writerClosed`): the failure is kept as it was.
  static func isInjectedWriteFailure(_ error: JournalError) -> Bool {
    guard case .io(let operation, _, let code) = error else { return false }
    return operation.contains("injected write") && code == EIO
  }

  @Test func flushFromAnotherThreadWhileCommitting() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    // Slow writes: the flushes often find a batch in flight and must wait for it.
    var options = JournalOptions()
    options.fileSystem = GatedWriteFileSystem(base: POSIXFileSystem(), delay: 0.005)
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: .relaxed, options: options, store: .init(journalCheckpointBytes: 16 * 1024), defersWrites: true))
    var history = MixedHistory()
    try history.start(journal.store)
    let committing = ListMutex(true)
    let problems = ListMutex<[String]>([])
    let iterations = ListMutex(0)
    let flusherDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      defer { flusherDone.signal() }
      while committing.withLock({ $0 }) || iterations.withLock({ $0 }) < 300 {
        let covered = UInt64(journal.store.latestVersion.rawValue)
        do {
          try journal.flush()
          // Everything committed before the flush is in the file when it returns.
          let inFile = try Self.lastVersionInFile(path)
          if inFile < covered { problems.withLock { $0.append("flushed through \(covered), file ends at \(inFile)") } }
        } catch {
          problems.withLock { $0.append("\(error)") }
          return
        }
        iterations.withLock { $0 += 1 }
      }
    }
    for step in 0..<3_000 { try history.step(journal.store, step) }
    committing.withLock { $0 = false }
    flusherDone.wait()
    #expect(problems.withLock { $0 } == [])
    #expect(iterations.withLock { $0 } >= 300)

    try journal.flush()
    let latest = journal.store.latestVersion.rawValue
    #expect(try JournalReader.open(at: path).readAll().filter { $0.kind == .commit }.map(\.version) == Array(1...UInt64(latest)))
    let replayed = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec(), checkpointInterval: 64)
    #expect(replayed.snapshot == journal.store.snapshot)
    for version in stride(from: 0, through: latest, by: 7) {
      #expect(try replayed.store.state(at: Version(version)) == history.live[version], "version \(version)")
    }
    try journal.close()
  }

  @Test func closeWithBatchesInFlightMakesEverythingDurable() throws {
    let fs = FaultInjectingFileSystem()
    let gate = GatedWriteFileSystem(base: fs)
    var options = JournalOptions()
    options.fileSystem = gate
    let journal = try TextJournal.open(
      at: "/j",
      configuration: .init(
        durability: .relaxed, options: options, store: .init(journalCheckpointBytes: 16 * 1024), defersWrites: true))
    var history = MixedHistory()
    try history.start(journal.store)
    for step in 0..<1_000 { try history.step(journal.store, step) }
    // No flush, and the last two or three full batches wait behind a shut gate: close must
    // write them (and the held records) before it syncs and closes the file.
    gate.shut()
    for step in 1_000..<1_250 { try history.step(journal.store, step) }
    gate.reopen(after: 0.05)
    try journal.close()
    let latest = journal.store.latestVersion
    #expect(journal.durableVersion == latest)
    #expect(throws: JournalError.writerClosed(cause: "closed")) { try journal.store.appendItems([TestItem("late")]) }
    try journal.close()  // idempotent

    fs.crash(.dropUnsynced)  // only what close synced survives
    let reopened = try TextJournal.open(
      at: "/j",
      configuration: .init(durability: .relaxed, options: Self.options(fs), store: .init(checkpointInterval: 64)))
    #expect(reopened.store.latestVersion == latest)
    #expect(reopened.store.head == journal.store.head)
    #expect(reopened.store.snapshot == journal.store.snapshot)
    for version in stride(from: 0, through: latest.rawValue, by: 5) {
      #expect(try reopened.store.state(at: Version(version)) == history.live[version], "version \(version)")
    }
    try reopened.close()
  }
}

/// A file system whose writes can be held back (each waits while the gate is shut) or slowed
/// down; everything else passes through. It keeps background batches in flight for as long as a
/// test needs, so a flush or close that did not wait for them would be caught.
final class GatedWriteFileSystem: JournalFileSystem {
  let base: any JournalFileSystem
  /// Seconds each write takes longer.
  let delay: Double
  private let isShut = ListMutex(false)

  init(base: any JournalFileSystem, delay: Double = 0) {
    self.base = base
    self.delay = delay
  }

  /// Writes from now on wait until ``reopen(after:)``.
  func shut() { isShut.withLock { $0 = true } }

  /// Lets writes through again, `seconds` from now (on another thread; returns at once).
  func reopen(after seconds: Double) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.isShut.withLock { $0 = false } }
  }

  /// Waits (polling: a test helper) while the gate is shut, then for `delay`.
  func waitForWrite() {
    while isShut.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
  }

  func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle {
    HookedFile(try base.open(path, mode: mode), beforeWrite: { self.waitForWrite() })
  }
  func rename(_ from: String, to: String) throws(JournalError) { try base.rename(from, to: to) }
  func remove(_ path: String) throws(JournalError) { try base.remove(path) }
  func exists(_ path: String) -> Bool { base.exists(path) }
  func syncDirectory(containing path: String) throws(JournalError) { try base.syncDirectory(containing: path) }
}
