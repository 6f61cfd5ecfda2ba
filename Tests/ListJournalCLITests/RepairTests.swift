import Foundation
import JournalFormat
import ListHistory
import ListJournal
import ListState
import Testing

@testable import ListJournalCLI

/// `verify --repair` on journals damaged at every chunk: the repaired journal keeps every
/// version `--salvage` reads from the damaged one, exactly as the undamaged journal shows it,
/// refuses the others with the lost-in-repair error, and reopens and takes commits.
@Suite("Repair keeps what can be kept")
struct RepairTests {
  @Test func linearHistoryDamagedAtEveryChunk() throws {
    try Self.repairAtEveryChunk { try SalvageTests.writeJournal(at: $0, count: 120) }
  }

  @Test func branchingHistoryDamagedAtEveryChunk() throws {
    try Self.repairAtEveryChunk { try SalvageTests.writeBranchingJournal(at: $0, count: 80) }
  }

  static func repairAtEveryChunk(write: (String) throws -> Void) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("intact.journal").path
    try write(path)
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let intact = try _GenericJournalSession(path: path)
    let latest = intact.historyCounts().versions - 1
    var views: [Int: TextSnapshot] = [:]
    for version in 0...latest { views[version] = try intact.snapshot(at: version) }
    let intactLog = Dictionary(uniqueKeysWithValues: intact.versions().map { ($0.version, $0) })
    let chunks = SalvageTests.chunks(of: original)
    #expect(chunks.filter(\.startsCheckpoint).count >= 2, "the workload must write several checkpoints")

    for (index, chunk) in chunks.enumerated() {
      let folder = directory.appendingPathComponent("d\(index)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let damagedPath = folder.appendingPathComponent("j.journal").path
      var damaged = original
      damaged[chunk.offset + 48] ^= 0xFF  // the chunk's CRC fails
      try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
      let salvage = try _SalvagedJournalSession(path: damagedPath)
      let readable = Set(salvage.versions().map(\.version))

      let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: folder)
      if salvage.damageReport == nil {
        // The last chunk: a torn tail, which every reader ignores and a writer truncates.
        #expect(repair.stdout.hasPrefix("nothing to repair: 'j.journal' has no damage"), "chunk \(index): \(repair.stdout)")
        continue
      }
      if readable == [0] {
        // Nothing before the damage, no intact checkpoint after it: refused, the file untouched.
        #expect(repair.status == 1, "chunk \(index)")
        #expect(repair.stderr.contains("nothing can be kept"), "chunk \(index): \(repair.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: damagedPath))) == damaged)
        continue
      }
      #expect(repair.status == 0, "chunk \(index): \(repair.stderr)")
      #expect(repair.stderr == "", "chunk \(index): \(repair.stderr)")
      // The original is kept aside, byte for byte.
      let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("j.journal.damaged-") }
      #expect(copies.count == 1, "chunk \(index)")
      if let copy = copies.first {
        #expect(try [UInt8](Data(contentsOf: folder.appendingPathComponent(copy))) == damaged, "chunk \(index)")
        #expect(repair.stdout.hasSuffix("the damaged original is kept at \(copy)\n"), "chunk \(index)")
      }

