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

/// An item whose `Codable` encoding fails for the title "unencodable": a record that cannot be
/// encoded, for the tests of encoding failures.
///
/// ```swift
/// FragileItem("a")                            // encodes
/// FragileItem("b", title: "unencodable")      // encode(to:) throws FragileItem.Refused
/// ```
public struct FragileItem: ListElement, Codable, Hashable, Sendable {
  public struct Refused: Error {}
  public var id: String
  public var title: String

  public init(_ id: String, title: String = "fine") {
    self.id = id
    self.title = title
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
  }

  public func encode(to encoder: any Encoder) throws {
    if title == "unencodable" { throw Refused() }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
  }

  enum CodingKeys: String, CodingKey { case id, title }
}
