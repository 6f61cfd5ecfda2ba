import Testing
@testable import JournalFormat
import JournalFormatTesting

/// `JournalWriter.append(contentsOf:)`: several records in one chunk, all or none.
@Suite struct BatchAppendTests {
  @Test(arguments: [JournalDurability.strict, .grouped, .relaxed])
  func aBatchIsOneChunkAndReadsBackLikeSingleAppends(durability: JournalDurability) throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, durability, frameTarget: 1 << 20))
    try writer.append(syntheticRecord(0))
    let batch = (1..<40).map { syntheticRecord($0) }
    let receipt = try #require(try writer.append(contentsOf: batch))
    #expect(receipt.sequence == 40)
    #expect(receipt.version == 40)
    if durability == .strict { #expect(receipt.isDurable) }
    #expect(try writer.append(contentsOf: [JournalRecord]()) == nil)
    try writer.close()
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    let records = try reader.readAll()
    #expect(records.map(\.sequence) == Array(1...40))
    #expect(records.map(\.payload) == (0..<40).map(syntheticPayload))
    // One chunk for the single append, one for the batch (grouped may also merge them), and the
    // empty frame-ending chunk of `close`.
    #expect(reader.frames.count == 1)
    #expect(reader.frames[0].chunkCount <= 3)
  }

  @Test func aCheckpointInsideABatchStillStartsAFrame() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, .relaxed, frameTarget: 1 << 20))
    let batch = (0..<30).map { syntheticRecord($0, checkpointEvery: 10) }
    try writer.append(contentsOf: batch)
    try writer.close()
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll().map(\.payload) == batch.map(\.payload))
    #expect(reader.frames.map(\.startsWithCheckpoint) == [false, true, true])
  }

  @Test func aBadRecordRefusesTheWholeBatch() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, .relaxed))
    try writer.append(syntheticRecord(4))  // version 5
    let outOfOrder = [syntheticRecord(5), syntheticRecord(2), syntheticRecord(6)]
    #expect(throws: JournalError.versionOutOfOrder(version: 3, previous: 6)) { try writer.append(contentsOf: outOfOrder) }
    #expect(throws: JournalError.invalidArgument("record kind 0 is reserved")) {
      try writer.append(contentsOf: [syntheticRecord(5), JournalRecord(kind: .init(rawValue: 0), version: 7, payload: [])])
    }
    // Nothing of either batch was taken; the writer goes on.
    #expect(writer.nextSequence == 2)
    try writer.append(contentsOf: [syntheticRecord(5), syntheticRecord(6)])
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll().map(\.version) == [5, 6, 7])
  }
}
