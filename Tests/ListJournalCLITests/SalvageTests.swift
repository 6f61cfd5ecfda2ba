import Foundation
import JournalFormat
import ListHistory
import ListJournal
import Testing

@testable import ListJournalCLI

/// `--salvage` on journals damaged at every chunk: each version the valid prefix or a
/// checkpoint after the damage makes rebuildable reads back exactly as in the undamaged
/// journal, and every other version is reported lost, never shown.
@Suite("Reading past damage")
struct SalvageTests {
  /// A linear history of `count` versions (so every checkpoint records the newest version),
  /// one chunk per commit and a checkpoint every few hundred bytes of records.
  static func writeJournal(at path: String, count: Int) throws {
    let journal = try JournalStore<TextSection, TextItem>.open(
      at: path, codec: HistoryCodec(),
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 600, clock: { 1_700_000_000 })))
    try journal.store.transaction(label: "Sections") { tx in
      try tx.appendSections([TextSection(id: "S"), TextSection(id: "T", content: "tee")])
    }
    for step in 1..<count {
      try journal.store.transaction(label: "Step \(step)") { tx in
        switch step % 4 {
        case 1: try tx.appendItems([TextItem(id: "i\(step)", content: "item \(step)")], toSection: step % 8 == 1 ? "S" : "T")
        case 2: try tx.appendItems([TextItem(id: "c\(step)")], underParent: "i\(step - 1)")
        case 3: try tx.updateItem(TextItem(id: "i\(step - 2)", content: "edited \(step)"))
        default: try tx.moveItem("i\(step - 3)", toSection: "S")
        }
      }
    }
    try journal.close()
  }

  /// The byte offsets of the chunks after the header, and their headers' first versions and flags.
  static func chunks(of bytes: [UInt8]) -> [(offset: Int, firstVersion: Int, lastVersion: Int, startsCheckpoint: Bool)] {
    func load<T: FixedWidthInteger>(_ type: T.Type, _ offset: Int) -> T {
      var value: T = 0
      for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
      return value
    }
    var result: [(Int, Int, Int, Bool)] = []
    var offset = 64
    while offset + 48 <= bytes.count {
      let length = Int(load(UInt32.self, offset + 8))
      result.append((offset, Int(load(UInt64.self, offset + 28)), Int(load(UInt64.self, offset + 36)), bytes[offset + 4] & 0x04 != 0))
      offset += 48 + length
    }
    return result
  }

  @Test func everyRebuildableVersionReadsBackExactlyAndNoOther() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try Self.writeJournal(at: path, count: 120)
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let intact = try _GenericJournalSession(path: path)
    let latest = intact.historyCounts().versions - 1
    var expectedViews: [Int: TextSnapshot] = [:]
    for version in 0...latest { expectedViews[version] = try intact.snapshot(at: version) }
    let chunks = Self.chunks(of: original)
    #expect(chunks.filter(\.startsCheckpoint).count >= 2, "the workload must write several checkpoints")

    for (index, chunk) in chunks.enumerated() {
      var damaged = original
      damaged[chunk.offset + 48] ^= 0xFF  // the first compressed byte: the chunk's CRC fails
      let damagedPath = directory.appendingPathComponent("d\(index).journal").path
      try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
      defer { try? FileManager.default.removeItem(atPath: damagedPath) }

      // The prefix before the damaged chunk, then everything from the next checkpoint on.
      let prefixEnd = index == 0 ? 0 : chunks[index - 1].lastVersion
      let resume = chunks[(index + 1)...].first(where: \.startsCheckpoint)?.firstVersion
      let expected = Set(0...prefixEnd).union(resume.map { Set($0...latest) } ?? [])

      let session = try _SalvagedJournalSession(path: damagedPath)
      for version in 0...latest {
        if expected.contains(version) {
          #expect(try session.snapshot(at: version) == expectedViews[version], "chunk \(index), version \(version)")
        } else {
          #expect(throws: ListLanguageError.self, "chunk \(index): version \(version) should be lost") {
            try session.snapshot(at: version)
          }
        }
      }
      let lost = Set(session.lostVersions.flatMap { Array($0) })
      #expect(lost == Set(0...latest).subtracting(expected), "chunk \(index)")
      #expect(Set(session.versions().map(\.version)) == expected, "chunk \(index)")
      // A version created after the checkpoint keeps its log entry as the intact journal has it.
      let intactLog = Dictionary(uniqueKeysWithValues: intact.versions().map { ($0.version, $0) })
      for entry in session.versions() where !entry.parentIsLost {
        var original = try #require(intactLog[entry.version])
        original.isHead = entry.isHead
        #expect(entry == original, "chunk \(index), log of version \(entry.version)")
      }
      // Damage in the last chunk, with nothing intact after it, is a torn tail (a write cut
      // short), which every reader ignores.
      #expect((session.damageReport != nil) == (index < chunks.count - 1), "chunk \(index)")
    }
  }

  /// A history with branches: undos and checkouts of old versions followed by new commits, so
  /// commits after a checkpoint may descend from versions before the damage.
  static func writeBranchingJournal(at path: String, count: Int) throws {
    let journal = try JournalStore<TextSection, TextItem>.open(
      at: path, codec: HistoryCodec(),
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 600, clock: { 1_700_000_000 })))
    try journal.store.transaction(label: "Sections") { tx in try tx.appendSections([TextSection(id: "S")]) }
    for step in 1..<count {
      if step % 9 == 0 { _ = try journal.store.undo() }
      if step % 13 == 0 { _ = try journal.store.checkout(Version(step / 3)) }
      try journal.store.transaction(label: "Step \(step)") { tx in
        try tx.appendItems([TextItem(id: "i\(step)", content: "item \(step)")], toSection: "S")
      }
    }
    try journal.close()
  }

  /// The head a checkpoint chunk records, decoded from the intact file.
  static func checkpointHead(in path: String, atOffset offset: Int) throws -> Int {
    let reader = try JournalReader.open(at: path)
    let frame = try #require(reader.frames.firstIndex { $0.offset == Int64(offset) })
    var records = reader.makeIterator(fromFrame: frame)
    let record = try #require(try records.next())
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    let kind = try #require(HistoryRecord.Kind(rawValue: record.kind.rawValue))
    guard case .checkpoint(let checkpoint) = try codec.decode(
      HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload))
    else { throw CheckpointMissing() }
    return checkpoint.head.rawValue
  }

  struct CheckpointMissing: Error {}

  @Test func branchesAfterTheDamageReadBackFromTheirKnownAncestors() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try Self.writeBranchingJournal(at: path, count: 90)
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let intact = try _GenericJournalSession(path: path)
    let log = intact.versions()
    let latest = log.count - 1
    let views = try (0...latest).map { try intact.snapshot(at: $0) }
    let chunks = Self.chunks(of: original)
    #expect(log.filter { $0.version > 1 && ($0.parent ?? 0) < $0.version - 1 }.count >= 5, "the history must branch")
    #expect(chunks.filter(\.startsCheckpoint).count >= 2, "the workload must write several checkpoints")

    for (index, chunk) in chunks.enumerated() where chunk.offset > 64 && index < chunks.count - 1 {
      var damaged = original
      damaged[chunk.offset + 48] ^= 0xFF
      let damagedPath = directory.appendingPathComponent("d\(index).journal").path
      try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
      defer { try? FileManager.default.removeItem(atPath: damagedPath) }

      // Known: the prefix, the resuming checkpoint's head, and every later version whose
      // parent is known (a parent always has a smaller number).
      var expected = Set(0...chunks[index - 1].lastVersion)
      if let resume = chunks[(index + 1)...].first(where: \.startsCheckpoint) {
        expected.insert(try Self.checkpointHead(in: path, atOffset: resume.offset))
        for entry in log where entry.version > resume.firstVersion {
          if let parent = entry.parent, expected.contains(parent) { expected.insert(entry.version) }
        }
      }
      let session = try _SalvagedJournalSession(path: damagedPath)
      for version in 0...latest {
        if expected.contains(version) {
          #expect(try session.snapshot(at: version) == views[version], "chunk \(index), version \(version)")
        } else {
          #expect(throws: ListLanguageError.self, "chunk \(index): version \(version)") { try session.snapshot(at: version) }
        }
      }
      #expect(Set(session.lostVersions.flatMap { Array($0) }) == Set(0...latest).subtracting(expected), "chunk \(index)")
    }
  }

  @Test func anUndamagedJournalReadsTheSameWithSalvage() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try Self.writeJournal(at: path, count: 30)
    let intact = try _GenericJournalSession(path: path)
    let session = try _SalvagedJournalSession(path: path)
    #expect(session.damageReport == nil)
    #expect(session.lostVersions.isEmpty)
    #expect(session.versions() == intact.versions())
    for version in 0..<intact.historyCounts().versions {
      #expect(try session.snapshot(at: version) == intact.snapshot(at: version))
    }
  }
}

