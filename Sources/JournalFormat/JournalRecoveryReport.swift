/// What opening a journal found at its end.
///
/// ```swift
/// let writer = try JournalWriter.open(at: path)
/// if writer.recovery.tornTailBytes > 0 {
///   log("dropped \(writer.recovery.tornTailBytes) bytes of a torn write at \(writer.recovery.validBytes)")
/// }
/// ```
public struct JournalRecoveryReport: Sendable, Hashable {
  /// Bytes up to the end of the last complete chunk (header included).
  public var validBytes: Int64
  /// Bytes after `validBytes` that were dropped (writer) or ignored (reader) as a torn tail:
  /// a cut-off, zero-filled or garbage tail with nothing valid after it.
  public var tornTailBytes: Int64
  /// Why the tail was considered torn.
  public var tornTailReason: String?
  /// Mid-file corruption found by a reader opened with `tolerateCorruption: true`: the journal
  /// is readable up to `validBytes` only.
  public var corruption: JournalError?
}
