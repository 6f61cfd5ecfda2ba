extension JournalReader {
  /// Index of the last frame whose first version is at or before `version` — the frame to start
  /// decoding from to reach `version` (records at `version` may continue into later frames).
  ///
  /// ```swift
  /// if let index = reader.frameIndex(containing: 1200) { var it = reader.makeIterator(fromFrame: index) }
  /// ```
  /// - Complexity: O(log frames).
  public func frameIndex(containing version: UInt64) -> Int? {
    var low = 0
    var high = frames.count
    while low < high {
      let mid = (low + high) / 2
      if frames[mid].recordCount == 0 || frames[mid].firstVersion <= version { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? nil : low - 1
  }

  /// Index of the frame holding the record with `sequence`: the last frame whose first record
  /// comes at or before it (nil before the first frame).
  ///
  /// - Complexity: O(log frames).
  @usableFromInline
  package func frameIndex(containingSequence sequence: UInt64) -> Int? {
    var low = 0
    var high = frames.count
    while low < high {
      let mid = (low + high) / 2
      if frames[mid].firstSequence <= sequence { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? nil : low - 1
  }

  /// Index of the last frame that starts with a checkpoint at or before `version`.
  ///
  /// - Complexity: O(frames) in the worst case (walks back from the version's frame).
  public func checkpointFrameIndex(atOrBefore version: UInt64) -> Int? {
    guard var index = frameIndex(containing: version) else { return nil }
    while true {
      if frames[index].startsWithCheckpoint && frames[index].firstVersion <= version { return index }
      if index == 0 { return nil }
      index -= 1
    }
  }

  /// The nearest checkpoint record at or before `version`, decoding only its frame's first chunk.
  ///
  /// Time travel: load this checkpoint, then apply `makeIterator(fromFrame:)` records after it up
  /// to `version`.
  ///
  /// ```swift
  /// if let checkpoint = try reader.nearestCheckpoint(atOrBefore: 5000) { restore(checkpoint.payload) }
  /// ```
  /// - Complexity: O(one chunk's decoded size) after the index lookup.
  public func nearestCheckpoint(atOrBefore version: UInt64) throws(JournalError) -> JournalRecord? {
    guard let index = checkpointFrameIndex(atOrBefore: version) else { return nil }
    var iterator = makeIterator(fromFrame: index)
    return try iterator.next()
  }

  /// Records from the nearest checkpoint at or before `version` (or from the start if there is
  /// none) — the minimal decode that reconstructs the state at `version`.
  ///
  /// - Complexity: O(1) to create.
  public func records(fromCheckpointAtOrBefore version: UInt64) -> JournalRecordIterator {
    makeIterator(fromFrame: checkpointFrameIndex(atOrBefore: version) ?? 0)
  }
}
