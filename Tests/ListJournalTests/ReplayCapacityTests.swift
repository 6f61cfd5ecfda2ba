import Foundation
@testable import ListJournal
import TestSupport
import Testing

/// A replay reserves the history's room from the record counts of the journal's chunk headers,
/// which nothing has checked against the records at that point: an untrusted file can claim
/// any count. The room stays bounded by the file's size, and a real journal gets its count.
@Suite struct ReplayCapacityTests {
  @Test func aClaimedCountIsBoundedByTheFileSize() {
    // Claims of billions from a small file: a record per 4 bytes at most.
    #expect(_JournalReplay.expectedRecordCount(claimed: .max, fileBytes: 1_000) == 250)
    #expect(_JournalReplay.expectedRecordCount(claimed: 1 << 40, fileBytes: 8 << 20) == 2 << 20)
    // Never more than 2^25 records (about 4 GiB of address space), whatever the file.
    #expect(_JournalReplay.expectedRecordCount(claimed: .max, fileBytes: .max) == 1 << 25)
    // Nothing for an empty or nonsensical size.
    #expect(_JournalReplay.expectedRecordCount(claimed: 100, fileBytes: 0) == 0)
    #expect(_JournalReplay.expectedRecordCount(claimed: 100, fileBytes: -5) == 0)
    // A journal like the benchmark's (10.4M records in 118 MB) gets its own count.
    #expect(_JournalReplay.expectedRecordCount(claimed: 10_420_037, fileBytes: 117_898_620) == 10_420_037)
  }

  /// On a real journal the hint is its record count, and the replay gives the live store.
  @Test func aRealJournalIsReservedItsRecordCount() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("count.journal")
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(clock: TickingClock().closure)))
    for index in 0..<300 { try journal.store.appendSections([TestSection("s\(index)")]) }
    try journal.close()
    let reader = try JournalReader.open(at: path)
    #expect(reader.recordCount >= 300)
    #expect(_JournalReplay.expectedRecordCount(of: reader) == Int(reader.recordCount))
    let history = try JournalHistory<TestSection, TestItem>.open(at: path, codec: HistoryCodec())
    #expect(history.store.eventCount == 300)
  }
}
