/// One encoded history record, as the journal file layer stores it (payload-opaque):
/// a commit, a head move (undo/redo/checkout) or a full-state checkpoint.
///
/// `version` is the newest version number in the history when the record was written, so it
/// never decreases along a journal (a head move back to an older version still carries the
/// newest number; the payload names the head). `sequence` counts records from 1.
///
/// ```swift
/// let record = HistoryRecord(kind: .commit, sequence: 1, version: 1, payload: bytes)
/// ```
public struct HistoryRecord: Hashable, Sendable {
  /// The record kinds; raw values match `JournalRecord.Kind` (4, metadata, and 5–6, a
  /// replica's, are not history records).
  public enum Kind: UInt8, Hashable, Sendable, CustomStringConvertible {
    case commit = 1
    case headMove = 2
    case checkpoint = 3
    /// Versions lost in a repair (``HistoryGap``); a checkpoint follows.
    case gap = 7
    @inlinable
    public var description: String {
      switch self {
      case .commit: "commit"
      case .headMove: "headMove"
      case .checkpoint: "checkpoint"
      case .gap: "gap"
      }
    }
  }

  public var kind: Kind
  public var sequence: UInt64
  public var version: UInt64
  public var payload: [UInt8]

  @inlinable
  public init(kind: Kind, sequence: UInt64, version: UInt64, payload: [UInt8]) {
    self.kind = kind
    self.sequence = sequence
    self.version = version
    self.payload = payload
  }
}

/// Where a store sends every record it produces — the persistence hook the journal writer
/// implements.
///
/// The store calls ``write(_:)`` while holding its lock, after the change is fully prepared and
/// *before* it becomes visible (head, snapshot, observers). A thrown error fails the commit or
/// head move: the store's state and its codec are left exactly as before. Checkpoint records
/// follow a commit when the encoded bytes since the last checkpoint reach the store's budget;
/// the codec resets its intern tables at each checkpoint, so a reader can start decoding there
/// (a journal starts a new frame with it). A failed checkpoint write does not fail the commit
/// that preceded it; the store tries again once another 8× the failed checkpoint's size of
/// records is written (a checkpoint over ``maximumPayloadBytes`` is not even handed to `write`).
/// A checkpoint needs nothing but the records before it, so skipping one loses no data.
///
/// ```swift
/// final class Collect: HistoryRecordSink, @unchecked Sendable {
///     var records: [HistoryRecord] = []
///     func write(_ record: HistoryRecord) throws { records.append(record) }
/// }
/// ```
public protocol HistoryRecordSink: AnyObject, Sendable {
  func write(_ record: HistoryRecord) throws
  /// The largest payload `write` accepts, if it has a limit (a journal's record limit): the
  /// store skips a checkpoint record larger than that instead of handing it over. Nil (the
  /// default): no limit.
  var maximumPayloadBytes: Int? { get }
}

extension HistoryRecordSink {
  @inlinable
  public var maximumPayloadBytes: Int? { nil }
}
