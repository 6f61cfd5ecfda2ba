#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type that converts itself to and from a ``JournalValue`` directly: the codec's fast path,
/// which skips the generic `Codable` machinery. `String`, integers, `Bool`, `Double` and `UUID`
/// conform; an app may conform its item type to make encoding cheaper.
///
/// ```swift
/// extension Row: JournalValueConvertible {
///     var journalValue: JournalValue { .object([.init("id", .int(Int64(id))), .init("rev", .int(Int64(rev)))]) }
///     init(journalValue: JournalValue) throws { ... }
/// }
/// ```
/// The conversion must round-trip: `try T(journalValue: x.journalValue) == x`.
public protocol JournalValueConvertible {
  var journalValue: JournalValue { get }
  init(journalValue: JournalValue) throws(JournalValueError)
}

/// A ``JournalValue`` does not have the shape a type expects.
public struct JournalValueError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  @inlinable
  public init(_ message: String) { self.message = message }
  @inlinable
  public var description: String { message }
}

extension String: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .string(self) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .string(let value) = journalValue else { throw JournalValueError("expected a string, found \(journalValue)") }
    self = value
  }
}

extension Int: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .int(Int64(self)) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .int(let value) = journalValue, let int = Int(exactly: value) else {
      throw JournalValueError("expected an integer, found \(journalValue)")
    }
    self = int
  }
}

extension Int64: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .int(self) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .int(let value) = journalValue else { throw JournalValueError("expected an integer, found \(journalValue)") }
    self = value
  }
}

extension Bool: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .bool(self) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .bool(let value) = journalValue else { throw JournalValueError("expected a boolean, found \(journalValue)") }
    self = value
  }
}

extension Double: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .double(self) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    switch journalValue {
    case .double(let value): self = value
    case .int(let value): self = Double(value)
    default: throw JournalValueError("expected a number, found \(journalValue)")
    }
  }
}

extension UUID: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { .string(uuidString) }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .string(let text) = journalValue, let uuid = UUID(uuidString: text) else {
      throw JournalValueError("expected a UUID string, found \(journalValue)")
    }
    self = uuid
  }
}

extension JournalValue: JournalValueConvertible {
  @inlinable
  public var journalValue: JournalValue { self }
  @inlinable
  public init(journalValue: JournalValue) throws(JournalValueError) { self = journalValue }
}
