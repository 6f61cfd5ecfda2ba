import ListState

/// A section value for tests: a small string identity plus a content string, so that content
/// updates (`updateSection`, `replaceSection` with the same id) are observable through `==`.
///
/// ```swift
/// let fruit = TestSection("Fruit", content: "Fresh fruit")
/// fruit.id        // "Fruit"
/// ```
public struct TestSection: ListElement, Identifiable, Codable, Hashable, Sendable, CustomStringConvertible {
  public var id: String
  public var content: String

  public init(_ id: String, content: String = "") {
    self.id = id
    self.content = content
  }

  public var description: String { content.isEmpty ? id : "\(id)[\(content)]" }
}

/// An item value for tests: a small string identity plus a content string, so that content
/// updates (`updateItem`, `replaceItem` with the same id) are observable through `==`.
///
/// ```swift
/// let apple = TestItem("Apple", content: "red")
/// var updated = apple; updated.content = "green"   // same row, new content
/// ```
public struct TestItem: ListElement, Identifiable, Codable, Hashable, Sendable, CustomStringConvertible {
  public var id: String
  public var content: String

  public init(_ id: String, content: String = "") {
    self.id = id
    self.content = content
  }

  public var description: String { content.isEmpty ? id : "\(id)[\(content)]" }
}

/// The snapshot type most tests use.
public typealias TestSnapshot = ListSnapshot<TestSection, TestItem>