/// What `listjournal` prints for a damaged journal, with and without `--salvage`.
@Suite("Reading past damage: the executable")
struct SalvageCommandTests {
  @Test func salvageNamesTheLostVersionsAndReadsTheOthers() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try SalvageTests.writeJournal(at: path, count: 60)
    let intactExport = try CLIRunner.run(["export", "j.journal", "--format", "jsonl"], in: directory).stdout
      .split(separator: "\n").map(String.init)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let chunks = SalvageTests.chunks(of: bytes)
    let damaged = try #require(chunks.firstIndex { $0.firstVersion == 10 })
    bytes[chunks[damaged].offset + 48] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let later = chunks[(damaged + 1)...].filter { $0.startsCheckpoint }
    let checkpoint = try #require(later.first)

    let plain = try CLIRunner.run(["show", "j.journal", "--at", "3"], in: directory)
    #expect(plain.status == 1)
    #expect(plain.stderr.contains("--salvage"), "\(plain.stderr)")

    let show = try CLIRunner.run(["show", "j.journal", "--at", "3", "--salvage"], in: directory)
    let lost = "10...\(checkpoint.firstVersion - 1)"
    #expect(
      show.stderr == "warning: 'j.journal' is damaged at byte \(chunks[damaged].offset); versions \(lost) are lost, "
        + "the others were rebuilt (read again from the checkpoint at byte \(checkpoint.offset))\n")
    #expect(show.stdout.hasPrefix("version 3\n"))
    #expect(show.status == 0)

    let gone = try CLIRunner.run(["show", "j.journal", "--at", "12", "--salvage"], in: directory)
    #expect(gone.status == 1)
    #expect(gone.stderr.hasSuffix("error: version 12 of 'j.journal' is lost to the damage (lost: \(lost))\n"))

    let log = try CLIRunner.run(["log", "j.journal", "--salvage"], in: directory)
    #expect(log.status == 0)
    #expect(log.stdout.contains("  9  ← 8  "))
    #expect(!log.stdout.contains("  10  ← 9  "))
    #expect(log.stdout.contains("  9  ← 8  2023-11-14T22:13:20Z  Step 9  (1 op: insert i9)\n  ✗ versions \(lost) lost to the damage\n"))
    #expect(log.stdout.contains("  \(checkpoint.firstVersion)  ← ?  "))
    #expect(log.stdout.contains("  \(checkpoint.firstVersion + 1)  ← \(checkpoint.firstVersion)  "))

    let diff = try CLIRunner.run(["diff", "j.journal", "9", "head", "--salvage"], in: directory)
    #expect(diff.status == 0)

    // export --salvage: exactly the intact export's lines of the records before the damage
    // and of those from the checkpoint on.
    let export = try CLIRunner.run(["export", "j.journal", "--format", "jsonl", "--salvage"], in: directory)
    #expect(export.status == 0)
    #expect(export.stderr == show.stderr)
    let kept = intactExport.filter { line in
      let version = Int(line.split(separator: ",")[2].split(separator: ":")[1])!
      return version <= 9 || (version >= checkpoint.firstVersion && !(version == checkpoint.firstVersion && line.contains(#""kind":"commit""#)))
    }
    #expect(export.stdout == kept.joined(separator: "\n") + "\n")

    // --repair keeps every version --salvage reads; the log shows the gap where it read "lost
    // to the damage".
    let latest = try #require(chunks.last?.lastVersion)
    let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: directory)
    #expect(repair.status == 0)
    #expect(repair.stdout.hasPrefix("repaired: kept versions 0...9, \(checkpoint.firstVersion)...\(latest) ("))
    #expect(repair.stdout.contains("; versions \(lost) lost in repair\n"))
    #expect(repair.stderr == "")
    let after = try CLIRunner.run(["log", "j.journal"], in: directory)
    #expect(after.stdout == log.stdout.replacingOccurrences(of: "lost to the damage", with: "lost in repair"))
  }
}
