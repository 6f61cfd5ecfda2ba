import ListState

/// A section as the CLI sees it: a string identifier and a string content (its header text).
///
/// `content` is `""` when it was never set. Two sections with the same `id` are the same
/// section; `==` also compares `content`, so `set-section` is a reload.
///
/// ```swift
/// let fruit = TextSection(id: "Fruit", content: "Fresh fruit")
/// ```
struct TextSection: ListElement, Codable, Hashable, Sendable {
  var id: String
  var content: String

  init(id: String, content: String = "") {
    self.id = id
    self.content = content
  }
}
