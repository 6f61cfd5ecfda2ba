import JournalFormat
import ListHistory
import Synchronization

/// Hands the store's records to the journal writer and remembers which version each commit
/// record carries, so the session can tell when a version has become durable.
///
/// The store calls `write` under its own lock before a change takes effect; an error fails
/// that change.
final class _JournalRecordSink: HistoryRecordSink {
  let writer: JournalWriter
  /// (journal sequence, version) of commit records not yet known durable, oldest first.
  private let pendingCommits = Mutex<[(sequence: UInt64, version: Int)]>([])

  init(writer: JournalWriter) {
    self.writer = writer
  }

  func write(_ record: HistoryRecord) throws {
    let receipt = try writer.append(
      JournalRecord(kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    if record.kind == .commit {
      pendingCommits.withLock { $0.append((receipt.sequence, Int(receipt.version))) }
    }
  }

  /// Drops commits that are durable now and returns the newest of them.
  func takeDurableVersion() -> Int? {
    let durable = writer.durableSequence
    return pendingCommits.withLock { pending in
      var newest: Int?
      var count = 0
      for entry in pending where entry.sequence <= durable {
        newest = entry.version
        count += 1
      }
      pending.removeFirst(count)
      return newest
    }
  }
}
