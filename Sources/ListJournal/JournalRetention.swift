/// How much of a journal's history a compaction keeps (``JournalMaintenance/compact(at:level:keeping:codec:)``).
///
/// Dropping history bounds what opening, replaying and storing the journal cost. The kept
/// history starts at one version whose state the journal keeps (without its own change, label
/// or time); every version after it that descends from it reads exactly as before. Earlier
/// versions, and later ones on branches that left the history before the cut, are dropped:
/// reading one throws ``HistoryError/versionDropped(_:keptFrom:)``, and undo stops at the first
/// kept version with ``HistoryError/nothingToUndo(at:)``. Version 0, the empty list, is never
/// dropped: versions committed on it after the cut are kept too, but the way between them and
/// the kept start went through dropped versions (``HistoryError/pathDropped(from:to:keptFrom:)``).
///
/// ```swift
/// let report = try JournalMaintenance.compact(at: path, keeping: .lastVersions(10_000))
/// print("history now starts at \(report.keptFrom)")
/// ```
public enum JournalRetention: Sendable, Hashable {
  /// Every version (a plain recompression).
  case everything
  /// At least the newest `count` versions: the cut goes right before version
  /// `latest − count + 1`, and the kept history starts at that version's parent.
  case lastVersions(Int)
  /// The versions committed at or after `timestamp` (seconds since 1970, as
  /// ``VersionInfo/timestamp``): the cut goes right before the first such version. When none
  /// is, only the head's state is kept.
  case since(timestamp: Double)
}

/// What a compaction that may drop history did.
public struct JournalRetentionReport: Sendable, Hashable {
  /// The byte layer's figures (bytes and records before and after).
  public var compaction: JournalCompactor.Report
  /// Where the kept history starts (version 0 when nothing was dropped).
  public var keptFrom: Version
  /// How many versions the rewrite dropped (0 when it kept everything).
  public var droppedVersions: Int

  @inlinable
  public init(compaction: JournalCompactor.Report, keptFrom: Version, droppedVersions: Int) {
    self.compaction = compaction
    self.keptFrom = keptFrom
    self.droppedVersions = droppedVersions
  }
}
