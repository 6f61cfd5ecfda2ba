import Foundation
import Testing
@testable import JournalFormat
import JournalFormatTesting

/// Iterator copies and failures: a copy keeps reading its own chunk's records, a chunk is never
/// handed out by `next()` unchecked, and a malformed chunk stops the iterator for good.
@Suite struct RecordIteratorRobustnessTests {
  /// One frame, two chunks with the same layout (2 records of 8 bytes) but different payloads.
  private func twoChunkJournal(secondPayloadCount: Int = 8) throws -> (JournalReader, [JournalRecord]) {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, frameTarget: 1 << 20))
    var records = [
      JournalRecord(kind: .commit, version: 1, payload: [UInt8](repeating: 0xAA, count: 8)),
      JournalRecord(kind: .commit, version: 2, payload: [UInt8](repeating: 0xAB, count: 8)),
      JournalRecord(kind: .commit, version: 3, payload: [UInt8](repeating: 0xBA, count: secondPayloadCount)),
      JournalRecord(kind: .commit, version: 4, payload: [UInt8](repeating: 0xBB, count: secondPayloadCount)),
    ]
    _ = try writer.append(contentsOf: records[0..<2])
    _ = try writer.append(contentsOf: records[2..<4])
    try writer.close()
    for index in records.indices { records[index].sequence = UInt64(index + 1) }
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(reader.frames.count == 1)
    #expect(reader.frames[0].chunkCount >= 2)
    return (reader, records)
  }

  /// A copy of an iterator keeps reading the chunk it was in: the records it still has to hand
  /// out must not change because the other copy decoded the next chunk.
  @Test func copiedIteratorKeepsItsChunksRecords() throws {
    let (reader, records) = try twoChunkJournal()
    var a = reader.makeIterator()
    #expect(try a.next() == records[0])
    var b = a  // both are mid-chunk 1
    #expect(try a.next() == records[1])
    #expect(try a.next() == records[2])  // decodes chunk 2 into the shared decompressor buffer
    #expect(try b.next() == records[1])
  }

  /// `chunks` chunks of two records each (distinct payloads), in frames of about `frameTarget`
  /// bytes.
  private func journal(chunks: Int, frameTarget: Int) throws -> (JournalReader, [JournalRecord]) {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, frameTarget: frameTarget))
    var records: [JournalRecord] = []
    for chunk in 0..<chunks {
      let pair = (0..<2).map { index in
        let version = UInt64(records.count + index + 1)
        return JournalRecord(kind: .commit, version: version, payload: (0..<16).map { UInt8(truncatingIfNeeded: Int(version) &* 31 &+ $0 &+ chunk) })
      }
      _ = try writer.append(contentsOf: pair)
      records += pair
    }
    try writer.close()
    for index in records.indices { records[index].sequence = UInt64(index + 1) }
    return (try JournalReader.open(at: "/j", fileSystem: fs), records)
  }

  private func drain(_ iterator: inout JournalRecordIterator) throws -> [JournalRecord] {
    var all: [JournalRecord] = []
    while let record = try iterator.next() { all.append(record) }
    return all
  }

  /// Copies read independently, through many chunks of one frame: each hands out every record
  /// after the point where it was copied, whichever runs ahead (they share one zstd stream
  /// until one of them moves on).
  @Test func copiesReadEveryLaterChunkOfTheFrame() throws {
    let (reader, records) = try journal(chunks: 6, frameTarget: 1 << 20)
    #expect(reader.frames.count == 1)
    #expect(reader.frames[0].chunkCount >= 6)
    for copiedAfter in [1, 2, 5] {
      var a = reader.makeIterator()
      for _ in 0..<copiedAfter { _ = try a.next() }
      var b = a
      var c = a
      #expect(try drain(&a) == Array(records[copiedAfter...]), "copied after \(copiedAfter)")
      #expect(try drain(&b) == Array(records[copiedAfter...]), "copied after \(copiedAfter)")
      // Interleaved with a fourth copy.
      var d = c
      var fromC: [JournalRecord] = []
      var fromD: [JournalRecord] = []
      while true {
        let first = try c.next()
        let second = try d.next()
        if let first { fromC.append(first) }
        if let second { fromD.append(second) }
        if first == nil && second == nil { break }
      }
      #expect(fromC == Array(records[copiedAfter...]))
      #expect(fromD == Array(records[copiedAfter...]))
    }
  }

  /// The same across frames: a copy that enters the next frame leaves the other's stream alone.
  @Test func copiesReadEveryLaterFrame() throws {
    let (reader, records) = try journal(chunks: 12, frameTarget: 100)
    #expect(reader.frames.count > 2)
    var a = reader.makeIterator()
    for _ in 0..<3 { _ = try a.next() }
    var b = a
    #expect(try drain(&a) == Array(records[3...]))
    #expect(try drain(&b) == Array(records[3...]))
    var c = reader.makeIterator()
    var record = JournalRecord(kind: .metadata, version: 0, payload: [])
    _ = try c.next(into: &record)
    var d = c
    var visited: [UInt64] = []
    try d.forEachRemaining { _, sequence, _, _ in visited.append(sequence) }
    #expect(visited == records[1...].map(\.sequence))
    #expect(try drain(&c) == Array(records[1...]))
  }
}

