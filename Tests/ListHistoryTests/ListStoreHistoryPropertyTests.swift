import ListHistory
import ListState
import TestSupport
import Testing

/// Random operation sequences with random undo, redo and checkout: every state reached live is
/// reproduced by time travel (checkpointed), by full replay of the records, and by the generic
/// decoder; undo-then-redo is the identity.
@Suite struct ListStoreHistoryPropertyTests {
  typealias Store = ListStore<String, TestRow>

  struct Run {
    var store: Store
    var sink: RecordingSink
    var live: [Int: Canonical<String, TestRow>]
    var failures: Int
  }

  func randomRun(
    seed: UInt64, steps: Int, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .unbounded
  ) throws -> Run {
    let sink = RecordingSink()
    let clock = ClockBox()
    let store = Store(
      codec: HistoryCodec(), sink: sink, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
      journalCheckpointBytes: 512, clock: { clock.tick() })
    var operations = RandomOperations(seed: seed)
    var live: [Int: Canonical<String, TestRow>] = [0: Canonical(ListSnapshot())]
    var failures = 0
    for _ in 0..<steps {
      let roll = Int.random(in: 0..<100, using: &operations.random)
      let headBefore = store.head
      let stateBefore = Canonical(store.snapshot)
      switch roll {
      case 0..<10:
        if store.canUndo {
          let change = try store.undo()
          #expect(change.reverted == [headBefore])
          // undo then redo is the identity; undo again to continue from the parent
          let redo = try store.redo()
          #expect(redo.head == headBefore)
          #expect(Canonical(store.snapshot) == stateBefore)
          try store.undo()
        } else {
          #expect(throws: HistoryError.nothingToUndo(at: store.head)) { try store.undo() }
        }
      case 10..<15:
        if store.redoTarget != nil { try store.redo() } else {
          #expect(throws: HistoryError.nothingToRedo(at: store.head)) { try store.redo() }
        }
      case 15..<19:
        let target = Version(Int.random(in: 0...store.latestVersion.rawValue, using: &operations.random))
        let change = try store.checkout(target)
        #expect(change.head == target && store.head == target)
      default:
        let latestBefore = store.latestVersion
        let recordsBefore = sink.records.count
        do {
          try store.transaction(label: "step") { tx in
            for _ in 0..<Int.random(in: 1...3, using: &operations.random) { try operations.apply(to: &tx) }
          }
        } catch is ListError<String, Int> {
          failures += 1
          // all-or-nothing: nothing changed, nothing persisted
          #expect(store.head == headBefore && store.latestVersion == latestBefore)
          #expect(Canonical(store.snapshot) == stateBefore)
          #expect(sink.records.count == recordsBefore)
        }
        if store.latestVersion != latestBefore {
          #expect(store.info(for: store.head)?.parent == headBefore)
          live[store.head.rawValue] = Canonical(store.snapshot)
        }
      }
      #expect(Canonical(store.snapshot) == live[store.head.rawValue], "live state diverged at \(store.head)")
    }
    return Run(store: store, sink: sink, live: live, failures: failures)
  }

