import Foundation
import Testing
import TestSupport
@testable import JournalFormat
import JournalFormatTesting

@Suite struct RoundTripTests {
  @Test(arguments: [JournalDurability.strict, .grouped, .relaxed])
  func appendedRecordsReadBack(durability: JournalDurability) throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, durability))
    var expected: [JournalRecord] = []
    for n in 0..<300 {
      var record = syntheticRecord(n, checkpointEvery: 100)
      let receipt = try writer.append(record)
      #expect(receipt.sequence == UInt64(n + 1))
      if durability == .strict { #expect(receipt.isDurable) }
      record.sequence = receipt.sequence
      expected.append(record)
    }
    try writer.close()
    #expect(writer.durableSequence == 300)
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll() == expected)
    #expect(reader.recovery.tornTailBytes == 0)
    #expect(reader.nextSequence == 301)
    #expect(reader.lastVersion == 300)
    #expect(reader.frames.count >= 3)
    #expect(reader.frames.allSatisfy { $0.isTerminated })
  }

  @Test func reopenContinuesInNewFrameAndKeepsNumbering() throws {
    let fs = FaultInjectingFileSystem()
    var writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs))
    for n in 0..<10 { try writer.append(syntheticRecord(n)) }
    try writer.close()
    writer = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
    #expect(writer.nextSequence == 11)
    #expect(writer.lastVersion == 10)
    #expect(throws: JournalError.versionOutOfOrder(version: 3, previous: 10)) {
      try writer.append(JournalRecord(kind: .commit, version: 3, payload: []))
    }
    for n in 10..<20 { try writer.append(syntheticRecord(n)) }
    try writer.close()
    let records = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
    #expect(records.map(\.sequence) == Array(1...20))
    #expect(records.map(\.payload) == (0..<20).map(syntheticPayload))
  }

  @Test func emptyAndLargeRecordsRoundTrip() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, .grouped))
    let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
    try writer.append(JournalRecord(kind: .metadata, version: 0, payload: []))
    try writer.append(JournalRecord(kind: .commit, version: 1, payload: big))
    try writer.append(JournalRecord(kind: .init(rawValue: 200), version: 1, payload: [9]))
    try writer.close()
    let records = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
    #expect(records.map(\.payload) == [[], big, [9]])
    #expect(records[2].kind.rawValue == 200)
  }

  @Test func oversizedAppendIsRefused() throws {
    let fs = FaultInjectingFileSystem()
    var options = memoryOptions(fs)
    options.limits.maxRecordPayload = 100
    let writer = try JournalWriter.create(at: "/j", options: options)
    #expect(throws: JournalError.self) { try writer.append(JournalRecord(kind: .commit, version: 1, payload: .init(repeating: 0, count: 101))) }
    try writer.append(JournalRecord(kind: .commit, version: 1, payload: [1]))
    try writer.close()
  }

  /// A record within the payload limit but too large for one chunk is refused at append, and
  /// the writer stays open (it failed when its chunk was written, which shut the writer down).
  @Test func aRecordLargerThanAChunkIsRefusedAtAppend() throws {
    let fs = FaultInjectingFileSystem()
    var options = memoryOptions(fs)
    options.limits.maxRecordPayload = 8_000
    options.limits.maxChunkBytes = 4_000
    let writer = try JournalWriter.create(at: "/j", options: options)
    // Random bytes: zstd cannot shrink them under the chunk limit either.
    var random = SeededRandom(seed: 9)
    let payload = (0..<6_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    #expect(throws: JournalError.self) { try writer.append(JournalRecord(kind: .commit, version: 1, payload: payload)) }
    try writer.append(JournalRecord(kind: .commit, version: 1, payload: [1]))
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll().map(\.payload) == [[1]])
  }

  @Test func groupedModeBecomesDurableBySyncOrTimer() async throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, .grouped(maxDelayMilliseconds: 2, maxBytes: 1 << 20)))
    let receipt = try writer.append(syntheticRecord(0))
    #expect(!receipt.isDurable)
    for _ in 0..<200 where writer.durableSequence < 1 { try await Task.sleep(nanoseconds: 5_000_000) }
    #expect(writer.durableSequence == 1)
    try writer.append(syntheticRecord(1))
    try writer.sync()
    #expect(writer.durableSequence == 2)
    try writer.close()
  }

  /// Grouped durability's shared `fdatasync` runs without the writer's lock: appends go on while
  /// a sync is stuck in the disk, and only what was written before the sync is reported durable.
  @Test(arguments: [false, true])
  func groupedSyncDoesNotBlockAppends(fullGroup: Bool) throws {
    let fs = FaultInjectingFileSystem()
    let gate = SyncGate(fs)
    var options = memoryOptions(fs, .grouped(maxDelayMilliseconds: fullGroup ? 3_600_000 : 1, maxBytes: fullGroup ? 64 : 1 << 20))
    options.fileSystem = gate
    let writer = try JournalWriter.create(at: "/j", options: options)
    gate.blockSyncs()
    // The first group (by size or by the timer) starts a sync, which blocks.
    var appended = 0
    while !gate.isBlocked {
      try writer.append(syntheticRecord(appended))
      appended += 1
      if !fullGroup { usleep(1_000) }
    }
    let durableWhileBlocked = writer.durableSequence
    for _ in 0..<50 {
      try writer.append(syntheticRecord(appended))
      appended += 1
    }
    #expect(writer.durableSequence == durableWhileBlocked, "nothing became durable while the sync was stuck")
    gate.release()
    try writer.sync()
    #expect(writer.durableSequence == UInt64(appended))
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll().count == appended)
  }

  /// The durability callback runs without the writer's locks: it may call back into the writer.
  @Test func durabilityCallbackMayCallBackIntoTheWriter() throws {
    final class Box: @unchecked Sendable {
      let lock = NSLock()
      var writer: JournalWriter?
      var calls = 0
    }
    let box = Box()
    let fs = FaultInjectingFileSystem()
    var options = memoryOptions(fs, .grouped(maxDelayMilliseconds: 1, maxBytes: 64))
    options.onDurable = { _ in
      let writer = box.lock.withLock {
        box.calls += 1
        return box.writer
      }
      try? writer?.sync()
      _ = writer?.durableSequence
    }
    let writer = try JournalWriter.create(at: "/j", options: options)
    box.lock.withLock { box.writer = writer }
    for n in 0..<200 { try writer.append(syntheticRecord(n)) }
    try writer.sync()
    try writer.close()
    #expect(box.lock.withLock { box.calls } > 0)
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll().count == 200)
  }

  @Test func crc32cMatchesKnownVector() {
    let value = Array("123456789".utf8).withUnsafeBytes { _CRC32C.checksum($0) }
    #expect(value == 0xE306_9283)
    let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
    var split = _CRC32C()
    long[0..<333].withUnsafeBytes { split.update($0) }
    long[333...].withUnsafeBytes { split.update($0) }
    #expect(split.value == long.withUnsafeBytes { _CRC32C.checksum($0) })
  }

  /// The CPU's instruction (where this machine has one) and the tables agree at every length,
  /// alignment and split.
  @Test func crc32cInstructionMatchesTheTables() {
    var random = SeededRandom(seed: 32)
    let buffer = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &random) }
    var tables = _CRC32C()
    tables.updateWithTables(UnsafeRawBufferPointer(start: nil, count: 0))
    for _ in 0..<2_000 {
      let start = Int.random(in: 0..<buffer.count, using: &random)
      let end = Int.random(in: start...min(buffer.count, start + Int.random(in: 0...300, using: &random)), using: &random)
      let split = Int.random(in: start...end, using: &random)
      var instruction = _CRC32C()
      var table = _CRC32C()
      buffer[start..<split].withUnsafeBytes { instruction.update($0); table.updateWithTables($0) }
      buffer[split..<end].withUnsafeBytes { instruction.update($0); table.updateWithTables($0) }
      #expect(instruction.value == table.value, "bytes \(start)..<\(end) split at \(split)")
    }
    #expect(Array("123456789".utf8).withUnsafeBytes { bytes in
      var crc = _CRC32C()
      crc.updateWithTables(bytes)
      return crc.value
    } == 0xE306_9283)
  }
}
