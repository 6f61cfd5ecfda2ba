import Testing
@testable import JournalFormat
import JournalFormatTesting

/// Repair of damage with intact frames after it: the valid prefix's records, a gap record, then
/// every record from the next frame that starts with a checkpoint — for a chunk whose checksum
/// fails and for one whose checksum passes but which does not decode.
@Suite struct RepairTests {
  /// 60 records (versions 1...60), checkpoints at versions 26 and 51, small frames.
  static let journal = try! buildJournal(count: 60, checkpointEvery: 25, frameTarget: 100)

  @Test(arguments: [false, true])
  func keepsThePrefixAndEverythingFromTheNextCheckpoint(undecodable: Bool) throws {
    let original = try openReader(Self.journal.bytes)
    let checkpointFrame = try #require(original.frames.firstIndex { $0.startsWithCheckpoint })
    let checkpoint = original.frames[checkpointFrame]
    #expect(checkpoint.firstVersion == 26)
    let victim = original.frames[checkpointFrame - 2]
    #expect(victim.offset > 64)
    var bytes = Self.journal.bytes
    if undecodable {
      // Garbage compressed bytes under a valid checksum: only decoding finds the damage.
      let header = try bytes.withUnsafeBytes { raw in
        try _ChunkHeader.parse(raw, at: Int(victim.offset), salt: original.salt, limits: JournalLimits()).get()
      }
      let garbage = [UInt8](repeating: 0xA5, count: Int(header.compressedLength))
      let resealed = header.encode(salt: original.salt, offset: victim.offset, payload: garbage)
      bytes.replaceSubrange(Int(victim.offset)..<(Int(victim.offset) + resealed.count), with: resealed)
      #expect(try openReader(bytes).recovery.corruption == nil)
    } else {
      bytes[Int(victim.offset) + 48] ^= 0xFF
    }
    let fs = FaultInjectingFileSystem()
    fs.setContents(bytes, of: "/j")
    let report = try JournalRepair.repair(at: "/j", options: memoryOptions(fs))

    let prefixCount = Int(victim.firstSequence) - 1
    let size = Int64(bytes.count)
    #expect(report.resumptions == [
      JournalRepair.Resumption(lostVersions: UInt64(prefixCount + 1)...26, offset: checkpoint.offset, checkpointVersion: 26)
    ])
    #expect(report.keptRanges == [64..<victim.offset, checkpoint.offset..<size])
    #expect(report.droppedRanges(fileSize: size) == [victim.offset..<checkpoint.offset])
    #expect(report.keptBytes + report.droppedBytes == size)
    #expect(report.lastGoodVersion == 60)
    var gapPayload: [UInt8] = []
    gapPayload._appendVarint(UInt64(26 - prefixCount))
    let expected = Array(Self.journal.records[..<prefixCount])
      + [JournalRecord(kind: .gap, version: 26, payload: gapPayload)] + Array(Self.journal.records[25...])
    let repaired = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
    #expect(repaired.map(\.kind) == expected.map(\.kind))
    #expect(repaired.map(\.version) == expected.map(\.version))
    #expect(repaired.map(\.payload) == expected.map(\.payload))
    #expect(repaired.map(\.sequence) == (1...UInt64(expected.count)).map { $0 })
    #expect(report.recordCount == UInt64(expected.count))
    let copy = try #require(report.damagedCopyPath)
    #expect(fs.contents(of: copy) == bytes)
    // The repaired journal takes appends.
    let writer = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
    try writer.append(syntheticRecord(60))
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).recordCount == UInt64(expected.count + 1))
  }

  @Test func refusesWhenNothingCanBeKept() throws {
    let journal = try buildJournal(count: 30, checkpointEvery: 0, frameTarget: 100)
    var bytes = journal.bytes
    bytes[64 + 48] ^= 0xFF
    let fs = FaultInjectingFileSystem()
    fs.setContents(bytes, of: "/j")
    #expect {
      try JournalRepair.repair(at: "/j", options: memoryOptions(fs))
    } throws: { error in
      guard case .corrupted(let offset, nil, let reason) = error as? JournalError else { return false }
      return offset == 64 && reason.hasPrefix("nothing can be kept")
    }
    #expect(fs.contents(of: "/j") == bytes)
  }
}
