import Foundation
import Testing
@testable import JournalFormat

/// With `grouped` durability most chunks are compressed and written by the sync thread without
/// the writer's lock, while appends continue into the next chunk (and a full group or a
/// checkpoint may need a chunk written at the same moment). The file must read back exactly,
/// in order, checkpoints at frame starts; a failed write on that thread closes the writer and
/// keeps every acknowledged record.
@Suite struct GroupedSyncThreadTests {
  /// Appends records `range` with short pauses, so the 1 ms timer writes chunks while appends go
  /// on; returns how many were attempted and the failure that stopped it.
  static func appendWithPauses(_ writer: JournalWriter, _ range: Range<Int>, checkpointEvery: Int) -> (attempted: Int, failure: JournalError?) {
    for n in range {
      do { try writer.append(syntheticRecord(n, checkpointEvery: checkpointEvery)) } catch { return (n + 1, error) }
      if n % 97 == 0 { usleep(1_500) }
    }
    return (range.upperBound, nil)
  }

  @Test(arguments: [64, 4_096])
  func chunksWrittenBesideAppendsReadBackInOrder(maxBytes: Int) throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(
      at: "/j", options: memoryOptions(fs, .grouped(maxDelayMilliseconds: 1, maxBytes: maxBytes), frameTarget: 2_000))
    let count = 3_000
    let result = Self.appendWithPauses(writer, 0..<count, checkpointEvery: 150)
    #expect(result.failure == nil)
    try writer.close()
    #expect(writer.durableSequence == UInt64(count))
    // Reopening verifies every chunk (checksums, sequences, frame structure).
    let reopened = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
    #expect(reopened.recovery.tornTailBytes == 0)
    try reopened.close()
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    let records = try reader.readAll()
    #expect(records.count == count)
    for (n, record) in records.enumerated() {
      var expected = syntheticRecord(n, checkpointEvery: 150)
      expected.sequence = UInt64(n + 1)
      #expect(record == expected)
    }
    // Every checkpoint starts a frame, so time travel can begin there.
    let checkpointFrames = reader.frames.filter(\.startsWithCheckpoint).count
    #expect(checkpointFrames == (count - 1) / 150)
  }

  @Test(arguments: [false, true])
  func failedWriteOnTheSyncThreadClosesTheWriterAndKeepsAcknowledged(persistent: Bool) throws {
    for n in 1...8 {
      let fs = FaultInjectingFileSystem()
      let writer = try JournalWriter.create(
        at: "/j", options: memoryOptions(fs, .grouped(maxDelayMilliseconds: 1, maxBytes: 256), frameTarget: 2_000))
      fs.inject(.write, onCall: n * 2, persistent: persistent)
      var attempted = 0
      var acknowledged = 0
      var failure: JournalError?
      // Until the failure reaches an append (the writer is closed for good after it).
      for round in 0..<200 where failure == nil {
        // Checkpoints every 20 records, as `checkSurvivors` expects.
        let result = Self.appendWithPauses(writer, (round * 50)..<(round * 50 + 50), checkpointEvery: 20)
        attempted = result.attempted
        failure = result.failure
        acknowledged = Int(writer.durableSequence)
        usleep(2_000)
      }
      #expect(failure != nil, "write #\(n * 2) never failed an append")
      #expect(writer.isClosed)
      if persistent { fs.clearFaults() }
      try FaultInjectionTests.checkSurvivors(fs, acknowledged: acknowledged, attempted: attempted, context: "write #\(n * 2)")
    }
  }
}
