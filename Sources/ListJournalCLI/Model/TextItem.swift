import ListState

/// An item as the CLI sees it: a string identifier and a string content.
///
/// `content` is `""` when it was never set. Two items with the same `id` are the same row;
/// `==` also compares `content`, so `set` is a reload.
///
/// ```swift
/// let apple = TextItem(id: "apple", content: "Apple, red")
/// ```
struct TextItem: ListElement, Codable, Hashable, Sendable {
  var id: String
  var content: String

  init(id: String, content: String = "") {
    self.id = id
    self.content = content
  }
}