      let repaired = try _GenericJournalSession(path: damagedPath)
      #expect(Set(repaired.versions().map(\.version)) == readable, "chunk \(index)")
      for version in 0...latest {
        if readable.contains(version) {
          #expect(try repaired.snapshot(at: version) == views[version], "chunk \(index), version \(version)")
        } else {
          #expect(throws: ListLanguageError.self, "chunk \(index): version \(version) should be lost") {
            try repaired.snapshot(at: version)
          }
        }
      }
      for entry in repaired.versions() where !entry.parentIsLost {
        var expected = try #require(intactLog[entry.version])
        expected.isHead = entry.isHead
        #expect(entry == expected, "chunk \(index), log of version \(entry.version)")
      }
      let lost = Set(repaired.repairedAway.flatMap { Array($0) })
      #expect(lost.isDisjoint(with: readable), "chunk \(index)")
      #expect(lost.union(readable) == Set(0...(repaired.historyCounts().versions + lost.count - 1)), "chunk \(index)")

      // Time travel in the file: the lost versions give the typed error, the others their state.
      let travel = try JournalTimeTravel<TextSection, TextItem>.open(at: damagedPath, codec: HistoryCodec())
      for version in 0...Int(travel.latestVersion.rawValue) where version % 5 == 0 || !readable.contains(version) {
        if readable.contains(version) {
          #expect(try travel.state(at: Version(version)) == views[version], "chunk \(index), travel to \(version)")
        } else {
          do {
            _ = try travel.state(at: Version(version))
            Issue.record("chunk \(index): time travel to lost version \(version) succeeded")
          } catch .history(.versionLost(let lostVersion, let run)) {
            #expect(run.contains(lostVersion), "chunk \(index)")
          } catch {
            Issue.record("chunk \(index): time travel to lost version \(version): \(error)")
          }
        }
      }

      // The repaired journal reopens for writing and takes commits on its head.
      let journal = try JournalStore<TextSection, TextItem>.open(
        at: damagedPath, codec: HistoryCodec(),
        configuration: .init(durability: .strict, createIfMissing: false, store: .init(clock: { 1_700_000_000 })))
      let head = journal.store.head
      #expect(!journal.store.lostVersions.contains { $0.contains(head) }, "chunk \(index)")
      let sectionID = try #require(journal.store.snapshot.sectionIdentifiers.first)
      try journal.store.transaction(label: "After repair") { tx in
        try tx.appendItems([TextItem(id: "new", content: "after repair")], toSection: sectionID)
      }
      let added = journal.store.head
      try journal.close()
      let reopened = try _GenericJournalSession(path: damagedPath)
      #expect(reopened.headVersion == added.rawValue, "chunk \(index)")
      #expect(try reopened.snapshot(at: added.rawValue).item("new")?.content == "after repair", "chunk \(index)")
      for version in readable.sorted() where version % 7 == 0 {
        #expect(try reopened.snapshot(at: version) == views[version], "chunk \(index), version \(version) after a commit")
      }
      let verify = try CLIRunner.run(["verify", "j.journal"], in: folder)
      #expect(verify.status == 0, "chunk \(index): \(verify.stderr)")
    }
  }
}

/// What `verify --repair` and `log` print for a repaired journal, line for line.
@Suite("Repair: the executable")
struct RepairCommandTests {
  /// A 40-version journal whose chunk of version 10 is damaged; returns the directory.
  static func damagedJournal() throws -> URL {
    let directory = try CLIRunner.temporaryDirectory()
    let path = directory.appendingPathComponent("j.journal").path
    try SalvageTests.writeJournal(at: path, count: 40)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let chunks = SalvageTests.chunks(of: bytes)
    let damaged = try #require(chunks.firstIndex { $0.firstVersion == 10 })
    bytes[chunks[damaged].offset + 48] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return directory
  }

