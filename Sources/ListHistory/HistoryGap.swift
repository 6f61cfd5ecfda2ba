/// Versions a repaired journal lost, as stored in a gap record: the records that made them (and
/// any head moves among them) were damaged beyond reading, so their states, parents and events
/// are unknown.
///
/// The gap's versions are the newest ones: from the first version after the records kept before
/// the damage up to ``latestVersion``. None may be lost (damage that destroyed only head moves):
/// the gap then says only that where the head went is unknown. The history resumes at the
/// checkpoint record that follows the gap: its head's state is known again (even when that head
/// is one of the lost versions), and later commits build on it as usual. A store refuses to
/// read, check out or commit on a lost version (``HistoryError/versionLost(_:lost:)``) and to
/// undo across the gap (``HistoryError/historyGap(at:lost:)``).
///
/// ```swift
/// let gap = HistoryGap(latestVersion: 199, lostCount: 49)
/// gap.lost                                                   // v151...v199
/// let record = try codec.encode(.gap(gap), sequence: 152)   // record.version == 199
/// ```
public struct HistoryGap: Sendable, Hashable {
  /// Why the versions are missing.
  public enum Reason: UInt8, Sendable, Hashable {
    /// Their records were damaged beyond reading (a repair wrote the gap).
    case damage = 0
    /// A compaction dropped them on purpose, keeping the newer history (see
    /// `JournalRetention`): the gap starts the journal and every version before the checkpoint
    /// that follows it was dropped.
    case retention = 1
  }

  /// The newest version of the history after the gap (the record's version).
  public var latestVersion: Version
  /// How many versions, ending at ``latestVersion``, were lost.
  public var lostCount: Int
  /// Why they are missing (stored only when not ``Reason/damage``, format 1.4).
  public var reason: Reason

  @inlinable
  public init(latestVersion: Version, lostCount: Int, reason: Reason = .damage) {
    self.latestVersion = latestVersion
    self.lostCount = lostCount
    self.reason = reason
  }

  /// The lost versions; nil when none was.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var lost: ClosedRange<Version>? {
    lostCount > 0 ? Version(latestVersion.rawValue - lostCount + 1)...latestVersion : nil
  }
}
