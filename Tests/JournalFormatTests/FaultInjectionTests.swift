import Testing
@testable import JournalFormat
import JournalFormatTesting

/// Fault injection: failed writes/syncs/renames and simulated crashes.
@Suite struct FaultInjectionTests {
  /// Appends until the writer fails; returns acknowledged (durable) records and all attempted ones.
  static func appendUntilFailure(_ writer: JournalWriter, count: Int) -> (acknowledged: Int, attempted: Int, failure: JournalError?) {
    var attempted = 0
    for n in 0..<count {
      attempted = n + 1
      do { try writer.append(syntheticRecord(n, checkpointEvery: 20)) } catch { return (Int(writer.durableSequence), attempted, error) }
    }
    return (Int(writer.durableSequence), attempted, nil)
  }

  /// After reopening: a prefix of what was attempted, containing every acknowledged record.
  static func checkSurvivors(_ fs: FaultInjectingFileSystem, acknowledged: Int, attempted: Int, context: String) throws {
    let writer = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
    try writer.close()
    let records = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
    #expect(records.count >= acknowledged, "acknowledged commit lost: \(context)")
    #expect(records.count <= attempted, "\(context)")
    for (n, record) in records.enumerated() {
      var expected = syntheticRecord(n, checkpointEvery: 20)
      expected.sequence = UInt64(n + 1)
      #expect(record == expected, "\(context)")
    }
  }

  @Test(arguments: [FaultInjectingFileSystem.Operation.write, .sync], [false, true])
  func failingNthOperationClosesWriterAndKeepsAcknowledged(operation: FaultInjectingFileSystem.Operation, persistent: Bool) throws {
    for n in 1...12 {
      let fs = FaultInjectingFileSystem()
      let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs))
      fs.inject(operation, onCall: n * 3, persistent: persistent)
      let result = Self.appendUntilFailure(writer, count: 60)
      #expect(result.failure != nil)
      // Never retried: the writer stays closed even though the fault was transient.
      #expect(writer.isClosed)
      #expect(throws: JournalError.self) { try writer.append(syntheticRecord(99)) }
      if persistent { fs.clearFaults() }
      try Self.checkSurvivors(fs, acknowledged: result.acknowledged, attempted: result.attempted, context: "\(operation) #\(n * 3)")
    }
  }

  @Test(arguments: [JournalDurability.strict, .grouped(maxDelayMilliseconds: 1000, maxBytes: 200)])
  func crashDroppingOrTearingUnsyncedWrites(durability: JournalDurability) throws {
    for seed in UInt64(0)..<150 {
      let fs = FaultInjectingFileSystem()
      let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, durability))
      let crashAfter = Int(seed % 50) + 1
      for n in 0..<crashAfter { try writer.append(syntheticRecord(n, checkpointEvery: 20)) }
      let acknowledged = Int(writer.durableSequence)
      fs.crash(seed % 4 == 0 ? .dropUnsynced : .tearUnsynced(seed: seed))
      try Self.checkSurvivors(fs, acknowledged: acknowledged, attempted: crashAfter, context: "seed \(seed)")
      // A second crash during recovery-then-append must not lose anything either.
      let reopened = try JournalWriter.open(at: "/j", options: memoryOptions(fs))
      let before = Int(reopened.nextSequence) - 1
      try reopened.append(syntheticRecord(before, checkpointEvery: 20))
      fs.crash(.tearUnsynced(seed: seed &+ 1000))
      try Self.checkSurvivors(fs, acknowledged: before + 1, attempted: before + 1, context: "second crash \(seed)")
    }
  }

  @Test func createIsAtomicUnderCrash() throws {
    let fs = FaultInjectingFileSystem()
    fs.inject(.syncDirectory, onCall: 1)
    #expect(throws: JournalError.self) { try JournalWriter.create(at: "/j", options: memoryOptions(fs)) }
    fs.crash(.dropUnsynced)
    // Either no journal or a complete one, never a partial header.
    #expect(!fs.exists("/j") || (try? JournalReader.open(at: "/j", fileSystem: fs)) != nil)
  }

  @Test func failedRenameLeavesCompactionSourceUntouched() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs))
    for n in 0..<50 { try writer.append(syntheticRecord(n)) }
    try writer.close()
    let before = fs.contents(of: "/j")
    fs.inject(.rename, onCall: 2)  // the first rename creates the temporary journal
    #expect(throws: JournalError.self) { try JournalCompactor.compact(at: "/j", options: memoryOptions(fs)) }
    #expect(fs.contents(of: "/j") == before)
    #expect(fs.paths() == ["/j"])
    fs.clearFaults()
    let report = try JournalCompactor.compact(at: "/j", options: memoryOptions(fs))
    #expect(report.recordsAfter == 50)
    #expect(fs.paths() == ["/j"])
    fs.crash(.dropUnsynced)
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).recordCount == 50)
  }
}
