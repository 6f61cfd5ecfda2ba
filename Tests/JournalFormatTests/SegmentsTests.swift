import Testing
@testable import JournalFormat
import JournalFormatTesting

/// `JournalReader.openSegments`: after damage, reading resumes at the next intact frame start;
/// every record it returns is the original one, and none is invented.
@Suite struct SegmentsTests {
  static let journal = try! buildJournal(count: 60, checkpointEvery: 25, frameTarget: 100)

  static func segments(_ bytes: [UInt8]) throws(JournalError) -> JournalSegments {
    let fs = FaultInjectingFileSystem()
    fs.setContents(bytes, of: "/j")
    return try JournalReader.openSegments(at: "/j", fileSystem: fs)
  }

  /// Every chunk's offset, walking the headers' lengths.
  static func chunkOffsets(_ bytes: [UInt8]) -> [Int] {
    var offsets: [Int] = []
    var offset = _FileHeader.size
    while offset + _ChunkHeader.size <= bytes.count {
      offsets.append(offset)
      let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + 8 + $1]) << (8 * $1) }
      offset += _ChunkHeader.size + length
    }
    return offsets
  }

  @Test func anUndamagedJournalIsOneSegment() throws {
    let segments = try Self.segments(Self.journal.bytes)
    #expect(segments.readers.count == 1)
    #expect(try segments.readers[0].readAll() == Self.journal.records)
    #expect(segments.newestVersion == Self.journal.records.last?.version)
  }

  /// A flipped byte in each record's chunk: the prefix before it, then every record from the
  /// next frame start on, exactly as written.
  @Test func damageInEveryChunkResumesAtTheNextFrameStart() throws {
    let journal = Self.journal
    let intact = try openReader(journal.bytes)
    for index in 0..<journal.records.count {
      var bytes = journal.bytes
      let chunkEnd = journal.commitEnds[index]
      let chunkStart = Self.chunkOffsets(journal.bytes).last { $0 < chunkEnd }!
      bytes[chunkEnd - 1] ^= 0x5A
      let segments = try Self.segments(bytes)
      #expect(try segments.readers[0].readAll() == Array(journal.records.prefix(index)), "record \(index)")
      // The first frame that starts after the damaged chunk.
      let resume = intact.frames.first { $0.offset > Int64(chunkStart) }
      var later: [JournalRecord] = []
      for reader in segments.readers.dropFirst() { later += try reader.readAll() }
      if let resume {
        let first = Int(resume.firstSequence) - 1
        #expect(later == Array(journal.records[first...]), "record \(index)")
        #expect(segments.readers[1].frames.first?.offset == resume.offset, "record \(index)")
      } else {
        #expect(later.isEmpty, "record \(index)")
      }
      // Damage in the file's last chunk is a torn tail; any other is reported with its offset.
      if chunkEnd < bytes.count {
        guard case .corrupted(let offset, _, _)? = segments.readers[0].recovery.corruption else {
          Issue.record("record \(index): damage not reported")
          continue
        }
        #expect(offset == Int64(chunkStart), "record \(index)")
        #expect(segments.newestVersion == journal.records.last?.version, "record \(index)")
      }
    }
  }

  @Test func aDamagedHeaderIsStillAnError() throws {
    var bytes = Self.journal.bytes
    bytes[20] ^= 0x01
    #expect(throws: JournalError.self) { try Self.segments(bytes) }
  }
}
