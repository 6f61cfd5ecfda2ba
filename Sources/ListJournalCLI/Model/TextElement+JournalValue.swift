import ListHistory

// The codec's fast path: the same `JournalValue` that the synthesized `Codable` conformance
// produces (`{"id": …, "content": …}`, in that order), built directly instead of through the
// reflective `Encoder`, which cost more than applying the command itself. Decoding accepts what
// the `Codable` decoder accepted: an object with string members `id` and `content` (the first
// of each, other members ignored).

extension TextItem: JournalValueConvertible {
  var journalValue: JournalValue { .object([.init("id", .string(id)), .init("content", .string(content))]) }

  init(journalValue: JournalValue) throws(JournalValueError) {
    let (id, content) = try _textElementFields(journalValue, kind: "item")
    self.init(id: id, content: content)
  }
}

extension TextSection: JournalValueConvertible {
  var journalValue: JournalValue { .object([.init("id", .string(id)), .init("content", .string(content))]) }

  init(journalValue: JournalValue) throws(JournalValueError) {
    let (id, content) = try _textElementFields(journalValue, kind: "section")
    self.init(id: id, content: content)
  }
}

/// The `id` and `content` strings of an encoded text element.
private func _textElementFields(_ value: JournalValue, kind: String) throws(JournalValueError) -> (String, String) {
  guard case .object(let members) = value else { throw JournalValueError("expected a text \(kind) object, found \(value)") }
  func field(_ key: String) throws(JournalValueError) -> String {
    guard let member = members.first(where: { $0.key == key }) else {
      throw JournalValueError("text \(kind) \(value) has no \(key)")
    }
    guard case .string(let text) = member.value else {
      throw JournalValueError("text \(kind) \(key) is not a string: \(member.value)")
    }
    return text
  }
  return (try field("id"), try field("content"))
}
