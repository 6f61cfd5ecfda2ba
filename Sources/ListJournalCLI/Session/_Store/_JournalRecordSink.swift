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

  /// Relaxed durability counts a commit once it is written (page cache), not synced.
  let countsWrittenAsDurable: Bool
  /// The newest version known durable from receipts.
  private let receiptDurable = Mutex<Int?>(nil)

  init(writer: JournalWriter, countsWrittenAsDurable: Bool) {
    self.writer = writer
    self.countsWrittenAsDurable = countsWrittenAsDurable
  }

  func write(_ record: HistoryRecord) throws {
    let receipt = try writer.append(
      JournalRecord(kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    guard record.kind == .commit else { return }
    if receipt.isDurable || countsWrittenAsDurable {
      receiptDurable.withLock { $0 = Int(receipt.version) }
    } else {
      pendingCommits.withLock { $0.append((receipt.sequence, Int(receipt.version))) }
    }
  }

  /// Drops commits that are durable now and returns the newest of them.
  ///
  /// - Complexity: O(commits that became durable), amortized O(1) per commit.
  func takeDurableVersion() -> Int? {
    var newest = receiptDurable.withLock { value in
      defer { value = nil }
      return value
    }
    let hasPending = pendingCommits.withLock { !$0.isEmpty }
    guard hasPending else { return newest }
    let durable = writer.durableSequence
    pendingCommits.withLock { pending in
      var count = 0
      while count < pending.count, pending[count].sequence <= durable {
        newest = pending[count].version
        count += 1
      }
      if count > 0 { pending.removeFirst(count) }
    }
    return newest
  }
}
