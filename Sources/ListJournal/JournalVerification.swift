/// The result of ``JournalMaintenance/verify(at:codec:)``: what was checked and the first problem.
///
/// ```swift
/// let report = JournalMaintenance.verify(at: path)
/// if let problem = report.problem { print("bad at byte \(report.firstBadOffset ?? 0): \(problem)") }
/// ```
public struct JournalVerification: Sendable, Equatable {
  /// Records decoded and replayed.
  public var recordCount: UInt64 = 0
  /// Versions of the replayed (valid) history, including version 0.
  public var versionCount = 0
  /// Events of the replayed history.
  public var eventCount = 0
  /// Checkpoint records whose stored state was compared with the replayed state at their head.
  public var checkpointsChecked = 0
  /// Versions whose state was rebuilt and checked against the model's invariants.
  public var statesChecked = 0
  /// Bytes of a torn tail (not an error: recovery drops it).
  public var tornTailBytes: Int64 = 0
  /// The first problem found, nil when the journal is sound.
  public var problem: JournalStoreError?
  /// Whether the verification wrote the journal's read index (asked for, the journal sound,
  /// and the index missing or not describing it).
  public var readIndexWritten = false
  /// The versions a repair of the journal lost (gap records), as runs: a sound journal may have
  /// them; their states are unknown and were not checked.
  public var lostVersions: [ClosedRange<Version>] = []

  @inlinable
  init(recordCount: UInt64 = 0, versionCount: Int = 0, eventCount: Int = 0, checkpointsChecked: Int = 0, statesChecked: Int = 0, tornTailBytes: Int64 = 0, problem: JournalStoreError? = nil) {
    self.recordCount = recordCount
    self.versionCount = versionCount
    self.eventCount = eventCount
    self.checkpointsChecked = checkpointsChecked
    self.statesChecked = statesChecked
    self.tornTailBytes = tornTailBytes
    self.problem = problem
  }

  /// Whether the journal is sound (a torn tail alone is not a problem).
  @inlinable
  public var isValid: Bool { problem == nil }

  /// Byte offset of the first damage (of the zstd frame holding a bad record).
  @inlinable
  public var firstBadOffset: Int64? {
    switch problem {
    case .journal(.corrupted(let offset, _, _)): offset
    case .journal(.tooLarge(_, _, _, let offset)): offset
    case .journal(.notAJournal), .journal(.newerFormat): 0
    case .invalidRecord(let offset, _, _, _): offset
    default: nil
    }
  }

  /// The last version that replayed cleanly before the problem (nil without a problem).
  @inlinable
  public var lastGoodVersion: Version? {
    problem == nil ? nil : Version(max(0, versionCount - 1))
  }
}
