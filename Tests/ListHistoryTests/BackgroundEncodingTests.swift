#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ListHistory
import ListState
import ListLocking
import TestSupport
import Testing

/// A store that encodes its records on a background queue (`encodingInBackground`, what a
/// journal with deferred relaxed writes uses) must write the same kind of stream as one that
/// encodes while committing: every version replays to its live state, checkpoints land where
/// the lagged rule says (so the same changes always give the same records, however the threads
/// are scheduled), and a failed write is never lost — it fails every later change.
@Suite struct BackgroundEncodingTests {
  typealias Store = ListStore<String, TestRow>

  /// A fresh store (version 0, no records) that encodes in the background into `sink`.
  static func backgroundStore(
    sink: any HistoryRecordSink, journalCheckpointBytes: Int = 512, clock: ClockBox = ClockBox()
  ) throws -> Store {
    try Store(
      replaying: [], codec: HistoryCodec(), sink: sink, checkpointInterval: 16, journalCheckpointBytes: journalCheckpointBytes,
      options: .init(folding: .snapshots, encodingInBackground: true), clock: { clock.tick() })
  }

  /// The rule a background store follows (see `_BackgroundRecordEncoder`), recomputed here from
  /// the records alone: a checkpoint follows the record `lag` records after the first one at
  /// which the bytes since the last checkpoint reach max(budget, 8 × the last checkpoint's
  /// size). The lag starts at `baseLag`; after each checkpoint it is half its item count (at
  /// least `baseLag`).
  static func expectLaggedCheckpoints(
    _ records: [HistoryRecord], budget: Int, baseLag: UInt64, lagGrows: Bool = false
  ) throws {
    var bytesSince = 0
    var lastCheckpointBytes = 0
    var lag = baseLag
    var dueAt: UInt64?
    var checkpoints = 0
    var grownLags = 0
    for record in records {
      if record.kind == .checkpoint {
        #expect(dueAt.map { $0 + lag + 1 } == record.sequence, "checkpoint #\(record.sequence): due at \(String(describing: dueAt)), lag \(lag)")
        checkpoints += 1
        var codec = HistoryCodec<String, TestRow>()
        guard case .checkpoint(let checkpoint) = try codec.decode(record) else { Issue.record("not a checkpoint"); return }
        lag = max(baseLag, UInt64(checkpoint.snapshot.numberOfItems / 2))
        if lag > baseLag { grownLags += 1 }
        bytesSince = 0
        lastCheckpointBytes = record.payload.count
        dueAt = nil
        continue
      }
      if let dueAt { #expect(record.sequence <= dueAt + lag, "no checkpoint after record #\(record.sequence)") }
      bytesSince += record.payload.count
      // 8: `_CheckpointSpacing.sizeFactor`.
      if dueAt == nil && bytesSince >= max(budget, 8 * lastCheckpointBytes) { dueAt = record.sequence }
    }
    #expect(checkpoints >= 3)
    if lagGrows { #expect(grownLags >= 1) }  // the lag followed the list's size at least once
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyVersionReplaysToItsLiveState(seed: UInt64) throws {
    let sink = RecordingSink()
    let store = try Self.backgroundStore(sink: sink)
    var history = RandomHistory(
      seed: seed, mix: .init(undo: 10, undosPerStep: 1...3, redo: 6, checkout: 4), checks: [.liveState, .stepResults])
    try history.drive(store, steps: 600)
    try store._drainRecords()
    let records = sink.records
    #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))
    try Self.expectLaggedCheckpoints(records, budget: 512, baseLag: 16)

    let replayed = try Store(replaying: records, codec: HistoryCodec(), checkpointInterval: 16)
    #expect(replayed.head == store.head)
    #expect(replayed.latestVersion == store.latestVersion)
    #expect(replayed.redoTarget == store.redoTarget)
    for (version, expected) in history.live {
      #expect(Canonical(try replayed.state(at: Version(version))) == expected, "version \(version)")
    }
  }

  /// Reopened from its records, a background store continues the stream (intern tables,
  /// sequences, the checkpoint budget); `reopeningPartWayGivesTheSameRecords` checks that the
  /// records are exactly those of a store that never closed.
  @Test func aReopenedStoreContinuesTheStream() throws {
    let sink = RecordingSink()
    let clock = ClockBox()
    let store = try Self.backgroundStore(sink: sink, clock: clock)
    var history = RandomHistory(seed: 7, mix: .init(undo: 8, redo: 5, checkout: 3), checks: [.liveState])
    try history.drive(store, steps: 300)
    try store._drainRecords()

    let continued = RecordingSink()
    let reopened = try Store(
      replaying: sink.records, codec: HistoryCodec(), sink: continued, checkpointInterval: 16, journalCheckpointBytes: 512,
      options: .init(folding: .snapshots, encodingInBackground: true), clock: { clock.tick() })
    try history.drive(reopened, steps: 300)
    try reopened._drainRecords()
    let records = sink.records + continued.records
    #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))
    #expect(continued.records.contains { $0.kind == .checkpoint })

    let replayed = try Store(replaying: records, codec: HistoryCodec(), checkpointInterval: 16)
    #expect(replayed.head == reopened.head)
    for (version, expected) in history.live {
      #expect(Canonical(try replayed.state(at: Version(version))) == expected, "version \(version)")
    }
  }

  /// Closing and reopening part-way does not move a checkpoint: a store reopened from its
  /// records continues with exactly the records one that never closed writes (the replay hands
  /// the encoder the lag of the last checkpoint and a checkpoint already due), as a
  /// synchronous store does. Also when the replay folds flat: its encoder's tables are then
  /// built beside the final snapshots, from contents moved out of the decoder's tables.
  @Test(arguments: [false, true], [false, true])
  func reopeningPartWayGivesTheSameRecords(background: Bool, flat: Bool) throws {
    func records(reopeningAfter split: Int?, steps: Int = 1_200) throws -> [HistoryRecord] {
      let clock = ClockBox()
      let first = RecordingSink()
      var history = RandomHistory(seed: 7, mix: .init(undo: 8, redo: 5, checkout: 3))
      let store = try Store(
        replaying: [], codec: HistoryCodec(), sink: first, checkpointInterval: 16, journalCheckpointBytes: 2_048,
        options: .init(folding: .snapshots, encodingInBackground: background), clock: { clock.tick() })
      try history.drive(store, steps: split ?? steps)
      try store._drainRecords()
      guard let split else { return first.records }
      let second = RecordingSink()
      let reopened = try Store(
        replaying: first.records, codec: HistoryCodec(), sink: second, checkpointInterval: 16,
        journalCheckpointBytes: 2_048,
        options: .init(folding: flat ? .flat : .snapshots, pipeliningAfter: 100, encodingInBackground: background),
        clock: { clock.tick() })
      try history.drive(reopened, steps: steps - split)
      try reopened._drainRecords()
      return first.records + second.records
    }
    let straight = try records(reopeningAfter: nil)
    #expect(straight.filter { $0.kind == .checkpoint }.count >= 3)
    for split in [300, 517, 800] {
      let reopened = try records(reopeningAfter: split)
      #expect(reopened.count == straight.count, "split \(split)")
      let difference = zip(straight, reopened).enumerated().first { $0.element.0.kind != $0.element.1.kind || $0.element.0.payload != $0.element.1.payload }?.offset
      #expect(difference == nil, "split \(split): records differ from #\((difference ?? -2) + 1) on")
    }
  }

  /// The same changes give the same records, byte for byte, whether the sink is fast or keeps
  /// the encoder waiting now and then (the store then waits for it at checkpoint decisions).
  @Test func theStreamDoesNotDependOnTiming() throws {
    func run(_ sink: any HistoryRecordSink, records: () -> [HistoryRecord]) throws -> [HistoryRecord] {
      let store = try Self.backgroundStore(sink: sink, journalCheckpointBytes: 2_048)
      var history = RandomHistory(seed: 11, mix: .init(undo: 8, redo: 5, checkout: 3))
      try history.drive(store, steps: 1_500)
      try store._drainRecords()
      return records()
    }
    let fast = RecordingSink()
    let slow = SlowSink(pauseEvery: 37)
    let fastRecords = try run(fast) { fast.records }
    let slowRecords = try run(slow) { slow.records }
    #expect(fastRecords.filter { $0.kind == .checkpoint }.count >= 3)
    #expect(fastRecords.count == slowRecords.count)
    #expect(fastRecords.map(\.kind) == slowRecords.map(\.kind))
    #expect(fastRecords.map(\.payload) == slowRecords.map(\.payload))
    try Self.expectLaggedCheckpoints(fastRecords, budget: 2_048, baseLag: 16, lagGrows: true)
  }

  /// A write that fails on the encoder's queue is kept: the change that finds it (or the drain)
  /// throws it, and so does every later change, without changing the store; the stream holds
  /// exactly the records before the failed one, which replay to their live states.
  @Test(arguments: [1, 40, 333])
  func aFailedWriteFailsEveryLaterChange(failingWrite: Int) throws {
    let sink = RecordingSink()
    let store = try Self.backgroundStore(sink: sink)
    var operations = RandomOperations(seed: UInt64(failingWrite))
    var live: [Int: Canonical<String, TestRow>] = [0: Canonical(ListSnapshot())]
    var failure: (any Error)?
    var step = 0
    var drainedBeforeFailure = Version(0)  // every version through it is in the sink
    while failure == nil && step < 5_000 {
      if step == failingWrite {
        try store._drainRecords()
        drainedBeforeFailure = store.latestVersion
        sink.failNext()
      }
      do {
        try store.transaction { tx in try operations.apply(to: &tx) }
        live[store.head.rawValue] = Canonical(store.snapshot)
      } catch is ListError<String, Int> {
      } catch {
        failure = error
      }
      step += 1
      if step % 100 == 0 && failure == nil {
        do { try store._drainRecords() } catch { failure = error }
      }
    }
    #expect(failure is RecordingSink.Failure, "\(String(describing: failure))")
    let latest = store.latestVersion
    #expect(throws: RecordingSink.Failure.self) { try store.transaction { tx in try tx.appendSections(["late"]) } }
    #expect(throws: RecordingSink.Failure.self) { try store.undo() }
    #expect(throws: RecordingSink.Failure.self) { try store._drainRecords() }
    #expect(store.latestVersion == latest)

    let records = sink.records
    #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))
    let replayed = try Store(replaying: records, codec: HistoryCodec(), checkpointInterval: 16)
    #expect(replayed.latestVersion >= drainedBeforeFailure)
    #expect(replayed.latestVersion <= latest)
    for version in 0...replayed.latestVersion.rawValue {
      #expect(Canonical(try replayed.state(at: Version(version))) == live[version], "version \(version)")
    }
  }

  /// A record that cannot be encoded fails the encoder with the record's sequence named; the
  /// stream ends before it.
  @Test func anUnencodableRecordIsNamedAndEndsTheStream() throws {
    let sink = RecordingSink()
    let store = try ListStore<String, FragileItem>(
      replaying: [], codec: HistoryCodec(), sink: sink, checkpointInterval: 16, journalCheckpointBytes: 512,
      options: .init(folding: .snapshots, encodingInBackground: true), clock: { 0 })
    try store.appendSections(["S"])
    try store.appendItems([FragileItem("a")])
    try store.appendItems([FragileItem("b", title: "unencodable")])  // accepted: encoded later
    #expect {
      try store._drainRecords()
    } throws: { error in
      guard case HistoryError.invalidRecord(let sequence, let reason) = error else { return false }
      return sequence == 3 && reason.contains("cannot encode")
    }
    #expect(throws: HistoryError.self) { try store.appendItems([FragileItem("c")]) }
    #expect(store.latestVersion == 3)
    #expect(sink.records.map(\.version) == [1, 2])
  }

  /// A checkpoint over the sink's payload limit is skipped, and the records after it are
  /// numbered as the sink counts them, as a store encoding on its own thread numbers them:
  /// sequences run 1...n without a gap, and a record that cannot be encoded after it is named
  /// by the number it would have had in the stream.
  @Test func aRefusedCheckpointLeavesNoGapInTheSequences() throws {
    let sink = RecordingSink(maximumPayloadBytes: 200)  // every commit fits; the list's checkpoints do not
    let store = try ListStore<String, FragileItem>(
      replaying: [], codec: HistoryCodec(), sink: sink, checkpointInterval: 16, journalCheckpointBytes: 128,
      options: .init(folding: .snapshots, encodingInBackground: true), clock: { 0 })
    try store.appendSections(["S"])
    for index in 0..<80 { try store.appendItems([FragileItem("item \(index)")]) }
    try store._drainRecords()
    #expect(store._refusedCheckpoints >= 1)
    let records = sink.records
    #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))

    try store.appendItems([FragileItem("b", title: "unencodable")])  // accepted: encoded later
    #expect {
      try store._drainRecords()
    } throws: { error in
      guard case HistoryError.invalidRecord(let sequence, _) = error else { return false }
      return sequence == UInt64(records.count + 1)
    }
    let replayed = try ListStore<String, FragileItem>(replaying: records, codec: HistoryCodec())
    #expect(replayed.latestVersion.rawValue == 81)
    #expect(replayed.snapshot.itemIdentifiers == (0..<80).map { "item \($0)" })
  }
}

/// A sink that pauses for a millisecond every `pauseEvery` writes: the background encoder falls
/// behind now and then, so the committing thread sometimes waits for it.
final class SlowSink: HistoryRecordSink {
  let pauseEvery: Int
  private let storage = ListMutex<[HistoryRecord]>([])

  init(pauseEvery: Int) { self.pauseEvery = pauseEvery }

  var records: [HistoryRecord] { storage.withLock { $0 } }

  func write(_ record: HistoryRecord) throws {
    let count = storage.withLock { records in
      records.append(record)
      return records.count
    }
    if count % pauseEvery == 0 { usleep(1_000) }
  }
}
