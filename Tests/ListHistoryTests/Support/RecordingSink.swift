import ListHistory
import ListLocking

/// A sink that keeps every record and can be told to fail.
final class RecordingSink: HistoryRecordSink {
  struct Failure: Error, Equatable {}
  private let storage = ListMutex<(records: [HistoryRecord], failNext: Int)>(([], 0))
  /// The payload limit the sink announces (a store skips a checkpoint over it); nil: none.
  let maximumPayloadBytes: Int?

  init(maximumPayloadBytes: Int? = nil) { self.maximumPayloadBytes = maximumPayloadBytes }

  var records: [HistoryRecord] { storage.withLock { $0.records } }

  /// Makes the next `count` writes throw.
  func failNext(_ count: Int = 1) { storage.withLock { $0.failNext = count } }

  func write(_ record: HistoryRecord) throws {
    try storage.withLock { state in
      if state.failNext > 0 {
        state.failNext -= 1
        throw Failure()
      }
      state.records.append(record)
    }
  }
}
