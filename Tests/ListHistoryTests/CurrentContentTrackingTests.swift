@testable import ListHistory
import ListState
import TestSupport
import Testing

/// A store's codec knows which remembered item contents are the items' contents in the current
/// state, and then skips encoding them again: an update or a leaf delete names the remembered
/// content without encoding the old item, and a checkpoint writes the remembered contents
/// instead of encoding every item. The records must be byte for byte those a codec that never
/// assumes anything writes for the store's true events and states — across undo, redo and
/// checkout (which change contents without a record naming them), failed writes (whose records
/// are rolled back) and a store reopened from its records.
@Suite struct CurrentContentTrackingTests {
  typealias Store = ListStore<String, TestRow>

  /// Re-encodes every record with a fresh codec (no current-content knowledge) from the store's
  /// own events and states, and compares the bytes.
  func expectSameBytes(_ records: [HistoryRecord], store: Store) throws -> (checkpoints: Int, compactUpdates: Int) {
    var decoder = HistoryCodec<String, TestRow>()
    var reference = HistoryCodec<String, TestRow>()
    #expect(!reference.tracksCurrentContents)
    var checkpoints = 0
    var compactUpdates = 0
    for record in records {
      var content = try decoder.decode(record)
      switch content {
      case .commit(var commit):
        let events = try store.events(of: commit.version)
        #expect(commit.events == events, "record \(record.sequence): decoded events differ from the store's")
        commit.events = events
        content = .commit(commit)
        if record.payload.contains(_EventCode.updateRememberedItem) { compactUpdates += 1 }
      case .checkpoint(var checkpoint):
        var state = try store.state(at: checkpoint.head)
        state.clearMarkers()
        #expect(checkpoint.snapshot == state, "record \(record.sequence): checkpoint differs from the state at \(checkpoint.head)")
        checkpoint.snapshot = state
        content = .checkpoint(checkpoint)
        checkpoints += 1
      case .headMove, .gap:
        break
      }
      let again = try reference.encode(content, sequence: record.sequence)
      #expect(again.payload == record.payload, "record \(record.sequence) (\(record.kind)) is encoded differently")
    }
    return (checkpoints, compactUpdates)
  }

  @Test(arguments: [31, 32, 33] as [UInt64])
  func recordsAreThoseOfACodecThatAssumesNothing(seed: UInt64) throws {
    let sink = RecordingSink()
    let clock = ClockBox()
    let store = RandomHistory.recordingStore(sink: sink, checkpointInterval: 64, journalCheckpointBytes: 1_024, clock: clock)
    // Random transactions, undo, redo, checkout; now and then the next record fails to be
    // written: a commit or head move is refused, a checkpoint is retried after a later change.
    var history = RandomHistory(
      seed: seed, mix: .init(undo: 10, undosPerStep: 1...4, redo: 5, checkout: 2), writeFailures: .periodic(period: 89, phase: 40))
    try history.drive(store, sink: sink, steps: 1_200)
    let counts = try expectSameBytes(sink.records, store: store)
    #expect(counts.checkpoints >= 5)
    #expect(counts.compactUpdates >= 20)

    // Reopened from its records (the encoder continues the decoded tables, knowing no content
    // to be current), then changed further: the continued stream is checked as a whole.
    let reopenedSink = RecordingSink()
    let reopened = try Store(
      replaying: sink.records, codec: HistoryCodec(), sink: reopenedSink, checkpointInterval: 64,
      journalCheckpointBytes: 1_024, clock: { clock.tick() })
    try history.drive(reopened, sink: reopenedSink, steps: 600)
    #expect(!reopenedSink.records.isEmpty)
    _ = try expectSameBytes(sink.records + reopenedSink.records, store: reopened)
  }

  /// The state changes under the encoder's remembered contents: an update undone, then the item
  /// updated again. The second update must store the old content it really replaces.
  @Test func undoneUpdateIsNotTakenForTheRememberedContent() throws {
    let sink = RecordingSink()
    let store = Store(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["S"])
    try store.appendItems([TestRow(1, "a")], toSection: "S")
    try store.updateItem(TestRow(1, "b"))
    try store.undo()
    try store.updateItem(TestRow(1, "c"))
    var decoder = HistoryCodec<String, TestRow>()
    var last: HistoryRecordContent<String, TestRow>?
    for record in sink.records { last = try decoder.decode(record) }
    guard case .commit(let commit)? = last else {
      Issue.record("the last record is not a commit")
      return
    }
    #expect(commit.events == [.updateItem(old: TestRow(1, "a"), new: TestRow(1, "c"))])
    // Replayed, undoing it gives back "a", not the undone "b".
    let replayed = try Store(replaying: sink.records, codec: HistoryCodec())
    try replayed.undo()
    #expect(replayed.snapshot.item(1) == TestRow(1, "a"))
  }
}
