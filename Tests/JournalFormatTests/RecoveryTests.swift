import Testing
@testable import JournalFormat
import JournalFormatTesting

/// The reliability regime: truncation at every offset, bit flips, bursts.
@Suite struct RecoveryTests {
  static let journal = try! buildJournal(count: 60, checkpointEvery: 25, frameTarget: 100)

  @Test func multiFrameFixture() throws {
    let reader = try openReader(Self.journal.bytes)
    #expect(reader.frames.count >= 4)
    #expect(reader.frames.filter(\.startsWithCheckpoint).count == 2)
    #expect(try reader.readAll() == Self.journal.records)
  }

  /// Every prefix opens (reader and writer) to exactly the longest committed prefix.
  @Test func truncationAtEveryOffsetRecoversLongestCommittedPrefix() throws {
    let journal = Self.journal
    for size in 0...journal.bytes.count {
      let prefix = Array(journal.bytes[0..<size])
      guard size >= _FileHeader.size else {
        #expect(throws: JournalError.notAJournal(path: "/j")) { try openReader(prefix) }
        continue
      }
      let expected = journal.committedCount(within: size)
      let reader = try openReader(prefix)
      let records = try reader.readAll()
      #expect(records == Array(journal.records.prefix(expected)), "size \(size)")
      #expect(reader.recovery.validBytes + reader.recovery.tornTailBytes == Int64(size))

      // The writer drops the tail and appends after the last complete commit.
      if size % 7 == 0 || size == journal.bytes.count {
        let fs = FaultInjectingFileSystem()
        fs.setContents(prefix, of: "/j")
        let writer = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
        #expect(writer.recovery.tornTailBytes == reader.recovery.tornTailBytes)
        let next = JournalRecord(kind: .commit, version: UInt64(expected + 1), payload: [0xAB])
        try writer.append(next)
        try writer.close()
        let after = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
        #expect(after.count == expected + 1, "size \(size)")
        #expect(Array(after.prefix(expected)) == Array(journal.records.prefix(expected)))
        #expect(after.last?.payload == [0xAB])
      }
    }
  }

  /// Outcome of opening damaged bytes: detected (typed error with an offset) or a prefix.
  static func checkDamaged(_ bytes: [UInt8], original: BuiltJournal, context: String) {
    do {
      let reader = try openReader(bytes)
      let records = try reader.readAll()
      let expected = Array(original.records.prefix(records.count))
      #expect(records == expected, "silently different state: \(context)")
      // Fewer records than the bytes' length allows must come with a torn-tail report.
      if records.count < original.committedCount(within: bytes.count) {
        #expect(reader.recovery.tornTailBytes > 0, "records lost without a torn-tail report: \(context)")
      }
    } catch {
      switch error {
      case .corrupted(let offset, _, _): #expect(offset >= 0 && offset < Int64(bytes.count), "\(context)")
      case .notAJournal: break
      default: Issue.record("unexpected error \(error): \(context)")
      }
    }
  }

  @Test func everySingleBitFlipIsDetectedOrTornTail() throws {
    let journal = try buildJournal(count: 60, checkpointEvery: 25, frameTarget: 100)
    var flips = 0
    var bit = 0
    // Every bit of a ~2.6 KB journal, and a second journal to pass 20,000 flips.
    for source in [journal, try buildJournal(count: 45, checkpointEvery: 0, frameTarget: 10_000)] {
      var bytes = source.bytes
      for index in 0..<(bytes.count * 8) {
        bytes[index / 8] ^= 1 << UInt8(index % 8)
        Self.checkDamaged(bytes, original: source, context: "bit \(index)")
        bytes[index / 8] ^= 1 << UInt8(index % 8)
        flips += 1
        bit += 1
      }
    }
    #expect(flips >= 20_000)
  }

  @Test func randomBurstsAreDetectedOrTornTail() throws {
    let journal = Self.journal
    var rng = _SplitMix64(seed: 7)
    for round in 0..<1500 {
      var bytes = journal.bytes
      let start = Int(rng.next() % UInt64(bytes.count))
      let length = min(bytes.count - start, 1 + Int(rng.next() % 80))
      let mode = rng.next() % 3
      for i in start..<(start + length) {
        bytes[i] = mode == 0 ? 0 : mode == 1 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
      }
      Self.checkDamaged(bytes, original: journal, context: "burst \(round) at \(start)+\(length)")
      // A burst followed by truncation.
      let cut = start + length + Int(rng.next() % 200)
      Self.checkDamaged(Array(bytes.prefix(cut)), original: journal, context: "burst+cut \(round)")
    }
  }

