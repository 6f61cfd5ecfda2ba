import ListHistory

extension JournalValue {
  /// How the CLI prints an identifier or content decoded without the app's types: a string as
  /// itself, any other value (number, bool, null, array, object) as compact JSON.
  ///
  /// ```swift
  /// JournalValue.string("apple").displayText   // apple
  /// JournalValue.int(7).displayText            // 7
  /// JournalValue.object([.init("title", .string("Milk"))]).displayText   // {"title":"Milk"}
  /// ```
  ///
  /// - Complexity: O(size of the value).
  var displayText: String {
    if case .string(let text) = self { return text }
    return jsonText
  }
}

extension JournalValueElement {
  /// The content the CLI prints for an element of any app's journal.
  ///
  /// The codec stores an element's whole encoding as its content, which usually repeats the
  /// identifier; the rule drops that repetition:
  /// - an element that is its own identifier (`String`, `Int`…) has no content: `""`;
  /// - an object loses its `id` member when that equals the identifier; what remains is `""`
  ///   when nothing, the member's display text when it is a single `content` member (how the
  ///   CLI's own elements are stored), and compact JSON otherwise;
  /// - any other value: its ``JournalValue/displayText``.
  ///
  /// ```swift
  /// JournalValueElement(id: .int(7), content: .object([.init("id", .int(7)), .init("title", .string("Milk"))]))
  ///   .displayContent   // {"title":"Milk"}
  /// ```
  ///
  /// - Complexity: O(size of the content).
  var displayContent: String {
    if content == id { return "" }
    guard case .object(let members) = content else { return content.displayText }
    // The CLI's own elements, `{"id": ID, "content": TEXT}`, without filtering a copy.
    if members.count == 2, members[0].key == "id", members[0].value == id, members[1].key == "content" {
      return members[1].value.displayText
    }
    let rest = members.filter { !($0.key == "id" && $0.value == id) }
    if rest.isEmpty { return "" }
    if rest.count == 1, rest[0].key == "content" { return rest[0].value.displayText }
    return JournalValue.object(rest).jsonText
  }
}
