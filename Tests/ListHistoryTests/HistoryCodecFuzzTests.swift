import ListHistory
import ListState
import TestSupport
import Testing

/// Decoding is total: random, truncated and bit-flipped payloads give a value or a typed error
/// with an in-range offset — never a crash.
@Suite struct HistoryCodecFuzzTests {
  func validRecords() throws -> [HistoryRecord] {
    var writer = HistoryCodec<String, TestRow>()
    let first = try writer.encode(.commit(HistoryCommit(version: 1, parent: 0, timestamp: 5, label: "a", events: HistoryCodecTests.sampleEvents)), sequence: 1)
    let second = try writer.encode(.commit(HistoryCommit(version: 2, parent: 1, timestamp: 6, label: "a", events: HistoryCodecTests.sampleEvents)), sequence: 2)
    let move = try writer.encode(.headMove(HistoryHeadMove(kind: .checkout, from: 2, to: 0, latestVersion: 2, timestamp: 7)), sequence: 3)
    return [first, second, move]
  }

  func decodeAll(_ records: [HistoryRecord]) -> HistoryCodecError? {
    var typed = HistoryCodec<String, TestRow>()
    var generic = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var firstError: HistoryCodecError?
    for record in records {
      do { _ = try typed.decode(record) } catch {
        if case .malformed(let offset, _) = error { #expect(offset >= 0 && offset <= record.payload.count) }
        firstError = firstError ?? error
      }
      do { _ = try generic.decode(record) } catch {
        if case .malformed(let offset, _) = error { #expect(offset >= 0 && offset <= record.payload.count) }
      }
    }
    return firstError
  }

  @Test func truncationsAreTypedErrors() throws {
    let records = try validRecords()
    #expect(decodeAll(records) == nil)
    for (index, record) in records.enumerated() {
      for length in 0..<record.payload.count {
        var cut = records
        cut[index].payload = Array(record.payload.prefix(length))
        #expect(decodeAll(Array(cut.prefix(index + 1))) != nil, "record \(index) cut at \(length)")
      }
    }
  }

  @Test func bitFlipsAndRandomBytesNeverCrash() throws {
    let records = try validRecords()
    var random = SeededRandom(seed: 7)
    for _ in 0..<SeededRandom.propertySteps(default: 300) * 5 {
      var mutated = records
      let index = Int.random(in: 0..<mutated.count, using: &random)
      guard !mutated[index].payload.isEmpty else { continue }
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let position = Int.random(in: 0..<mutated[index].payload.count, using: &random)
        mutated[index].payload[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
      }
      _ = decodeAll(mutated)
    }
    for _ in 0..<SeededRandom.propertySteps(default: 300) * 5 {
      let length = Int.random(in: 0..<64, using: &random)
      let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let kind = HistoryRecord.Kind(rawValue: UInt8.random(in: 1...3, using: &random))!
      _ = decodeAll([HistoryRecord(kind: kind, sequence: 1, version: UInt64.random(in: 0...5, using: &random), payload: payload)])
    }
    // Huge counts are refused without allocating.
    let hostile = HistoryRecord(kind: .commit, sequence: 1, version: 1, payload: [0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
    #expect(decodeAll([hostile]) != nil)
  }

  @Test func replayRefusesCorruptStreams() throws {
    let sink = RecordingSink()
    let store = ListStore<String, TestRow>(codec: HistoryCodec(), sink: sink)
    try store.appendSections(["A"])
    try store.appendItems([TestRow(1, "a"), TestRow(2, "b")])
    try store.moveItem(2, beforeItem: 1)
    try store.undo()
    var records = sink.records
    records.remove(at: 1)  // a missing commit
    #expect(throws: HistoryError.self) { try ListStore<String, TestRow>(replaying: records, codec: HistoryCodec()) }
    do {
      _ = try ListStore<String, TestRow>(replaying: records, codec: HistoryCodec())
    } catch {
      guard case .invalidRecord(let sequence, _) = error else { throw error }
      #expect(sequence == 3)
    }
  }
}
