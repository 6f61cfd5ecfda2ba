/// A version of a list's history: 0 is the empty list, each committed transaction creates the
/// next number (creation order, never reused, across all branches of the undo tree).
///
/// ```swift
/// let v: Version = 3
/// v.rawValue   // 3
/// ```
public struct Version: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, Codable
{
  public var rawValue: Int

  @inlinable
  public init(rawValue: Int) { self.rawValue = rawValue }
  @inlinable
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  @inlinable
  public init(integerLiteral value: Int) { self.rawValue = value }

  /// The empty list every history starts from.
  public static let initial: Version = 0

  @inlinable
  public static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }
  @inlinable
  public var description: String { "v\(rawValue)" }

  @inlinable
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(Int.self)
  }
  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
