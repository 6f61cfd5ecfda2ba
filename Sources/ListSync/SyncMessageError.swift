/// Why bytes received are not a valid ``SyncMessage``.
///
/// ```swift
/// do { _ = try SyncMessage(decoding: [0x04, 0x01]) } catch {
///   error.offset   // 2: the stored count is missing
/// }
/// ```
public enum SyncMessageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The frame does not follow the layout, at this byte offset.
  case malformed(offset: Int, reason: String)

  /// The byte offset of the problem.
  public var offset: Int {
    switch self {
    case .malformed(let offset, _): offset
    }
  }

  public var description: String {
    switch self {
    case .malformed(let offset, let reason): "malformed sync message at byte \(offset): \(reason)"
    }
  }
}
