import Testing
@testable import JournalFormat
import JournalFormatTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Staging small appends (`JournalOptions.stagingBatchRecords`): the journal gets one chunk per
/// batch, nothing acknowledged is lost to a crash or a failed write, and what a crash left
/// staged reaches the journal at the next open.
@Suite struct StagingTests {
  static func stagingOptions(
    _ fs: FaultInjectingFileSystem, _ durability: JournalDurability = .strict, batch: Int = 8
  ) -> JournalOptions {
    var options = memoryOptions(fs, durability, frameTarget: 64 * 1024)
    options.stagingBatchRecords = batch
    return options
  }

  static func expected(_ count: Int, checkpointEvery: Int = 0) -> [JournalRecord] {
    (0..<count).map { n in
      var record = syntheticRecord(n, checkpointEvery: checkpointEvery)
      record.sequence = UInt64(n + 1)
      return record
    }
  }

  @Test func batchesSmallAppendsIntoOneJournalChunk() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs))
    for n in 0..<20 {
      let receipt = try writer.append(syntheticRecord(n))
      #expect(receipt.isDurable)
    }
    // Records 1-8 and 9-16 reached the journal as a chunk each; 17-20 wait in the staging log.
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll() == Self.expected(16))
    #expect(reader.frames.reduce(0) { $0 + $1.chunkCount } == 2)
    #expect(fs.exists(JournalWriter.stagingPath(for: "/j")))
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(20))
    #expect(!fs.exists(JournalWriter.stagingPath(for: "/j")))
  }

  /// Grouped durability's timer and `sync()` with nothing new keep staged records staged.
  @Test func groupedSyncsKeepBatching() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(
      at: "/j", options: Self.stagingOptions(fs, .grouped(maxDelayMilliseconds: 1, maxBytes: 1 << 20), batch: 16))
    for n in 0..<64 {
      try writer.append(syntheticRecord(n))
      try writer.sync()
      if n % 8 == 0 { usleep(3_000) }
      try writer.sync()
    }
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll() == Self.expected(64))
    #expect(reader.frames.reduce(0) { $0 + $1.chunkCount } == 4)
    try writer.close()
  }

  @Test func stagedRecordsSurviveACrashAndReachTheJournalAtOpen() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs))
    for n in 0..<13 { try writer.append(syntheticRecord(n)) }
    fs.crash(.dropUnsynced)
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll() == Self.expected(8))
    #expect(reader.stagedRecordCount(fileSystem: fs) == 5)
    let reopened = try JournalWriter.open(at: "/j", options: Self.stagingOptions(fs))
    #expect(reopened.nextSequence == 14)
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(13))
    #expect(!fs.exists(JournalWriter.stagingPath(for: "/j")))
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).stagedRecordCount(fileSystem: fs) == 0)
    try reopened.append(syntheticRecord(13))
    try reopened.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(14))
  }

  @Test func aCheckpointCarriesTheStagedRecordsFirst() throws {
    let fs = FaultInjectingFileSystem()
    let writer = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs, batch: 64))
    for n in 0..<25 { try writer.append(syntheticRecord(n, checkpointEvery: 10)) }
    // The checkpoints at 10 and 20 each started a frame with every earlier record in the journal.
    let reader = try JournalReader.open(at: "/j", fileSystem: fs)
    #expect(try reader.readAll() == Self.expected(21, checkpointEvery: 10))
    #expect(reader.frames.filter(\.startsWithCheckpoint).map(\.firstVersion) == [11, 21])
    try writer.close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(25, checkpointEvery: 10))
  }

  @Test func aStagingLogOfAnotherJournalOrAlreadyCarriedIsDropped() throws {
    let fs = FaultInjectingFileSystem()
    let other = try JournalWriter.create(at: "/other", options: Self.stagingOptions(fs))
    for n in 0..<5 { try other.append(syntheticRecord(n)) }
    let journal = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs))
    for n in 0..<3 { try journal.append(syntheticRecord(n)) }
    try journal.close()
    // Another journal's log under this journal's name: its salt does not match.
    fs.setContents(fs.contents(of: JournalWriter.stagingPath(for: "/other"))!, of: JournalWriter.stagingPath(for: "/j"))
    try JournalWriter.open(at: "/j", options: Self.stagingOptions(fs)).close()
    #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(3))
    #expect(!fs.exists(JournalWriter.stagingPath(for: "/j")))
    _ = other
  }

  @Test func bytesPerCommitWhenEachCommitIsSyncedAlone() throws {
    func size(batch: Int) throws -> Int {
      let fs = FaultInjectingFileSystem()
      let writer = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs, batch: batch))
      for n in 0..<2_000 { try writer.append(syntheticRecord(n)) }
      try writer.close()
      #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(2_000))
      return fs.contents(of: "/j")!.count
    }
    let unstaged = try size(batch: 0)
    let staged = try size(batch: 64)
    // 48 header bytes and a zstd flush per commit, against one per 64 commits.
    #expect(staged * 2 < unstaged, "staged \(staged) B, unstaged \(unstaged) B")
  }

  /// Random appends (single, batches, checkpoints), syncs, clean reopens and crashes that drop
  /// or tear unsynced writes: every acknowledged record survives, in order, and nothing else
  /// appears.
  @Test(arguments: [JournalDurability.strict, .grouped(maxDelayMilliseconds: 1000, maxBytes: 300), .relaxed])
  func randomAppendsCrashesAndReopens(durability: JournalDurability) throws {
    for seed in UInt64(1)...60 {
      var rng = _SplitMix64(seed: seed)
      let fs = FaultInjectingFileSystem()
      let options = Self.stagingOptions(fs, durability, batch: Int(rng.next() % 12) + 2)
      var writer = try JournalWriter.create(at: "/j", options: options)
      var count = 0
      var acknowledged = 0
      var log = ""

      for _ in 0..<Int(rng.next() % 150) + 20 {
        let op = rng.next() % 20
        log += "\(op < 4 ? String(op) : "a")\(Int(writer.durableSequence)) "
        switch op {
        case 0:
          try writer.sync()
        case 1:
          try writer.close()
          acknowledged = count
          writer = try JournalWriter.open(at: "/j", options: options)
        case 2:
          fs.crash(rng.next() % 2 == 0 ? .dropUnsynced : .tearUnsynced(seed: rng.next()))
          writer = try JournalWriter.open(at: "/j", options: options)
          let survivors = Int(writer.nextSequence) - 1
          #expect(survivors >= acknowledged && survivors <= count, "seed \(seed): \(survivors) survived, \(acknowledged) acknowledged of \(count); operations \(log)")
          count = survivors
          acknowledged = survivors
        case 3:
          let batch = (count..<count + Int(rng.next() % 5) + 1).map { syntheticRecord($0, checkpointEvery: 17) }
          try writer.append(contentsOf: batch)
          count += batch.count
        default:
          try writer.append(syntheticRecord(count, checkpointEvery: 17))
          count += 1
        }
        acknowledged = max(acknowledged, Int(writer.durableSequence))
      }
      try writer.close()
      #expect(try JournalReader.open(at: "/j", fileSystem: fs).readAll() == Self.expected(count, checkpointEvery: 17), "seed \(seed)")
    }
  }

  /// A write, sync, rename or directory sync that fails at any point of staging stops the
  /// writer; reopening keeps every acknowledged record.
  @Test(arguments: [FaultInjectingFileSystem.Operation.write, .sync, .rename, .syncDirectory])
  func failingOperationsKeepAcknowledgedRecords(operation: FaultInjectingFileSystem.Operation) throws {
    for n in 1...30 {
      let fs = FaultInjectingFileSystem()
      let writer = try JournalWriter.create(at: "/j", options: Self.stagingOptions(fs, batch: 5))
      fs.inject(operation, onCall: n)
      var attempted = 0
      for k in 0..<40 {
        attempted = k + 1
        do { try writer.append(syntheticRecord(k, checkpointEvery: 13)) } catch { break }
      }
      let acknowledged = Int(writer.durableSequence)
      fs.clearFaults()
      fs.crash(.dropUnsynced)
      let reopened = try JournalWriter.open(at: "/j", options: Self.stagingOptions(fs, batch: 5))
      try reopened.close()
      let records = try JournalReader.open(at: "/j", fileSystem: fs).readAll()
      #expect(records.count >= acknowledged && records.count <= attempted, "\(operation) #\(n)")
      #expect(records == Self.expected(records.count, checkpointEvery: 13), "\(operation) #\(n)")
    }
  }
}
