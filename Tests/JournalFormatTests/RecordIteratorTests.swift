import Foundation
import Testing
@testable import JournalFormat
import JournalFormatTesting

/// The iterator reads a chunk's records one at a time from its decoded bytes; these pin down
/// that `next()`, `next(into:)` and `forEachRemaining` see the same records, wherever one stops
/// and another goes on, and how a chunk with a malformed record fails.
@Suite struct RecordIteratorTests {
  @Test func nextIntoReadsWhatNextReadsAndLeavesKeptPayloadsAlone() throws {
    let (fs, records) = try batchedJournal()
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(reader.frames.count > 2)
    #expect(reader.frames.contains { $0.recordCount > $0.chunkCount })
    var iterator = reader.makeIterator()
    var record = JournalRecord(kind: .metadata, version: 0, payload: [])
    var read: [JournalRecord] = []
    var kept: [[UInt8]] = []
    while try iterator.next(into: &record) {
      read.append(record)
      // Every third payload stays shared with `kept`, so the next refill must not write into it.
      if read.count % 3 == 0 { kept.append(record.payload) }
    }
    #expect(read == records)
    #expect(kept == records.indices.filter { ($0 + 1) % 3 == 0 }.map { records[$0].payload })
    #expect(try !iterator.next(into: &record))
    #expect(record == records.last)
  }

  @Test(arguments: [0, 1, 7, 40, 299, 300])
  func forEachRemainingGoesOnWhereNextStopped(after count: Int) throws {
    let (fs, records) = try batchedJournal()
    var iterator = try JournalReader.open(at: "/j", fileSystem: fs).makeIterator()
    var read: [JournalRecord] = []
    for _ in 0..<count { read.append(try #require(try iterator.next())) }
    try iterator.forEachRemaining { kind, sequence, version, payload in
      read.append(JournalRecord(kind: kind, sequence: sequence, version: version, payload: Array(payload)))
    }
    #expect(read == records)
    #expect(try iterator.next() == nil)
  }

  /// 300 records appended in batches of 25 (a chunk each), with checkpoints starting frames
  /// inside batches, in frames of about 300 bytes.
  private func batchedJournal() throws -> (FaultInjectingFileSystem, [JournalRecord]) {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, frameTarget: 300))
    var records = (0..<300).map { syntheticRecord($0, checkpointEvery: 40) }
    for start in stride(from: 0, to: records.count, by: 25) { try writer.append(contentsOf: records[start..<(start + 25)]) }
    try writer.close()
    for index in records.indices { records[index].sequence = UInt64(index + 1) }
    return (fs, records)
  }

  /// A chunk whose checksum is right but whose records are not (a writer bug, or a crafted file):
  /// `next()` fails before returning any of its records, `forEachRemaining` after visiting the
  /// ones before the bad bytes; both name the chunk's offset and the reason.
  @Test func malformedChunkFailsBeforeItsRecordsInNextAndAfterThemInForEach() throws {
    var decoded: [UInt8] = []
    for n in 0..<3 { _RecordCodec.append(kind: 1, versionDelta: n == 0 ? 0 : 1, payload: syntheticPayload(n), to: &decoded) }
    decoded.append(0xEE)  // trailing byte after the declared records
    let fileHeader = _FileHeader(salt: 0x5EED, createdAtNanoseconds: 0)
    let compressed = try _ZstdCompressor(level: 3).compress(decoded, endFrame: true)
    let header = _ChunkHeader(
      flags: _ChunkHeader.frameStartFlag | _ChunkHeader.frameEndFlag, compressedLength: UInt32(compressed.count),
      uncompressedLength: UInt32(decoded.count), recordCount: 3, firstSequence: 1, firstVersion: 1, lastVersion: 3)
    let fs = FaultInjectingFileSystem()
    fs.setContents(
      fileHeader.encode() + header.encode(salt: fileHeader.salt, offset: Int64(_FileHeader.size), payload: compressed),
      of: "/j")
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(reader.recordCount == 3)
    let failure = JournalError.corrupted(
      offset: Int64(_FileHeader.size), lastGoodVersion: nil, reason: "1 trailing bytes after the chunk's records")

    var iterator = reader.makeIterator()
    #expect(throws: failure) { try iterator.next() }
    var record = JournalRecord(kind: .metadata, version: 0, payload: [])
    iterator = reader.makeIterator()
    #expect(throws: failure) { try iterator.next(into: &record) }
    #expect(record == JournalRecord(kind: .metadata, version: 0, payload: []))

    iterator = reader.makeIterator()
    var visited: [UInt64] = []
    #expect(throws: failure) { try iterator.forEachRemaining { _, sequence, _, _ in visited.append(sequence) } }
    #expect(visited == [1, 2, 3])
  }
}