extension RecordIteratorRobustnessTests {
  /// Same, with a larger second chunk: decoding it needs a larger buffer, which must not free the
  /// one the copy still reads.
  @Test func copiedIteratorAfterBufferRealloc() throws {
    let (reader, records) = try twoChunkJournal(secondPayloadCount: 64 * 1024)
    var a = reader.makeIterator()
    #expect(try a.next() == records[0])
    var b = a
    #expect(try a.next() == records[1])
    #expect(try a.next() == records[2])
    #expect(try b.next() == records[1])
  }

  private func chunk(_ records: [(version: UInt64, payload: [UInt8])], firstSequence: UInt64, trailing: [UInt8] = [],
                     salt: UInt64, offset: Int) throws -> [UInt8] {
    var decoded: [UInt8] = []
    var previous = records[0].version
    for r in records {
      _RecordCodec.append(kind: 1, versionDelta: r.version - previous, payload: r.payload, to: &decoded)
      previous = r.version
    }
    decoded += trailing
    let compressed = try _ZstdCompressor(level: 3).compress(decoded, endFrame: true)
    let header = _ChunkHeader(
      flags: _ChunkHeader.frameStartFlag | _ChunkHeader.frameEndFlag, compressedLength: UInt32(compressed.count),
      uncompressedLength: UInt32(decoded.count), recordCount: UInt32(records.count), firstSequence: firstSequence,
      firstVersion: records[0].version, lastVersion: records.last!.version)
    return header.encode(salt: salt, offset: Int64(offset), payload: compressed)
  }

  /// Frame 1: a malformed chunk (3 records, 1 trailing byte); frame 2: a good one (records 4–5).
  private func malformedThenGood() throws -> JournalReader {
    let fileHeader = _FileHeader(salt: 0x5EED, createdAtNanoseconds: 0)
    var bytes = fileHeader.encode()
    bytes += try chunk([(1, [1]), (2, [2]), (3, [3])], firstSequence: 1, trailing: [0xEE], salt: fileHeader.salt, offset: bytes.count)
    bytes += try chunk([(4, [4]), (5, [5])], firstSequence: 4, salt: fileHeader.salt, offset: bytes.count)
    let fs = FaultInjectingFileSystem()
    fs.setContents(bytes, of: "/j")
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(reader.frames.count == 2)
    return reader
  }

  struct Stop: Error {}

  /// `next()` promises a malformed chunk fails before any of its records is returned; after a
  /// `forEachRemaining` whose body threw inside such a chunk, it hands the chunk's records out.
  @Test func nextAfterForEachBodyThrewHandsOutMalformedChunksRecords() throws {
    var iterator = try malformedThenGood().makeIterator()
    #expect(throws: JournalError.self) {
      try iterator.forEachRemaining { _, _, _, _ throws(JournalError) in throw JournalError.corrupted(offset: 0, lastGoodVersion: nil, reason: "stop") }
    }
    var got: [UInt64] = []
    #expect(throws: JournalError.self) { while let record = try iterator.next() { got.append(record.sequence) } }
    #expect(got.isEmpty)
  }

  /// After a malformed chunk, every later call fails again, whichever way the iterator met it
  /// (`forEachRemaining` had moved past it and `next()` went on after it).
  @Test func nextAfterForEachFailureSkipsTheBadChunk() throws {
    let reader = try malformedThenGood()
    var viaNext = reader.makeIterator()
    #expect(throws: JournalError.self) { try viaNext.next() }
    #expect(throws: JournalError.self) { try viaNext.next() }
    var viaForEach = reader.makeIterator()
    #expect(throws: JournalError.self) { try viaForEach.forEachRemaining { _, _, _, _ in } }
    var after: [UInt64] = []
    #expect(throws: JournalError.self) { while let record = try viaForEach.next() { after.append(record.sequence) } }
    #expect(after.isEmpty)
  }
}