  @Test func midFileCorruptionNamesOffsetAndVersion() throws {
    let journal = Self.journal
    let reader = try openReader(journal.bytes)
    let victim = reader.frames[1]
    var bytes = journal.bytes
    bytes[Int(victim.offset) + _ChunkHeader.size + 2] ^= 0x10
    do {
      _ = try openReader(bytes)
      Issue.record("corruption not detected")
    } catch {
      #expect(error == .corrupted(offset: victim.offset, lastGoodVersion: reader.frames[0].lastVersion, reason: "chunk checksum mismatch; a valid chunk follows at byte \(Int(victim.offset) + Int(victim.byteCount) - (victim.chunkCount > 1 ? Int(victim.byteCount) - firstChunkSize(bytes, at: Int(victim.offset)) : 0))"))
      #expect(error.description.contains("byte offset \(victim.offset)"))
    }
    // Tolerant reader: the prefix before the damage stays readable.
    let tolerant = try openReader(bytes, tolerateCorruption: true)
    #expect(tolerant.recovery.corruption != nil)
    #expect(try tolerant.readAll() == Array(journal.records.prefix(Int(reader.frames[0].recordCount))))
  }

  private func firstChunkSize(_ bytes: [UInt8], at offset: Int) -> Int {
    bytes.withUnsafeBytes { _ChunkHeader.size + Int($0._loadLE(UInt32.self, at: offset + 8)) }
  }

  @Test func chunkFromAnotherJournalIsRejected() throws {
    let a = try buildJournal(count: 5, checkpointEvery: 0)
    let b = try buildJournal(count: 5, checkpointEvery: 0)
    // Same layout, different salt: b's chunks spliced into a's file fail their checksums.
    var spliced = Array(a.bytes[0..<_FileHeader.size]) + Array(b.bytes[_FileHeader.size...])
    #expect(try openReader(spliced).readAll().isEmpty)
    // Valid chunk moved to another offset (duplicated) fails too.
    spliced = a.bytes + Array(a.bytes[_FileHeader.size..<a.commitEnds[0]])
    let reader = try openReader(spliced)
    #expect(try reader.readAll() == a.records)
    #expect(reader.recovery.tornTailBytes == Int64(a.commitEnds[0] - _FileHeader.size))
  }

  @Test func newerMajorVersionIsRefusedClearly() throws {
    var header = _FileHeader(salt: 1, createdAtNanoseconds: 0)
    header.major = 2
    header.minor = 5
    #expect(throws: JournalError.newerFormat(major: 2, minor: 5, supportedMajor: 1)) { try openReader(header.encode()) }
    #expect(JournalError.newerFormat(major: 2, minor: 5, supportedMajor: 1).description.contains("newer"))
    var bytes = Self.journal.bytes
    bytes[9] = 1  // major 257 but checksum now wrong: reported as damage, not as a newer format
    #expect(throws: JournalError.corrupted(offset: 0, lastGoodVersion: nil, reason: "file header checksum mismatch")) { try openReader(bytes) }
    #expect(throws: JournalError.notAJournal(path: "/j")) { try openReader(Array("hello, this is not a journal at all; it is long enough to be one".utf8)) }
  }

  @Test func hostileLengthsAreBoundedNotAllocated() throws {
    // A forged chunk with a valid checksum claiming a huge uncompressed size is refused by the cap.
    var limits = JournalLimits()
    limits.maxChunkBytes = 1 << 16
    let salt: UInt64 = 99
    var file = _FileHeader(salt: salt, createdAtNanoseconds: 0).encode()
    let forged = _ChunkHeader(flags: 1, compressedLength: 4, uncompressedLength: 1 << 30, recordCount: 1, firstSequence: 1, firstVersion: 1, lastVersion: 1)
    file += forged.encode(salt: salt, offset: Int64(file.count), payload: [0x28, 0xB5, 0x2F, 0xFD])
    let fs = FaultInjectingFileSystem()
    fs.setContents(file, of: "/j")
    let reader = try JournalReader.open(at: "/j", limits: limits, fileSystem: fs)
    #expect(reader.recordCount == 0)
    #expect(reader.recovery.tornTailBytes > 0)
    // Within the cap but lying about its size: decoding fails with the chunk's offset.
    var file2 = _FileHeader(salt: salt, createdAtNanoseconds: 0).encode()
    let liar = _ChunkHeader(flags: 3, compressedLength: 9, uncompressedLength: 1000, recordCount: 10, firstSequence: 1, firstVersion: 1, lastVersion: 1)
    file2 += liar.encode(salt: salt, offset: 64, payload: [0x28, 0xB5, 0x2F, 0xFD, 0, 0, 1, 0, 0])
    fs.setContents(file2, of: "/k")
    let reader2 = try JournalReader.open(at: "/k", fileSystem: fs)
    #expect(throws: JournalError.self) { try reader2.readAll() }
    do { _ = try reader2.readAll() } catch { #expect(error.description.contains("offset 64")) }
  }
}
