import Foundation
import JournalFormatTesting
import ListJournal
import TestSupport
import Testing

/// Faults injected under a journal-backed store (the in-memory `FaultInjectingFileSystem`).
@Suite struct StoreFaultInjectionTests {
  static func options(_ fs: FaultInjectingFileSystem) -> JournalOptions {
    var options = JournalOptions()
    options.fileSystem = fs
    return options
  }

  @Test(arguments: [1, 2, 3])
  func failedWriteFailsTheCommitAndLeavesTheStoreUnchanged(failingWrite: Int) throws {
    let fs = FaultInjectingFileSystem()
    let journal = try TextJournal.open(at: "/j", configuration: .init(durability: .strict, options: Self.options(fs)))
    try journal.store.appendSections([TestSection("S")])
    try journal.store.appendItems([TestItem("a")])
    fs.inject(.write, onCall: failingWrite)
    var acknowledged = journal.store.head
    var state = cleared(journal.store.snapshot)
    var failed = false
    for index in 0..<5 {
      let head = journal.store.head
      let latest = journal.store.latestVersion
      let before = cleared(journal.store.snapshot)
      do {
        try journal.store.appendItems([TestItem("n\(index)")])
        #expect(!failed, "no commit succeeds after the writer failed")
        #expect(journal.isDurable(journal.store.head))
        acknowledged = journal.store.head
        state = cleared(journal.store.snapshot)
      } catch {
        failed = true
        // All-or-nothing: the store is exactly as before.
        #expect(journal.store.head == head)
        #expect(journal.store.latestVersion == latest)
        #expect(cleared(journal.store.snapshot) == before)
        #expect(journal.isClosed)
      }
    }
    #expect(failed)
    // Undo and redo fail the same way, store unchanged.
    #expect(throws: (any Error).self) { try journal.store.undo() }
    #expect(journal.store.head == acknowledged)
    // Reopen: every acknowledged commit is there, the failed ones are not.
    fs.crash(.dropUnsynced)
    fs.clearFaults()
    let reopened = try TextJournal.open(at: "/j", configuration: .init(durability: .strict, options: Self.options(fs)))
    #expect(reopened.store.head == acknowledged)
    #expect(cleared(reopened.store.snapshot) == state)
  }

  @Test func fsyncFailureClosesTheWriter() throws {
    let fs = FaultInjectingFileSystem()
    let journal = try TextJournal.open(at: "/j", configuration: .init(durability: .strict, options: Self.options(fs)))
    try journal.store.appendSections([TestSection("S")])
    fs.inject(.sync, onCall: 1)
    let before = cleared(journal.store.snapshot)
    #expect(throws: JournalError.self) { try journal.store.appendItems([TestItem("a")]) }
    #expect(journal.isClosed)
    #expect(cleared(journal.store.snapshot) == before)
    #expect(journal.durableVersion == 1)
    // Never retried: later changes fail without touching the file.
    let writes = fs.count(of: .write)
    #expect(throws: JournalError.self) { try journal.store.appendItems([TestItem("b")]) }
    #expect(fs.count(of: .write) == writes)
  }

  @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7] as [UInt64])
  func acknowledgedCommitsSurviveACrash(seed: UInt64) throws {
    let fs = FaultInjectingFileSystem()
    var driver = RandomHistoryDriver(seed: seed)
    let durability: JournalDurability = seed % 2 == 0 ? .strict : .relaxed
    let journal = try TextJournal.open(
      at: "/j",
      configuration: .init(
        durability: durability, options: Self.options(fs), store: .init(journalCheckpointBytes: 300)))
    var acknowledged: [(version: Version, head: Version, latest: Version)] = []
    for step in 0..<60 {
      try driver.step(journal.store)
      if durability == .relaxed && step % 9 == 4 { try journal.sync() }
      if journal.isDurable(journal.store.latestVersion) {
        acknowledged.append((journal.durableVersion, journal.store.head, journal.store.latestVersion))
      }
    }
    let durable = journal.durableVersion
    fs.crash(.tearUnsynced(seed: seed))
    let reopened = try TextJournal.open(at: "/j", configuration: .init(durability: .strict, options: Self.options(fs)))
    // Every acknowledged version survives, with exactly its live state; nothing half-applied.
    #expect(reopened.store.latestVersion >= durable)
    for number in 0...reopened.store.latestVersion.rawValue {
      #expect(try reopened.store.state(at: Version(number)) == driver.live[number])
    }
    #expect(cleared(reopened.store.snapshot) == driver.live[reopened.store.head.rawValue])
    if durability == .strict { #expect(reopened.store.latestVersion == journal.store.latestVersion) }
  }

  @Test func durabilityCallbackReportsVersionsInOrder() throws {
    let fs = FaultInjectingFileSystem()
    final class Seen: @unchecked Sendable {
      let lock = NSLockish()
      var versions: [Int] = []
    }
    let seen = Seen()
    let journal = try TextJournal.open(
      at: "/j",
      configuration: .init(
        durability: .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: 1 << 20), options: Self.options(fs),
        onDurable: { version in seen.lock.withLock { seen.versions.append(version.rawValue) } }))
    try journal.store.appendSections([TestSection("S")])
    try journal.store.appendItems([TestItem("a")])
    #expect(!journal.isDurable(2))
    try journal.makeDurable(through: 2)
    #expect(journal.isDurable(2))
    try journal.store.appendItems([TestItem("b")])
    try journal.close()
    #expect(journal.durableVersion == 3)
    #expect(seen.lock.withLock { seen.versions } == [2, 3])
  }
}

/// A tiny lock for test bookkeeping.
final class NSLockish: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  init() { pthread_mutex_init(&mutex, nil) }
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return try body()
  }
}
