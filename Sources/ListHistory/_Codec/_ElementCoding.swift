import ListState

/// How the codec turns one element type into (identifier value, content value) and back.
///
/// Built once per codec: the type checks that choose a fast path (String/Int identifiers,
/// ``JournalValueConvertible`` contents, elements that are their own identifier) run here, not
/// per element.
@usableFromInline
struct _ElementCoding<Element: ListElement>: Sendable {
  @usableFromInline let idValue: @Sendable (Element.ID) throws -> JournalValue
  @usableFromInline let makeID: @Sendable (JournalValue) throws -> Element.ID
  /// Nil when the element is its own identifier (its content is never stored separately).
  @usableFromInline let contentValue: @Sendable (Element) throws -> JournalValue
  @usableFromInline let make: @Sendable (Element.ID, JournalValue) throws -> Element
  /// The element *is* its identifier (`String`, `Int`, …): content is implied by the id.
  @usableFromInline let identityElement: (@Sendable (Element.ID) -> Element)?
  /// Whether `contentValue` is a direct conversion (``JournalValueConvertible``, the generic
  /// model) rather than a trip through `Codable`. A checkpoint then converts each item again
  /// instead of looking up the content the encoder remembers, which costs a table lookup per
  /// item — more than the conversion.
  @usableFromInline var encodesContentCheaply = false
  /// Whether an identifier's value is `.int` of the identifier itself (an `Int` identifier
  /// read by `Int(journalValue:)`, which takes no other form): a decoder computes it instead of
  /// reading the value it interned.
  @usableFromInline var idValueFollowsFromID = false

  @inlinable
  init(idValue: @escaping @Sendable (Element.ID) throws -> JournalValue, makeID: @escaping @Sendable (JournalValue) throws -> Element.ID, contentValue: @escaping @Sendable (Element) throws -> JournalValue, make: @escaping @Sendable (Element.ID, JournalValue) throws -> Element, identityElement: (@Sendable (Element.ID) -> Element)? = nil, encodesContentCheaply: Bool = false, idValueFollowsFromID: Bool = false) {
    self.idValue = idValue
    self.makeID = makeID
    self.contentValue = contentValue
    self.make = make
    self.identityElement = identityElement
    self.encodesContentCheaply = encodesContentCheaply
    self.idValueFollowsFromID = idValueFollowsFromID
  }

  /// Identifiers and contents through ``JournalValueConvertible`` when available, otherwise `Codable`.
  @inlinable
  static func codable() -> Self where Element: Codable, Element.ID: Codable {
    let idValue: @Sendable (Element.ID) throws -> JournalValue
    let makeID: @Sendable (JournalValue) throws -> Element.ID
    if Element.ID.self == Int.self {
      idValue = { .int(Int64($0 as! Int)) }
      makeID = { try Int(journalValue: $0) as! Element.ID }
    } else if Element.ID.self == String.self {
      idValue = { .string($0 as! String) }
      makeID = { try String(journalValue: $0) as! Element.ID }
    } else if Element.ID.self is JournalValueConvertible.Type {
      idValue = { ($0 as! JournalValueConvertible).journalValue }
      makeID = { try (Element.ID.self as! JournalValueConvertible.Type).init(journalValue: $0) as! Element.ID }
    } else {
      idValue = { try _JournalValueEncoder.encode(nonConvertible: $0) }
      makeID = { try _JournalValueDecoder.decode(nonConvertible: Element.ID.self, from: $0) }
    }
    let contentValue: @Sendable (Element) throws -> JournalValue
    let make: @Sendable (Element.ID, JournalValue) throws -> Element
    if let convertible = Element.self as? any (JournalValueConvertible & Sendable).Type {
      (contentValue, make) = convertibleCoding(convertible)
    } else {
      contentValue = { try _JournalValueEncoder.encode(nonConvertible: $0) }
      make = { _, value in try _JournalValueDecoder.decode(nonConvertible: Element.self, from: value) }
    }
    var identityElement: (@Sendable (Element.ID) -> Element)?
    if Element.ID.self == Element.self { identityElement = { $0 as! Element } }
    var coding = Self(idValue: idValue, makeID: makeID, contentValue: contentValue, make: make, identityElement: identityElement)
    coding.encodesContentCheaply = Element.self is any JournalValueConvertible.Type
    coding.idValueFollowsFromID = Element.ID.self == Int.self
    return coding
  }

  /// Contents through ``JournalValueConvertible`` with the conformance found once, here: `T` is
  /// `Element` itself, so the per-element casts are same-type casts, not conformance lookups
  /// (`$0 as! any JournalValueConvertible` searched the conformance on every call).
  @inlinable
  static func convertibleCoding<T: JournalValueConvertible & Sendable>(_: T.Type) -> (
    contentValue: @Sendable (Element) throws -> JournalValue, make: @Sendable (Element.ID, JournalValue) throws -> Element
  ) {
    ({ ($0 as! T).journalValue }, { _, value in try T(journalValue: value) as! Element })
  }
}

extension _ElementCoding where Element == JournalValueElement {
  /// The identity coding of the generic element model.
  @inlinable
  static var generic: Self {
    var coding = Self(
      idValue: { $0 }, makeID: { $0 }, contentValue: { $0.content },
      make: { id, content in JournalValueElement(id: id, content: content) }, identityElement: nil)
    coding.encodesContentCheaply = true
    return coding
  }
}

extension _ElementCoding {
  /// The element's content and identifier values, or nil when the element is its own identifier
  /// (then only the identifier is ever stored). `kind` names the element in errors.
  @inlinable
  func values(of element: Element, kind: String) throws(HistoryCodecError) -> (content: JournalValue, id: JournalValue)? {
    if let identityElement, identityElement(element.id) == element { return nil }
    do {
      return (try contentValue(element), try idValue(element.id))
    } catch { throw .unencodable("\(kind) \(element.id): \(error)") }
  }
}
