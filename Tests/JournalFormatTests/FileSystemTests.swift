import Testing
@testable import JournalFormat

/// Behaviour on the real POSIX file system: locking, concurrent readers, repair, compaction.
@Suite struct FileSystemTests {
  @Test func secondWriterIsRefusedWithClearError() throws {
    let dir = temporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/list.journal"
    let writer = try JournalWriter.create(at: path)
    #expect(throws: JournalError.locked(path: path)) { try JournalWriter.open(at: path) }
    #expect(JournalError.locked(path: path).description.contains("already open for writing"))
    try writer.close()
    let again = try JournalWriter.open(at: path)
    try again.close()
    #expect(directoryEntries(dir) == ["list.journal"])
  }

  @Test func readerSeesConsistentPrefixWhileWriterAppends() throws {
    let dir = temporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/list.journal"
    var options = JournalOptions()
    options.durability = .relaxed
    let writer = try JournalWriter.create(at: path, options: options)
    for n in 0..<100 { try writer.append(syntheticRecord(n)) }
    let reader = try JournalReader.open(at: path)
    #expect(try reader.readAll().count == 100)
    for n in 100..<200 {
      try writer.append(syntheticRecord(n))
      if n % 10 == 0 {
        let snapshot = try JournalReader.open(at: path).readAll()
        #expect(snapshot.count == n + 1)
      }
    }
    #expect(try reader.readAll().count == 100)  // the older reader keeps its prefix
    try writer.close()
  }

  @Test func repairKeepsPrefixAndDamagedCopyAside() throws {
    let dir = temporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/list.journal"
    var options = JournalOptions()
    options.durability = .strict
    options.frameTargetBytes = 200
    let writer = try JournalWriter.create(at: path, options: options)
    for n in 0..<80 { try writer.append(syntheticRecord(n)) }
    try writer.close()
    let reader = try JournalReader.open(at: path)
    let damageAt = reader.frames[2].offset + 50
    let fs = POSIXFileSystem()
    let file = try fs.open(path, mode: .readWrite)
    let original = try file.read(at: 0, count: Int(try file.size()))
    var byte = try file.read(at: damageAt, count: 1)
    byte[0] ^= 0x40
    try file.write(byte, at: damageAt)
    file.close()

    #expect(throws: JournalError.self) { try JournalWriter.open(at: path) }
    let report = try JournalRepair.repair(at: path)
    #expect(report.droppedBytes > 0)
    let copy = try #require(report.damagedCopyPath)
    var damaged = original
    damaged[Int(damageAt)] ^= 0x40
    #expect(try fs.open(copy, mode: .read).read(at: 0, count: original.count) == damaged)
    let repaired = try JournalReader.open(at: path)
    let records = try repaired.readAll()
    #expect(records.count == Int(report.recordCount))
    #expect(records.count > 0 && records.count < 80)
    #expect(records.map(\.payload) == (0..<records.count).map(syntheticPayload))
    let reopened = try JournalWriter.open(at: path)
    try reopened.append(syntheticRecord(records.count))
    try reopened.close()
    #expect(directoryEntries(dir).count == 2)
  }

  @Test func compactionRecompressesAndDropsHistoryAtomically() throws {
    let dir = temporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/list.journal"
    var options = JournalOptions()
    options.durability = .strict
    let writer = try JournalWriter.create(at: path, options: options)
    for n in 0..<500 { try writer.append(syntheticRecord(n, checkpointEvery: 200)) }
    try writer.close()
    let plain = try JournalCompactor.compact(at: path, level: 19)
    #expect(plain.recordsAfter == 500)
    #expect(plain.bytesAfter < plain.bytesBefore / 3)
    let records = try JournalReader.open(at: path).readAll()
    #expect(records.map(\.sequence) == Array(1...500))

    let cut = try JournalCompactor.compact(at: path) { reader in
      #expect(reader.recordCount == 500)
      return JournalCompactor.Cut(version: 300, checkpointPayload: [7, 7, 7])
    }
    #expect(cut.recordsAfter == 201)
    let after = try JournalReader.open(at: path)
    let kept = try after.readAll()
    #expect(kept.first == JournalRecord(kind: .checkpoint, sequence: 300, version: 300, payload: [7, 7, 7]))
    #expect(kept.dropFirst().map(\.sequence) == Array(301...500))
    #expect(try after.nearestCheckpoint(atOrBefore: 450)?.version == 401)
    #expect(directoryEntries(dir) == ["list.journal"])
  }

  @Test func timeTravelStartsAtNearestCheckpoint() throws {
    let dir = temporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/list.journal"
    var options = JournalOptions()
    options.durability = .grouped
    options.frameTargetBytes = 1024
    let writer = try JournalWriter.create(at: path, options: options)
    for n in 0..<2000 { try writer.append(syntheticRecord(n, checkpointEvery: 300)) }
    try writer.close()
    let reader = try JournalReader.open(at: path)
    #expect(try reader.nearestCheckpoint(atOrBefore: 250) == nil)
    let checkpoint = try #require(try reader.nearestCheckpoint(atOrBefore: 1000))
    #expect(checkpoint.kind == .checkpoint && checkpoint.version == 901)
    var iterator = reader.records(fromCheckpointAtOrBefore: 1000)
    #expect(try iterator.next()?.version == 901)
    let frame = try #require(reader.frameIndex(containing: 1500))
    #expect(reader.frames[frame].firstVersion <= 1500 && reader.frames[frame].lastVersion >= 1500)
  }
}
