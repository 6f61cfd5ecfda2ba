import Foundation
import ListJournal
import TestSupport
import Testing

/// Replays every golden journal in `Journal/Golden/` forever: a format or codec change that
/// breaks old journals fails here. `LISTJOURNAL_REGENERATE_GOLDEN=1` rewrites them (only the
/// files of ``GoldenScenario/all``; `demo.list` and other files are left alone).
@Suite struct GoldenJournalTests {
  static let directory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Journal/Golden").path
  }()

  static var regenerate: Bool { ProcessInfo.processInfo.environment["LISTJOURNAL_REGENERATE_GOLDEN"] == "1" }

  @Test func regenerateWhenAsked() throws {
    guard Self.regenerate else { return }
    try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
    for scenario in GoldenScenario.all {
      let journal = Self.directory + "/\(scenario.name).journal"
      try? FileManager.default.removeItem(atPath: journal)
      let json = try scenario.write(to: journal)
      try (json + "\n").write(toFile: Self.directory + "/\(scenario.name).expected.json", atomically: true, encoding: .utf8)
    }
  }

  @Test(arguments: GoldenScenario.all.map(\.name))
  func goldenReplaysToExpectedState(name: String) throws {
    guard !Self.regenerate else { return }
    try Self.checkReplay(of: Self.directory + "/\(name)")
  }

  /// Journals an older encoder wrote for scenarios whose current goldens were regenerated after
  /// a deliberate encoder change (the `Legacy/README.md` says which): never regenerated, they
  /// keep the older bytes opening.
  static let legacyNames: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/Legacy")) ?? []
    return files.filter { $0.hasSuffix(".journal") }.map { String($0.dropLast(".journal".count)) }.sorted()
  }()

  @Test func legacyGoldensExist() {
    #expect(Self.legacyNames.count >= 2)
  }

  @Test(arguments: legacyNames)
  func legacyGoldenReplaysToExpectedState(name: String) throws {
    guard !Self.regenerate else { return }
    try Self.checkReplay(of: Self.directory + "/Legacy/\(name)")
    // A legacy file holds other bytes than the current golden of its scenario, for the same state.
    let current = Self.directory + "/\(name)"
    guard FileManager.default.fileExists(atPath: current + ".journal") else { return }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: current + ".journal"))
        != Data(contentsOf: URL(fileURLWithPath: Self.directory + "/Legacy/\(name).journal")))
    #expect(
      try String(contentsOfFile: current + ".expected.json", encoding: .utf8)
        == String(contentsOfFile: Self.directory + "/Legacy/\(name).expected.json", encoding: .utf8))
  }

  /// Replays `base.journal` with the app's types and generically, time-travels to every version
  /// and verifies it; the head state must be `base.expected.json`.
  static func checkReplay(of base: String) throws {
    let path = base + ".journal"
    let expected = try String(contentsOfFile: base + ".expected.json", encoding: .utf8)
    // With the app's types…
    let history = try JournalHistory<TestSection, TestItem>.open(at: path)
    #expect(GoldenJSON.state(history.snapshot, version: history.head) + "\n" == expected)
    #expect(history.reader.recovery.tornTailBytes == 0)
    // …and without them (what `listjournal` does).
    let generic = try JournalHistory.open(at: path)
    #expect(GoldenJSON.state(generic.snapshot, version: generic.head) + "\n" == expected)
    // Time travel in the file agrees with the replay at every version.
    let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
    for number in 0...history.latestVersion.rawValue {
      #expect(try travel.state(at: Version(number)) == history.state(at: Version(number)))
    }
    #expect(JournalMaintenance.verify(at: path).isValid)
  }

  @Test func goldensAreDeterministic() throws {
    // Writing a scenario again gives the same bytes (fixed clock, salt and creation time).
    let temporary = TemporaryDirectory()
    for scenario in GoldenScenario.all where !Self.regenerate {
      let path = temporary.file("\(scenario.name).journal")
      _ = try scenario.write(to: path)
      let fresh = try Data(contentsOf: URL(fileURLWithPath: path))
      let stored = try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/\(scenario.name).journal"))
      #expect(fresh == stored, "\(scenario.name) is not reproducible")
    }
  }

  @Test func compactGoldensAreFormat11AndSmaller() throws {
    // The format 1.1 goldens announce it, and their records are smaller than the same scenario
    // written with the format 1.0 encodings (which replays to the same state).
    guard !Self.regenerate else { return }
    let temporary = TemporaryDirectory()
    for scenario in GoldenScenario.all where scenario.formatMinor == 1 {
      let compact = try JournalReader.open(at: Self.directory + "/\(scenario.name).journal")
      #expect(compact.formatMinor == 1)
      var original = scenario
      original.formatMinor = 0
      let path = temporary.file("\(scenario.name)-1.0.journal")
      let json = try original.write(to: path)
      let expected = try String(contentsOfFile: Self.directory + "/\(scenario.name).expected.json", encoding: .utf8)
      #expect(json + "\n" == expected)
      let old = try JournalReader.open(at: path)
      #expect(old.formatMinor == 0)
      #expect(old.recordCount == compact.recordCount)
      let compactBytes = compact.frames.reduce(0) { $0 + $1.uncompressedBytes }
      let oldBytes = old.frames.reduce(0) { $0 + $1.uncompressedBytes }
      #expect(compactBytes < oldBytes, "\(scenario.name): \(compactBytes) vs \(oldBytes) record bytes")
    }
    let multiFrame = try JournalHistory<TestSection, TestItem>.open(at: Self.directory + "/compact-multi-frame-checkpoints.journal")
    #expect(multiFrame.info.frameCount >= 3)
    #expect(multiFrame.info.checkpointCount >= 2)
  }

  @Test func multiFrameGoldenHasCheckpoints() throws {
    guard !Self.regenerate else { return }
    let history = try JournalHistory<TestSection, TestItem>.open(at: Self.directory + "/multi-frame-checkpoints.journal")
    #expect(history.info.frameCount >= 3)
    #expect(history.info.checkpointCount >= 2)
  }
}
