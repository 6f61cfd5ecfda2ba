/// What `JournalWriter.append(_:)` tells the caller about one record.
///
/// Acknowledge a commit to the user only once it is durable: either `isDurable` is already true
/// (strict mode) or `JournalWriter.durableSequence` has reached `sequence` / `onDurable` fired.
///
/// ```swift
/// let receipt = try writer.append(record)
/// if !receipt.isDurable { try writer.sync() }
/// ```
public struct AppendReceipt: Sendable, Hashable {
  /// The sequence number the writer assigned.
  public var sequence: UInt64
  /// The record's version.
  public var version: UInt64
  /// True when the record has reached stable storage (fdatasync returned) before `append` returned.
  public var isDurable: Bool
}
