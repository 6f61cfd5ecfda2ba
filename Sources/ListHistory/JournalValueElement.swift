import ListState

/// An element decoded without the app's types: its identifier and its full content, both as
/// ``JournalValue``s. The generic codec (`HistoryCodec.generic()`) decodes any journal into
/// `ListEvent<JournalValueElement, JournalValueElement>` and `ListStore<JournalValueElement,
/// JournalValueElement>` — what the `listjournal` CLI replays and prints.
///
/// Identity is `id`; `==` compares the content (the content usually contains the id too).
///
/// ```swift
/// let row = JournalValueElement(id: .int(7), content: .object([.init("id", .int(7)), .init("title", .string("Milk"))]))
/// row.content["title"]   // .string("Milk")
/// ```
public struct JournalValueElement: ListElement, Hashable, CustomStringConvertible {
  public var id: JournalValue
  public var content: JournalValue

  @inlinable
  public init(id: JournalValue, content: JournalValue) {
    self.id = id
    self.content = content
  }

  /// An element whose content is its identifier (plain `String`/`Int` elements).
  @inlinable
  public init(_ id: JournalValue) {
    self.id = id
    self.content = id
  }

  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.content == rhs.content }
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(content)
  }

  @inlinable
  public var description: String { id == content ? id.jsonText : "\(id.jsonText)=\(content.jsonText)" }
}