  @Test func transcripts() throws {
    let directory = try Self.damagedJournal()
    defer { try? FileManager.default.removeItem(at: directory) }
    let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: directory)
    let copy = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("j.journal.damaged-") })
    let log = try CLIRunner.run(["log", "j.journal"], in: directory)
    let show = try CLIRunner.run(["show", "j.journal", "--at", "12"], in: directory)
    let undo = try CLIRunner.run(["exec", "j.journal"], stdin: "checkout 23\nundo\n", in: directory)
    var transcript = "$ verify --repair\n\(repair.stdout)stderr: \(repair.stderr)exit \(repair.status)\n"
    transcript += "$ log\n\(log.stdout)exit \(log.status)\n"
    transcript += "$ show --at 12\n\(show.stdout)stderr: \(show.stderr)exit \(show.status)\n"
    transcript += "$ exec: checkout 23, undo\n\(undo.stdout)stderr: \(undo.stderr)exit \(undo.status)\n"
    let verify = try CLIRunner.run(["verify", "j.journal"], in: directory)
    transcript += "$ verify\n\(verify.stdout)stderr: \(verify.stderr)exit \(verify.status)\n"
    transcript = transcript.replacingOccurrences(of: copy, with: "j.journal.damaged-TIME")
    #expect(transcript == Self.expected)
  }

  @Test func aLostHeadMovesToTheNewestKeptVersion() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try SalvageTests.writeJournal(at: path, count: 40)
    // Undo back into what the damage will take: the file's head becomes a lost version.
    let journal = try JournalStore<TextSection, TextItem>.open(
      at: path, codec: HistoryCodec(),
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 600, clock: { 1_700_000_000 })))
    for _ in 0..<14 { try journal.store.undo() }
    #expect(journal.store.head == 21)
    try journal.close()
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let chunks = SalvageTests.chunks(of: bytes)
    let damaged = try #require(chunks.firstIndex { $0.firstVersion == 10 })
    bytes[chunks[damaged].offset + 48] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: directory)
    #expect(repair.status == 0, "\(repair.stderr)")
    #expect(repair.stdout.hasPrefix("the head (version 21) was lost; it is now version 35, the newest kept\n"), "\(repair.stdout)")
    #expect(repair.stdout.contains("repaired: kept versions 0...9, 23...35 ("), "\(repair.stdout)")
    let exec = try CLIRunner.run(["exec", "j.journal"], stdin: "append after to S\n", in: directory)
    #expect(exec.status == 0, "\(exec.stderr)")
    let log = try CLIRunner.run(["log", "j.journal", "--limit", "1"], in: directory)
    #expect(log.stdout.hasPrefix("* 36  ← 35  "), "\(log.stdout)")
  }

  @Test func refusesWhenNothingCanBeKept() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("j.journal").path
    try SalvageTests.writeJournal(at: path, count: 6)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let chunks = SalvageTests.chunks(of: bytes)
    #expect(chunks.count >= 2 && !chunks.contains(where: \.startsCheckpoint))
    bytes[chunks[0].offset + 48] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let repair = try CLIRunner.run(["verify", "j.journal", "--repair"], in: directory)
    #expect(repair.status == 1)
    #expect(repair.stdout == "")
    #expect(
      repair.stderr == "error: cannot repair 'j.journal': journal corrupted at byte offset 64 (last good: no complete version): "
        + "nothing can be kept: no complete record before the damage and no intact checkpoint after it\n")
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("damaged") }.isEmpty)
  }

  static let expected = """
    $ verify --repair
    repaired: kept versions 0...9, 23...35 (23 records, 1909 of 2990 bytes); versions 10...22 lost in repair
    kept bytes 64..<769, 1850..<2990 of the original; dropped bytes 769..<1850
    after the damage, the history resumes at the checkpoint at byte 1850 of the original
    the damaged original is kept at j.journal.damaged-TIME
    stderr: exit 0
    $ log
      0  root  1970-01-01T00:00:00Z  (empty list)  (0 ops)
      1  ← 0  2023-11-14T22:13:20Z  Sections  (2 ops: insert section S; insert section T)
      2  ← 1  2023-11-14T22:13:20Z  Step 1  (1 op: insert i1)
      3  ← 2  2023-11-14T22:13:20Z  Step 2  (1 op: insert c2)
      4  ← 3  2023-11-14T22:13:20Z  Step 3  (1 op: set i1)
      5  ← 4  2023-11-14T22:13:20Z  Step 5  (1 op: insert i5)
      6  ← 5  2023-11-14T22:13:20Z  Step 6  (1 op: insert c6)
      7  ← 6  2023-11-14T22:13:20Z  Step 7  (1 op: set i5)
      8  ← 7  2023-11-14T22:13:20Z  Step 8  (1 op: move i5)
      9  ← 8  2023-11-14T22:13:20Z  Step 9  (1 op: insert i9)
      ✗ versions 10...22 lost in repair
      23  ← ?  1970-01-01T00:00:00Z  (rebuilt from a checkpoint; its record is lost)  (0 ops)
      24  ← 23  2023-11-14T22:13:20Z  Step 26  (1 op: insert c26)
      25  ← 24  2023-11-14T22:13:20Z  Step 27  (1 op: set i25)
      26  ← 25  2023-11-14T22:13:20Z  Step 29  (1 op: insert i29)
      27  ← 26  2023-11-14T22:13:20Z  Step 30  (1 op: insert c30)
      28  ← 27  2023-11-14T22:13:20Z  Step 31  (1 op: set i29)
      29  ← 28  2023-11-14T22:13:20Z  Step 32  (1 op: move i29)
      30  ← 29  2023-11-14T22:13:20Z  Step 33  (1 op: insert i33)
      31  ← 30  2023-11-14T22:13:20Z  Step 34  (1 op: insert c34)
      32  ← 31  2023-11-14T22:13:20Z  Step 35  (1 op: set i33)
      33  ← 32  2023-11-14T22:13:20Z  Step 37  (1 op: insert i37)
      34  ← 33  2023-11-14T22:13:20Z  Step 38  (1 op: insert c38)
    * 35  ← 34  2023-11-14T22:13:20Z  Step 39  (1 op: set i37)
    exit 0
    $ show --at 12
    stderr: error: version 12 was lost in a repair of the journal (versions 10...22 lost in repair)
    exit 1
    $ exec: checkout 23, undo
    stderr: error: line 2: cannot undo past version 23: the history before it was lost in a repair of the journal (versions 10...22 lost in repair)
    exit 1
    $ verify
    sound: 24 records in 3 frames, 36 versions, 22 events, 1 checkpoints and 2 states checked
    versions 10...22 lost in an earlier repair (their states are unknown; the others were checked)
    stderr: exit 0

    """
}
