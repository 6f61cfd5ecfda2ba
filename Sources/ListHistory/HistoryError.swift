/// Why a history operation (commit, undo, redo, checkout, replay) was refused.
///
/// ```swift
/// do { try store.undo() }
/// catch HistoryError.nothingToUndo { /* disable the menu item */ }
/// ```
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A commit stated the version it expected to extend, but the head has moved on.
  case versionConflict(expected: Version, actual: Version)
  /// Undo at the first version of the history (version 0, or the base of a compacted journal).
  case nothingToUndo(at: Version)
  /// Redo from a version that has no child.
  case nothingToRedo(at: Version)
  /// The version does not exist in this history.
  case unknownVersion(Version)
  /// An event does not fit the state it is applied to (a corrupt or foreign event stream).
  case inconsistentEvent(reason: String)
  /// A record of a replayed stream is malformed or out of order.
  case invalidRecord(sequence: UInt64, reason: String)
  /// The store has no codec, so it cannot produce or read records.
  case noCodec
  /// The version was lost when its journal was repaired (see ``HistoryGap``): its state is
  /// unknown, so it cannot be read, checked out or committed on. `lost` is the run of lost
  /// versions it belongs to.
  case versionLost(Version, lost: ClosedRange<Version>)
  /// The way from `version` crosses versions a repair lost (undo at the version the history
  /// resumed at, or a path between the two sides of a gap).
  case historyGap(at: Version, lost: ClosedRange<Version>)
  /// The version was dropped when the journal's older history was trimmed (`compact
  /// --keep-last`, ``HistoryGap/Reason/retention``): the kept history starts at `keptFrom`.
  case versionDropped(Version, keptFrom: Version)
  /// No way between two kept versions of a trimmed journal: one descends from the kept start
  /// `keptFrom`, the other from version 0 (checked out after the cut), and the way between them
  /// went through dropped versions.
  case pathDropped(from: Version, to: Version, keptFrom: Version)

  @inlinable
  public var description: String {
    switch self {
    case .versionConflict(let expected, let actual):
      "version conflict: the commit expected head \(expected) but the head is \(actual)"
    case .nothingToUndo(let version): "nothing to undo at \(version)"
    case .nothingToRedo(let version): "nothing to redo at \(version)"
    case .unknownVersion(let version): "unknown version \(version)"
    case .inconsistentEvent(let reason): "inconsistent event: \(reason)"
    case .invalidRecord(let sequence, let reason): "invalid record #\(sequence): \(reason)"
    case .noCodec: "the store has no codec to encode or decode records"
    case .versionLost(let version, let lost):
      "\(version) was lost in a repair of the journal (\(Self.describe(lost)) lost in repair)"
    case .historyGap(let version, let lost):
      "the history before \(version) was lost in a repair of the journal (\(Self.describe(lost)) lost in repair)"
    case .versionDropped(let version, let keptFrom):
      "\(version) was dropped from the journal's history, which now starts at \(keptFrom)"
    case .pathDropped(let from, let to, let keptFrom):
      "no way from \(from) to \(to) in the kept history: it went through versions dropped before \(keptFrom)"
    }
  }
}

extension HistoryError {
  /// `versions v151…v199` (or `version v151`) for the messages.
  @inlinable
  static func describe(_ lost: ClosedRange<Version>) -> String {
    lost.lowerBound == lost.upperBound ? "version \(lost.lowerBound)" : "versions \(lost.lowerBound)…\(lost.upperBound)"
  }
}
