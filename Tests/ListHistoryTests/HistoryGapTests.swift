@testable import ListHistory
import ListState
import TestSupport
import Testing

/// A stream with a gap record (what repairing a damaged journal writes): the records before the
/// damage, a gap naming the versions lost, then the records from the next checkpoint on. The
/// replayed store knows exactly the versions those records rebuild — the same states as the
/// undamaged history — refuses the lost ones with a typed error, refuses undo across the gap,
/// and continues the stream.
@Suite struct HistoryGapTests {
  typealias Store = ListStore<String, TestRow>

  /// A random history with undos, redos and checkouts, and checkpoints every few records.
  func history(seed: UInt64, steps: Int) throws -> (Store, [HistoryRecord]) {
    let sink = RecordingSink()
    let store = Store(codec: HistoryCodec(), sink: sink, checkpointInterval: 32, journalCheckpointBytes: 512, clock: { 0 })
    var operations = RandomOperations(seed: seed)
    for _ in 0..<steps {
      switch Int.random(in: 0..<100, using: &operations.random) {
      case 0..<8: if store.canUndo { try store.undo() }
      case 8..<12: if store.redoTarget != nil { try store.redo() }
      case 12..<14: try store.checkout(Version(Int.random(in: 0...store.latestVersion.rawValue, using: &operations.random)))
      default:
        do { try store.transaction { tx in try operations.apply(to: &tx) } } catch is ListError<String, Int> {}
      }
    }
    return (store, sink.records)
  }

  /// The records a repair keeps when the records `cut..<resume` are damaged (`resume` a
  /// checkpoint), renumbered, with the gap record between; and the versions they rebuild.
  func repaired(_ records: [HistoryRecord], cut: Int, resume: Int, original: Store) throws -> ([HistoryRecord], Set<Int>) {
    let prefixLatest = cut == 0 ? 0 : Int(records[cut - 1].version)
    let newest = Int(records[resume].version)
    var codec = HistoryCodec<String, TestRow>()
    let gap = try codec.encode(.gap(HistoryGap(latestVersion: Version(newest), lostCount: newest - prefixLatest)), sequence: 0)
    var kept = Array(records[..<cut]) + [gap] + Array(records[resume...])
    for index in kept.indices { kept[index].sequence = UInt64(index + 1) }
    // Known: the prefix's versions, the checkpoint's head, and each later commit on a known parent.
    var decoder = HistoryCodec<String, TestRow>()
    guard case .checkpoint(let checkpoint) = try decoder.decode(records[resume]) else {
      Issue.record("record \(resume) is not a checkpoint")
      return (kept, [])
    }
    var known = Set(0...prefixLatest)
    known.insert(checkpoint.head.rawValue)
    for record in records[(resume + 1)...] where record.kind == .commit {
      let version = Int(record.version)
      if let parent = original.info(for: Version(version))?.parent, known.contains(parent.rawValue) { known.insert(version) }
    }
    return (kept, known)
  }

  func replay(_ records: [HistoryRecord], flat: Bool, pipeliningAfter threshold: Int, sink: RecordingSink? = nil) throws -> Store {
    try Store(
      replaying: records, codec: HistoryCodec(), sink: sink, checkpointInterval: flat ? 1 << 30 : 16,
      journalCheckpointBytes: 512,
      options: .init(folding: flat ? .flat : .snapshots, pipeliningAfter: threshold, batchRecords: 64),
      clock: { 0 })
  }

