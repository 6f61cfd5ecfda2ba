import Foundation
import Testing
@testable import JournalFormat
import JournalFormatTesting

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

  /// The journal at "/j" holds `syntheticRecord(n, checkpointEvery:)` for n in 0..<count, in
  /// order, and reopens without a torn tail (reopening verifies every chunk: checksums,
  /// sequences, frame structure); returns a reader of it.
  static func expectReadsBack(_ fs: FaultInjectingFileSystem, count: Int, checkpointEvery: Int) throws -> JournalReader {
    let reopened = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
    #expect(reopened.recovery.tornTailBytes == 0)
    try reopened.close()
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    let records = try reader.readAll()
    #expect(records.count == count)
    for (n, record) in records.enumerated() {
      var expected = syntheticRecord(n, checkpointEvery: checkpointEvery)
      expected.sequence = UInt64(n + 1)
      #expect(record == expected, "record \(n)")
    }
    return reader
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
    let reader = try Self.expectReadsBack(fs, count: count, checkpointEvery: 150)
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

  /// How the chunk the sync thread is writing while a checkpoint waits for it ends.
  enum InFlightChunkEnd: CaseIterable, Sendable {
    case written
    /// Its write fails, which closes the writer.
    case writeFails
    /// It is written, and another thread's `close()` is already waiting for that thread.
    case closedMeanwhile
  }

  /// A checkpoint appended while the sync thread writes a chunk without the lock must wait for
  /// that write (its frame ends with the records appended meanwhile, and the checkpoint starts
  /// the next). Held at a gate, the chunk stays in flight until the checkpoint is seen waiting;
  /// however the write then ends, the checkpoint append returns — appended in order, or refused
  /// by a closed writer — and the file keeps every acknowledged record. A hang fails after a
  /// generous timeout.
  @Test(arguments: InFlightChunkEnd.allCases)
  func checkpointAppendWaitsForTheChunkInFlight(end: InFlightChunkEnd) throws {
    let fs = FaultInjectingFileSystem()
    let gate = SyncGate(fs)
    var options = memoryOptions(fs, .grouped(maxDelayMilliseconds: 1, maxBytes: 1 << 20), frameTarget: 1 << 20)
    options.fileSystem = gate
    let writer = try JournalWriter.create(at: "/j", options: options)
    defer { gate.release() }  // never leave a thread at the gate, whatever failed
    let record: @Sendable (Int) -> JournalRecord = { syntheticRecord($0, checkpointEvery: 8) }
    // Three durable records, then one the timer's sync thread takes as a chunk: held in its write.
    for n in 0..<3 { try writer.append(record(n)) }
    try writer.sync()
    gate.holdNextWrite()
    try writer.append(record(3))
    try #require(eventually { gate.isBlocked }, "the sync thread never wrote the chunk")
    // Appends go on into the next chunk; the checkpoint (record 8, sequence 9) must wait.
    for n in 4..<8 { try writer.append(record(n)) }
    let checkpoint = Background { () throws(JournalError) in try writer.append(record(8)) }
    try #require(
      eventually { writer.state.withLock { $0.waitingForChunkInFlight } == 1 }, "the checkpoint did not wait for the chunk in flight")
    #expect(writer.nextSequence == 9, "the checkpoint was staged while the chunk was in flight")

    let expectedCount: Int
    switch end {
    case .written:
      gate.release()
      let receipt = try #require(checkpoint.result(), "the checkpoint append hung").get()
      #expect(receipt.sequence == 9)
      for n in 9..<12 { try writer.append(record(n)) }
      try writer.close()
      expectedCount = 12
    case .writeFails:
      fs.inject(.write, onCall: 1)  // the held write, once it goes on
      gate.release()
      let result = try #require(checkpoint.result(), "the checkpoint append hung")
      guard case .failure(.writerClosed) = result else {
        Issue.record("a checkpoint after a failed write returned \(result)")
        return
      }
      #expect(writer.isClosed)
      expectedCount = 3  // the durable ones; the failed chunk and what followed are never written
    case .closedMeanwhile:
      let closing = Background { () throws(JournalError) in try writer.close() }
      gate.release()
      let result = try #require(checkpoint.result(), "the checkpoint append hung")
      try #require(closing.result(), "close() hung").get()
      switch result {
      case .success(let receipt):
        #expect(receipt.sequence == 9)
        expectedCount = 9
      case .failure(.writerClosed):
        expectedCount = 8
      case .failure(let error):
        Issue.record("a checkpoint racing close() threw \(error)")
        return
      }
    }
    #expect(writer.durableSequence == UInt64(expectedCount))
    let reader = try Self.expectReadsBack(fs, count: expectedCount, checkpointEvery: 8)
    // Sequences 1–3 (synced), 4 (the chunk in flight) and 5–8 in one frame; the checkpoint
    // starts the next.
    let frames = reader.frames.map { [$0.firstSequence, $0.startsWithCheckpoint ? 1 : 0] }
    #expect(frames == (expectedCount > 8 ? [[1, 0], [9, 1]] : [[1, 0]]))
  }
}

/// Polls `condition` until it holds; false once `seconds` passed (generous: only a hang waits that long).
func eventually(within seconds: Double = 30, _ condition: () -> Bool) -> Bool {
  let deadline = Date(timeIntervalSinceNow: seconds)
  while !condition() {
    if Date() > deadline { return false }
    usleep(1_000)
  }
  return true
}

/// Runs `body` on a thread of its own (a blocked call there cannot starve Dispatch's pool, which
/// the writer's sync thread needs); `result(within:)` waits for its outcome, nil after `seconds`
/// (generous: only a hang waits that long).
final class Background<T: Sendable>: @unchecked Sendable {
  // @unchecked: `outcome` is written before `done` is signalled and read only after waiting on it.
  private let done = DispatchSemaphore(value: 0)
  private var outcome: Result<T, JournalError>?

  init(_ body: @escaping @Sendable () throws(JournalError) -> T) {
    Thread { [self] in
      do throws(JournalError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
      done.signal()
    }.start()
  }

  func result(within seconds: Double = 30) -> Result<T, JournalError>? {
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    done.signal()  // for a later call
    return outcome
  }
}
