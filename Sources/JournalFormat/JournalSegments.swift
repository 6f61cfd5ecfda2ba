/// The readable runs of chunks of a journal damaged in its middle (see
/// ``JournalReader/openSegments(at:limits:fileSystem:)``).
///
/// ```swift
/// let segments = try JournalReader.openSegments(at: path)
/// segments.readers.count      // 1 when the journal is undamaged
/// segments.newestVersion      // the newest version any intact chunk names
/// ```
public struct JournalSegments: Sendable {
  /// The valid prefix first, then one reader per intact run after damage.
  public let readers: [JournalReader]
  /// The newest version named by any intact chunk, also one that no reader covers (a
  /// continuation chunk after damage): what a salvaging reader reports lost up to.
  public let newestVersion: UInt64?

  init(readers: [JournalReader], newestVersion: UInt64?) {
    self.readers = readers
    self.newestVersion = newestVersion
  }
}
