import ListState

/// An item with identity apart from content (`title` changes on update), `Codable` through the
/// generic path of the codec (it is not `JournalValueConvertible`).
struct TestRow: ListElement, Codable, Hashable, CustomStringConvertible {
  var id: Int
  var title: String

  init(_ id: Int, _ title: String = "") {
    self.id = id
    self.title = title
  }

  var description: String { "\(id):\(title)" }
}
