import Foundation
import ListJournal
import ListLocking
import TestSupport
import Testing

/// What a journal with deferred relaxed writes (records encoded on a background queue) must
/// still do like any other: keep what was encoded before a failure, and let `flush()` be called
/// from wherever the store's lock may be held.
@Suite struct BackgroundEncodingJournalTests {
  typealias Fragile = JournalStore<TestSection, FragileItem>

  /// Ten good commits, then one that cannot be encoded: with deferred writes it is accepted and
  /// fails later; either way the file keeps every version before it.
  @Test(arguments: [false, true])
  func recordsBeforeAnEncodingFailureReachTheFile(deferred: Bool) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("fragile.journal")
    let journal = try Fragile.open(at: path, configuration: .init(durability: .relaxed, defersWrites: deferred))
    try journal.store.appendSections([TestSection("S")])
    for index in 0..<10 { try journal.store.appendItems([FragileItem("i\(index)")]) }
    let bad = Result { try journal.store.appendItems([FragileItem("bad", title: "unencodable")]) }
    #expect((try? bad.get()) == nil || deferred)  // refused at once unless deferred
    _ = try? journal.store.appendItems([FragileItem("after")])
    if deferred {
      // The failure names the record and is never forgotten.
      for _ in 0..<2 {
        #expect {
          try journal.flush()
        } throws: { error in
          guard case JournalStoreError.history(.invalidRecord(let sequence, let reason)) = error else { return false }
          return sequence == 12 && reason.contains("cannot encode")
        }
      }
      #expect(throws: JournalStoreError.self) { try journal.close() }
    } else {
      try journal.close()
    }
    // Deferred: the file ends before the failed record. At once: the failed change left no
    // trace and the next one committed.
    let reopened = try Fragile.open(at: path, configuration: .init(durability: .relaxed))
    #expect(reopened.store.latestVersion == (deferred ? 11 : 12))
    #expect(reopened.store.snapshot.itemIdentifiers == (0..<10).map { "i\($0)" } + (deferred ? [] : ["after"]))
    try reopened.close()
  }

  /// `flush()` never takes the store's lock: it works inside a transaction body (with and
  /// without the background encoder) and from an `onDurable` callback, which `.strict` runs
  /// inside the commit.
  @Test(arguments: [JournalDurability.relaxed, .grouped(maxDelayMilliseconds: 5, maxBytes: 65_536)])
  func flushInsideATransactionBody(durability: JournalDurability) throws {
    let directory = TemporaryDirectory()
    let journal = try TextJournal.open(
      at: directory.file("nested.journal"),
      configuration: .init(durability: durability, defersWrites: true))
    try journal.store.appendSections([TestSection("S")])
    try journal.store.transaction { tx in
      try tx.appendItems([TestItem("a")])
      try journal.flush()  // version 1 is in the file; version 2 is not committed yet
    }
    try journal.sync()  // `.grouped` writes its chunk after a delay: sync, then read
    #expect(try JournalReader.open(at: directory.file("nested.journal")).readAll().filter { $0.kind == .commit }.count == 2)
    try journal.close()
  }

  @Test func flushFromAnOnDurableCallback() throws {
    final class Box: @unchecked Sendable { var journal: TextJournal? }
    let directory = TemporaryDirectory()
    let box = Box()
    let flushed = ListMutex(0)
    let journal = try TextJournal.open(
      at: directory.file("strict.journal"),
      configuration: .init(
        durability: .strict,
        onDurable: { _ in
          if (try? box.journal?.flush()) != nil { flushed.withLock { $0 += 1 } }
        }))
    box.journal = journal
    try journal.store.appendSections([TestSection("S")])
    try journal.store.appendItems([TestItem("a")])
    #expect(flushed.withLock { $0 } >= 2)
    try journal.close()
  }
}