  @Test(arguments: [(3, false, 10_000), (5, true, 10_000), (8, false, 0), (13, true, 0)])
  func everyRebuildableVersionReadsBackAndTheLostOnesAreRefused(seed: UInt64, flat: Bool, threshold: Int) throws {
    let (original, records) = try history(seed: seed, steps: 900)
    let checkpoints = records.indices.filter { records[$0].kind == .checkpoint }
    #expect(checkpoints.count >= 6)
    var random = SeededRandom(seed: seed)
    for _ in 0..<6 {
      let resume = checkpoints[Int.random(in: 1..<checkpoints.count, using: &random)]
      let cut = Int.random(in: 0..<resume, using: &random)
      let (kept, known) = try repaired(records, cut: cut, resume: resume, original: original)
      let store = try replay(kept, flat: flat, pipeliningAfter: threshold)
      #expect(store.latestVersion == original.latestVersion)
      let lost = Set(store.lostVersions.flatMap { ($0.lowerBound.rawValue...$0.upperBound.rawValue).map { $0 } })
      #expect(lost == Set(0...original.latestVersion.rawValue).subtracting(known), "cut \(cut), resume \(resume)")
      for version in 0...original.latestVersion.rawValue {
        if known.contains(version) {
          #expect(try store.state(at: Version(version)) == original.state(at: Version(version)), "v\(version)")
          #expect(store.info(for: Version(version)) != nil)
        } else {
          #expect(store.info(for: Version(version)) == nil)
          #expect {
            try store.state(at: Version(version))
          } throws: { error in
            guard case .versionLost(let named, let run) = error as? HistoryError else { return false }
            return named == Version(version) && run.contains(named) && lost.isSuperset(of: run.lowerBound.rawValue...run.upperBound.rawValue)
          }
        }
      }
      if known.contains(original.head.rawValue) {
        #expect(store.head == original.head)
        #expect(store.snapshot == original.snapshot)
      } else {
        #expect(store.head == original.head)
        #expect(throws: HistoryError.self) { try store.transaction { tx in try tx.appendSections(["refused"]) } }
      }
    }
  }

  @Test func undoAcrossTheGapIsRefusedAndTheStreamContinues() throws {
    let (original, records) = try history(seed: 29, steps: 600)
    let checkpoints = records.indices.filter { records[$0].kind == .checkpoint }
    // A checkpoint whose head is newer than every version before the cut: it becomes a root.
    var found: (cut: Int, resume: Int, head: Int)?
    var decoder = HistoryCodec<String, TestRow>()
    for resume in checkpoints.dropFirst(2) {
      guard case .checkpoint(let checkpoint) = try decoder.decode(records[resume]) else { continue }
      let cut = checkpoints[1]
      if checkpoint.head.rawValue > Int(records[cut - 1].version) {
        found = (cut, resume, checkpoint.head.rawValue)
        break
      }
    }
    let (cut, resume, root) = try #require(found)
    let (kept, _) = try repaired(records, cut: cut, resume: resume, original: original)
    let sink = RecordingSink()
    let store = try replay(kept, flat: false, pipeliningAfter: 10_000, sink: sink)
    try store.checkout(Version(root))
    #expect(store.snapshot == (try original.state(at: Version(root))))
    #expect(!store.canUndo)
    #expect {
      try store.undo()
    } throws: { error in
      guard case .historyGap(let at, let run) = error as? HistoryError else { return false }
      return at == Version(root) && (run.upperBound.rawValue == root - 1 || run.lowerBound.rawValue == root + 1)
    }
    // Checking out a version before the gap and back across it folds from the checkpoints.
    try store.checkout(Version(1))
    #expect(store.snapshot == (try original.state(at: Version(1))))
    try store.checkout(Version(root))
    #expect(store.snapshot == (try original.state(at: Version(root))))
    #expect(throws: HistoryError.self) { try store.events(from: Version(1), to: Version(root)) }
    // New commits continue the stream; a replay of the whole stream gives the same store.
    try store.transaction { tx in try tx.appendSections(["after"]) }
    let next = store.head
    #expect(store.info(for: next)?.parent == Version(root))
    let again = try replay(kept + sink.records, flat: true, pipeliningAfter: 0)
    #expect(again.head == next)
    #expect(again.snapshot == store.snapshot)
    #expect(again.lostVersions == store.lostVersions)
  }

  @Test func aGapRecordRoundTripsAndMustBeFollowedByItsCheckpoint() throws {
    var codec = HistoryCodec<String, TestRow>()
    let gap = HistoryGap(latestVersion: 40, lostCount: 12)
    #expect(gap.lost == Version(29)...Version(40))
    #expect(HistoryGap(latestVersion: 40, lostCount: 0).lost == nil)
    let record = try codec.encode(.gap(gap), sequence: 7)
    #expect(record.kind == .gap && record.version == 40 && record.kind.rawValue == 7)
    var decoder = HistoryCodec<String, TestRow>()
    guard case .gap(let decoded) = try decoder.decode(record) else {
      Issue.record("not a gap")
      return
    }
    #expect(decoded == gap)
    // Losing version 0 is malformed.
    var fresh = HistoryCodec<String, TestRow>()
    #expect(throws: HistoryCodecError.self) {
      try fresh.decode(HistoryRecord(kind: .gap, sequence: 1, version: 3, payload: [4]))
    }

    let (_, records) = try history(seed: 31, steps: 200)
    let firstCheckpoint = try #require(records.firstIndex { $0.kind == .checkpoint })
    let prefix = Array(records[..<firstCheckpoint])
    let latest = Int(prefix.last!.version)
    let gapRecord = try codec.encode(.gap(HistoryGap(latestVersion: Version(latest + 5), lostCount: 5)), sequence: 0)
    // Ends after the gap: refused, never a store with an unknown head.
    #expect(throws: HistoryError.self) { try replay(prefix + [gapRecord], flat: false, pipeliningAfter: 10_000) }
    // A gap that does not start right after the newest version: refused.
    let wrong = try codec.encode(.gap(HistoryGap(latestVersion: Version(latest + 5), lostCount: 3)), sequence: 0)
    #expect(throws: HistoryError.self) { try replay(prefix + [wrong] + Array(records[firstCheckpoint...]), flat: false, pipeliningAfter: 10_000) }
  }
}
