/// A value that a list holds as a section or an item: an identity (`id`) plus content (the rest).
///
/// Identity and content are kept apart: two values with the same `id` are the same row, and
/// `==` tells whether its content changed. Updating content keeps the row's position, children
/// and expansion state and marks it reloaded — so value-type items reload fine.
///
/// ```swift
/// struct Contact: ListElement, Identifiable {
///     let id: UUID
///     var name: String
/// }
/// ```
/// Plain identifiers (`String`, `Int`, `UUID`, …) conform out of the box: their content is the
/// identifier itself.
public protocol ListElement: Equatable, Sendable {
  /// The identity of the element; unique per kind (sections or items) across a whole list.
  associatedtype ID: Hashable & Sendable
  /// The identity of the element.
  var id: ID { get }
}

extension String: ListElement { @inlinable public var id: String { self } }
extension Substring: ListElement { @inlinable public var id: Substring { self } }
extension Int: ListElement { @inlinable public var id: Int { self } }
extension Int64: ListElement { @inlinable public var id: Int64 { self } }
extension Int32: ListElement { @inlinable public var id: Int32 { self } }
extension UInt: ListElement { @inlinable public var id: UInt { self } }
extension UInt64: ListElement { @inlinable public var id: UInt64 { self } }
extension UInt32: ListElement { @inlinable public var id: UInt32 { self } }