  /// Seeds with the budget of the live store (and of the replays with dense checkpoints):
  /// unbounded, or 16 KiB (a few checkpoints of these lists: thinned during the run).
  @Test(arguments: [(1, .unbounded), (2, .unbounded), (3, .bytes(16 << 10))] as [(UInt64, CheckpointBudget)])
  func timeTravelAndReplayReproduceEveryVersion(seed: UInt64, budget: CheckpointBudget) throws {
    let run = try randomRun(
      seed: seed, steps: SeededRandom.propertySteps(default: 150), checkpointInterval: 5, checkpointBudget: budget)
    let store = run.store
    if budget.maximumBytes != nil { #expect(store.checkpointInterval > 5, "the budget thinned the checkpoints") }
    #expect(run.live.count == store.latestVersion.rawValue + 1)
    // The run exercised real work: many versions, some refused transactions, several checkpoints.
    #expect(run.live.count > 50 && run.failures > 0)
    #expect(run.sink.records.contains { $0.kind == .checkpoint })

    // Checkpointed time travel equals the live state of every version, on every branch.
    for (version, expected) in run.live {
      #expect(Canonical(try store.state(at: Version(version))) == expected, "state(at: v\(version))")
    }

    // Full replay of the records rebuilds every branch, the head and redo memory: folding into
    // the snapshot or into a `ListFold`, without useful checkpoints or with many (built from
    // the fold).
    for (interval, flat) in [(1 << 30, true), (1 << 30, false), (7, true)] {
      let replayed = try ListStore<String, TestRow>(
        replaying: run.sink.records, codec: HistoryCodec(), sink: nil, checkpointInterval: interval,
        checkpointBudget: budget, journalCheckpointBytes: .max, foldingFlat: flat, clock: { 0 })
      #expect(replayed.head == store.head)
      #expect(replayed.latestVersion == store.latestVersion)
      #expect(replayed.redoTarget == store.redoTarget)
      #expect(Canonical(replayed.snapshot) == Canonical(store.snapshot))
      var random = SeededRandom(seed: seed)
      for (version, expected) in run.live {
        // Full replay from version 0 is quadratic over all versions: check a sample.
        if interval < 100 || Int.random(in: 0..<8, using: &random) == 0 {
          #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version)), interval \(interval), flat \(flat)")
        }
        #expect(replayed.info(for: Version(version)) == store.info(for: Version(version)))
        #expect(replayed.children(of: Version(version)) == store.children(of: Version(version)))
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)))
      }
      // Redo memory of every version survives the replay.
      for version in 0...store.latestVersion.rawValue {
        try store.checkout(Version(version))
        try replayed.checkout(Version(version))
        #expect(replayed.redoTarget == store.redoTarget)
      }
    }

    // The generic decoder (no app types) replays the same history to the same shapes.
    let generic = try ListStore<JournalValueElement, JournalValueElement>(
      replaying: run.sink.records, codec: .generic())
    for (version, expected) in run.live {
      let state = try generic.state(at: Version(version))
      #expect(state.sectionIdentifiers == expected.sections.map { .string($0) })
      #expect(state.itemIdentifiers == expected.outlines.flatMap(\.itemIdentifiers).map { .int(Int64($0)) })
      let contents = state.itemIdentifiers.compactMap { state.item($0)?.content["title"] }
      let titles = expected.outlines.flatMap { outline in allItems(outline).map { JournalValue.string($0.title) } }
      #expect(contents == titles)
    }
  }

  /// Sink failures at random moments: each failed commit or head move leaves the store and the
  /// codec as before (identifiers, strings, remembered contents, bases), so the stream of the
  /// records that were stored replays — with both encodings — to the live history.
  @Test(arguments: [(3, 1), (4, 1), (5, 0)] as [(UInt64, UInt16)])
  func failedWritesLeaveTheStreamDecodable(seed: UInt64, formatMinor: UInt16) throws {
    let sink = RecordingSink()
    let clock = ClockBox()
    var codec = HistoryCodec<String, TestRow>()
    codec.encoderFormatMinor = formatMinor
    let store = Store(codec: codec, sink: sink, checkpointInterval: 5, journalCheckpointBytes: 512, clock: { clock.tick() })
    var operations = RandomOperations(seed: seed)
    var live: [Int: Canonical<String, TestRow>] = [0: Canonical(ListSnapshot())]
    var failures = 0
    for _ in 0..<SeededRandom.propertySteps(default: 300) {
      let failing = Int.random(in: 0..<4, using: &operations.random) == 0
      if failing { sink.failNext() }
      let before = (head: store.head, latest: store.latestVersion, state: Canonical(store.snapshot), records: sink.records.count)
      do {
        switch Int.random(in: 0..<100, using: &operations.random) {
        case 0..<12: if store.canUndo { try store.undo() }
        case 12..<18: if store.redoTarget != nil { try store.redo() }
        default:
          try store.transaction(label: "step") { tx in
            for _ in 0..<Int.random(in: 1...3, using: &operations.random) { try operations.apply(to: &tx) }
          }
        }
        live[store.head.rawValue] = Canonical(store.snapshot)
      } catch is RecordingSink.Failure {
        failures += 1
        #expect(store.head == before.head && store.latestVersion == before.latest)
        #expect(Canonical(store.snapshot) == before.state)
        #expect(sink.records.count == before.records)
      } catch is ListError<String, Int> {}
      sink.failNext(0)  // an operation that wrote nothing leaves its failure unused
    }
    #expect(failures > 20)
    #expect(sink.records.contains { $0.kind == .checkpoint })
    for formatMinorOfReader in [0, 1] as [UInt16] {
      var readerCodec = HistoryCodec<String, TestRow>()
      readerCodec.encoderFormatMinor = formatMinorOfReader  // decoding accepts every encoding
      let replayed = try ListStore<String, TestRow>(replaying: sink.records, codec: readerCodec, checkpointInterval: 7)
      #expect(replayed.head == store.head && replayed.latestVersion == store.latestVersion)
      for (version, expected) in live {
        #expect(Canonical(try replayed.state(at: Version(version))) == expected, "replayed state(at: v\(version))")
        #expect(try replayed.events(of: Version(version)) == store.events(of: Version(version)))
      }
    }
  }

  @Test func eventsBetweenVersionsFoldToTheTarget() throws {
    let run = try randomRun(seed: 9, steps: SeededRandom.propertySteps(default: 200), checkpointInterval: 8)
    var random = SeededRandom(seed: 99)
    for _ in 0..<50 {
      let a = Int.random(in: 0...run.store.latestVersion.rawValue, using: &random)
      let b = Int.random(in: 0...run.store.latestVersion.rawValue, using: &random)
      var state = try run.store.state(at: Version(a))
      for event in try run.store.events(from: Version(a), to: Version(b)) { try event.apply(to: &state) }
      #expect(Canonical(state) == run.live[b])
    }
  }

  func allItems(_ outline: ListOutline<TestRow>) -> [TestRow] {
    var result: [TestRow] = []
    func visit(_ nodes: [ListOutline<TestRow>.Node]) {
      for node in nodes {
        result.append(node.item)
        visit(node.children)
      }
    }
    visit(outline.roots)
    return result
  }
}

/// A deterministic clock that advances 1.5 ms per reading.
final class ClockBox: Sendable {
  private let now = Mutex<Double>(1_700_000_000)
  func tick() -> Double { now.withLock { $0 += 0.0015; return $0 } }
}

import Synchronization
