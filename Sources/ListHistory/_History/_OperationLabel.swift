/// What a transaction's operations did, in undo-menu words: a verb, a noun and how many
/// ("Delete 3 Items"), or a fixed phrase ("Delete All"). Operations of one kind add up; a
/// transaction mixing kinds has no default label.
@usableFromInline
struct _OperationLabel: Sendable, Equatable {
  @usableFromInline var verb: String
  /// "Item" or "Section"; empty for a fixed phrase.
  @usableFromInline var noun: String
  @usableFromInline var count: Int

  @inlinable
  init(_ verb: String, _ count: Int = 1, _ noun: String = "Item") {
    self.verb = verb
    self.noun = noun
    self.count = count
  }

  /// A phrase that does not count ("Delete All").
  @inlinable
  static func fixed(_ phrase: String) -> _OperationLabel { _OperationLabel(phrase, 0, "") }

  /// The same kind of operation as `other` (their counts add up).
  @inlinable
  func isSameKind(as other: _OperationLabel) -> Bool { verb == other.verb && noun == other.noun }

  /// "Move Item", "Delete 3 Items", "Delete All".
  @inlinable
  var text: String {
    if noun.isEmpty { return verb }
    return count == 1 ? "\(verb) \(noun)" : "\(verb) \(count) \(noun)s"
  }
}
