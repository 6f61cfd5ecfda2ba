extension JournalRepair {
  /// What a repair did: which bytes of the original it kept, which it dropped, and where the
  /// history resumes after each damaged stretch.
  ///
  /// ```swift
  /// let report = try JournalRepair.repair(at: path)
  /// for resumption in report.resumptions { print(resumption.lostVersions ?? 0...0, resumption.offset) }
  /// ```
  public struct Report: Sendable, Hashable {
    /// Bytes of the original kept: the header and the chunks whose records the repaired
    /// journal holds (rewritten at new offsets when anything after damage was kept).
    public var keptBytes: Int64
    /// Bytes of the original dropped.
    public var droppedBytes: Int64
    /// Where the damaged original was saved (nil when nothing needed repair).
    public var damagedCopyPath: String?
    /// Records in the repaired journal, gap records included.
    public var recordCount: UInt64
    /// Version of the last kept record.
    public var lastGoodVersion: UInt64?
    /// The byte ranges of the original whose chunks were kept, in file order.
    public var keptRanges: [Range<Int64>] = []
    /// One entry per intact stretch after damage that the repaired journal keeps, in file order.
    public var resumptions: [Resumption] = []

    /// The byte ranges of the original that were dropped (damage, and chunks that cannot be
    /// decoded without it).
    ///
    /// - Complexity: O(kept ranges).
    public func droppedRanges(fileSize: Int64) -> [Range<Int64>] {
      var dropped: [Range<Int64>] = []
      var cursor: Int64 = 64
      for range in keptRanges {
        if range.lowerBound > cursor { dropped.append(cursor..<range.lowerBound) }
        cursor = max(cursor, range.upperBound)
      }
      if cursor < fileSize { dropped.append(cursor..<fileSize) }
      return dropped
    }
  }

  /// Where a repaired journal's history resumes: a gap record, then the records of an intact
  /// stretch of the original from its first checkpoint on.
  public struct Resumption: Sendable, Hashable {
    /// The versions the gap record declares lost (nil: none; the gap then only says the head's
    /// moves in the damage are unknown). The checkpoint's head, when among them, is rebuilt.
    public var lostVersions: ClosedRange<UInt64>?
    /// The byte offset in the original of the checkpoint the history resumes at.
    public var offset: Int64
    /// The newest version the checkpoint names (the gap record's version).
    public var checkpointVersion: UInt64
  }
}
