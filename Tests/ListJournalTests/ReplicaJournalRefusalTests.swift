import Foundation
import JournalFormat
import ListJournal
import TestSupport
import Testing

/// A replica journal (first record: a replica header, kind 5) is refused by single-writer
/// stores with a typed error naming the file, instead of opening as an empty list; the file is
/// left exactly as it was.
@Suite struct ReplicaJournalRefusalTests {
  /// A file in the replica layout: a header record, then commit records (the payloads do not
  /// matter to the refusal, which goes by the first record's kind).
  static func writeReplicaJournal(at path: String, commitRecords: Int) throws {
    let writer = try JournalWriter.create(at: path)
    _ = try writer.append(JournalRecord(kind: JournalRecord.Kind(rawValue: 5), version: 0, payload: Array("LJRP".utf8) + [1]))
    for index in 0..<commitRecords {
      _ = try writer.append(JournalRecord(kind: JournalRecord.Kind(rawValue: 6), version: UInt64(index + 1), payload: [1, 0]))
    }
    try writer.close()
  }

  @Test(arguments: [0, 3])
  func storeAndHistoryRefuseAReplicaJournal(commitRecords: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("shared.journal")
    try Self.writeReplicaJournal(at: path, commitRecords: commitRecords)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    #expect(throws: JournalStoreError.replicaJournal(path: path)) { try TextJournal.open(
      at: path,
      configuration: .init(durability: .strict)) }
    #expect(throws: JournalStoreError.replicaJournal(path: path)) {
      try TextJournal.open(at: path, configuration: .init(durability: .relaxed, defersWrites: true))
    }
    #expect(throws: JournalStoreError.replicaJournal(path: path)) { try JournalHistory<TestSection, TestItem>.open(at: path) }
    // The refusal wrote nothing and released the file: a second open is refused the same way.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(throws: JournalStoreError.replicaJournal(path: path)) { try TextJournal.open(
      at: path,
      configuration: .init(durability: .grouped)) }
    // Dropping history is refused too: a replica keeps every commit it exchanged.
    #expect(throws: JournalStoreError.replicaJournal(path: path)) {
      try JournalMaintenance.compact(at: path, keeping: .lastVersions(1), codec: HistoryCodec<TestSection, TestItem>())
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

    // Verification reports it as the problem and writes no read index for it.
    let report = JournalMaintenance.verify(at: path, writingReadIndex: true)
    #expect(report.problem == .replicaJournal(path: path))
    #expect(!report.readIndexWritten)
    #expect(!FileManager.default.fileExists(atPath: path + ".index"))

    let message = JournalStoreError.replicaJournal(path: path).description
    #expect(message == "'\(path)' is a replica of a shared list: open it with ListReplica or `listjournal`'s replica commands")
  }

  /// Only the first record decides: a single-writer journal whose later records have kinds 5
  /// and 6 (unknown kinds, which a replay skips) opens as before.
  @Test func laterRecordsOfReplicaKindsAreSkipped() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("plain.journal")
    do {
      let journal = try TextJournal.open(at: path, configuration: .init(durability: .strict))
      try journal.store.appendSections([TestSection("S")])
      try journal.store.appendItems([TestItem("a")])
      try journal.close()
    }
    do {
      let writer = try JournalWriter.open(at: path)
      _ = try writer.append(JournalRecord(kind: JournalRecord.Kind(rawValue: 5), version: 2, payload: [0]))
      _ = try writer.append(JournalRecord(kind: JournalRecord.Kind(rawValue: 6), version: 2, payload: [0]))
      try writer.close()
    }
    let reopened = try TextJournal.open(at: path, configuration: .init(durability: .strict))
    #expect(reopened.store.snapshot.itemIdentifiers == ["a"])
    #expect(reopened.store.latestVersion == 2)
    try reopened.close()
  }
}
