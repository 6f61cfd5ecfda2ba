/// Why a record could not be encoded or decoded.
///
/// Decoding is total: any byte string gives either a value or this error — never a crash or an
/// unbounded allocation — and a malformed payload names the byte offset where reading failed.
///
/// ```swift
/// do { _ = try codec.decode(record) }
/// catch .malformed(let offset, let reason) { print("byte \(offset): \(reason)") }
/// ```
public enum HistoryCodecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The payload is not a valid encoding; `offset` is the byte offset within the payload.
  case malformed(offset: Int, reason: String)
  /// A value could not be encoded (its `Codable` conformance threw, or it nests too deeply).
  case unencodable(String)

  @inlinable
  public var description: String {
    switch self {
    case .malformed(let offset, let reason): "malformed history record at byte \(offset): \(reason)"
    case .unencodable(let reason): "cannot encode: \(reason)"
    }
  }
}
