import Foundation
import JournalFormat
import ListJournal
import TestSupport
import Testing

/// `Journal/Golden/repaired-gap.journal`: the `multi-frame-checkpoints` golden with its chunk of
/// version 30 damaged, then repaired — a format 1.2 journal with a gap record. It must keep
/// opening: every kept version equals the undamaged golden's, the lost ones are refused with
/// the typed error, time travel agrees, and it verifies.
@Suite struct RepairedGoldenTests {
  static let source = GoldenJournalTests.directory + "/multi-frame-checkpoints.journal"
  static let base = GoldenJournalTests.directory + "/repaired-gap"
  /// What the repair of that damage loses.
  static let lost: ClosedRange<Version> = 30...56

  /// Writes the golden from the undamaged one: deterministic (the repair's salt is fixed).
  @Test func regenerateWhenAsked() throws {
    guard GoldenJournalTests.regenerate else { return }
    let temporary = TemporaryDirectory()
    let path = temporary.file("repaired-gap.journal")
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.source)))
    var offset = 64
    while offset + 48 <= bytes.count {
      let length = Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8 | Int(bytes[offset + 10]) << 16 | Int(bytes[offset + 11]) << 24
      let firstVersion = (0..<8).reduce(0) { $0 | Int(bytes[offset + 28 + $1]) << (8 * $1) }
      if firstVersion == Self.lost.lowerBound.rawValue { break }
      offset += 48 + length
    }
    bytes[offset + 48] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    var options = JournalOptions()
    options.fixedSalt = 0x4C4A_4741_5053_4544
    _ = try JournalRepair.repair(at: path, options: options)
    try? FileManager.default.removeItem(atPath: Self.base + ".journal")
    try FileManager.default.copyItem(atPath: path, toPath: Self.base + ".journal")
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    try (GoldenJSON.state(history.snapshot, version: history.head) + "\n")
      .write(toFile: Self.base + ".expected.json", atomically: true, encoding: .utf8)
  }

  @Test func keptVersionsReadAsTheUndamagedJournalAndLostOnesAreRefused() throws {
    guard !GoldenJournalTests.regenerate else { return }
    let path = Self.base + ".journal"
    let reader = try JournalReader.open(at: path)
    // One gap, up to the checkpoint's version 57, which is also its head: lost are 30...56.
    #expect(try reader.readAll().filter { $0.kind == .gap }.map(\.version) == [UInt64(Self.lost.upperBound.rawValue + 1)])
    let undamaged = try JournalHistory<TestSection, TestItem>.open(at: Self.source)
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    let generic = try JournalHistory.open(at: path)
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    let expected = try String(contentsOfFile: Self.base + ".expected.json", encoding: .utf8)
    #expect(GoldenJSON.state(history.snapshot, version: history.head) + "\n" == expected)
    #expect(GoldenJSON.state(generic.snapshot, version: generic.head) + "\n" == expected)
    #expect(history.latestVersion == undamaged.latestVersion)
    // The checkpoint after the damage names version 57, whose state it gives back.
    #expect(history.lostVersions == [Self.lost])
    #expect(generic.lostVersions == [Self.lost])
    for number in 0...history.latestVersion.rawValue {
      let version = Version(number)
      if Self.lost.contains(version) {
        #expect(throws: JournalStoreError.history(.versionLost(version, lost: Self.lost))) { try history.state(at: version) }
        #expect(throws: JournalStoreError.history(.versionLost(version, lost: Self.lost))) { try travel.state(at: version) }
        #expect(throws: JournalStoreError.history(.versionLost(version, lost: Self.lost))) { try history.entry(for: version) }
      } else {
        let state = try undamaged.state(at: version)
        #expect(try history.state(at: version) == state, "v\(number)")
        #expect(try travel.state(at: version) == state, "v\(number), time travel")
      }
    }
    #expect(history.versions.count == undamaged.versions.count - (Self.lost.upperBound.rawValue - Self.lost.lowerBound.rawValue + 1))
    #expect(try history.entry(for: Version(Self.lost.upperBound.rawValue + 1)).parent == nil)  // where the history resumed
    let verification = JournalMaintenance.verify(at: path)
    #expect(verification.isValid)
    #expect(verification.lostVersions == [Self.lost])
  }

  @Test func reopensAndTakesCommits() throws {
    guard !GoldenJournalTests.regenerate else { return }
    let temporary = TemporaryDirectory()
    let path = temporary.file("repaired.journal")
    try FileManager.default.copyItem(atPath: Self.base + ".journal", toPath: path)
    let journal = try JournalStore<TestSection, TestItem>.open(
      at: path,
      configuration: .init(durability: .strict, createIfMissing: false))
    let before = journal.store.latestVersion
    let resumed = Version(Self.lost.upperBound.rawValue + 1)
    try journal.store.checkout(resumed)
    #expect(throws: HistoryError.historyGap(at: resumed, lost: Self.lost)) { try journal.store.undo() }
    #expect(throws: HistoryError.versionLost(Self.lost.lowerBound, lost: Self.lost)) {
      try journal.store.checkout(Self.lost.lowerBound)
    }
    let section = try #require(journal.store.snapshot.sectionIdentifiers.first)
    try journal.store.transaction { tx in try tx.appendItems([TestItem("after-repair", content: "new")], toSection: section) }
    try journal.close()
    let reopened = try JournalHistory<TestSection, TestItem>.open(at: path)
    #expect(reopened.latestVersion.rawValue == before.rawValue + 1)
    #expect(try reopened.entry(for: Version(before.rawValue + 1)).parent == resumed)
    #expect(reopened.lostVersions == [Self.lost])
    #expect(JournalMaintenance.verify(at: path).isValid)
  }
}
