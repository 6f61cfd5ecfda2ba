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
        at: damagedPath, durability: .strict, createIfMissing: false, codec: HistoryCodec(), clock: { 1_700_000_000 })
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
