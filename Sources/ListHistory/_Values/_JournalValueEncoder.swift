/// `Encoder` that turns any `Encodable` value into a ``JournalValue`` tree.
///
/// This is on the commit path of every app whose elements are plain `Codable` types, so the
/// common shapes are cheap: primitives go through the containers' concrete overloads (no
/// dynamic casts, no child encoder), an object's members are collected directly in the array
/// that becomes the value, and only nested containers allocate an encoder of their own.
@usableFromInline
final class _JournalValueEncoder: Encoder {
  @usableFromInline
  enum Kind {
    case unset
    case value(JournalValue)
    case array
    case object
  }

  // The value under construction. A reference type so that containers handed out (and nested
  // containers filled later) all write here. Unchecked exclusivity: one encoder is used by one
  // `encode(to:)` call at a time, and no access here overlaps another (each is a single
  // read or append), so the runtime's dynamic checks would only cost time.
  @usableFromInline @exclusivity(unchecked) var kind: Kind = .unset
  /// Object members or array elements (members only when `kind == .object`); a nested
  /// container's slot holds `.null` until `finish()` fills in its value from `pending`.
  @usableFromInline @exclusivity(unchecked) var members: [JournalValue.Member] = []
  @usableFromInline @exclusivity(unchecked) var elements: [JournalValue] = []
  /// Nested containers still being filled: (slot index, encoder).
  @usableFromInline @exclusivity(unchecked) var pending: [(index: Int, encoder: _JournalValueEncoder)] = []

  @usableFromInline let codingPath: [any CodingKey]
  @inlinable
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  @inlinable
  init(codingPath: [any CodingKey]) {
    self.codingPath = codingPath
  }

  @inlinable
  static func encode<T: Encodable>(_ value: T) throws -> JournalValue {
    if let direct = Self.direct(value) { return direct }
    return try encodeContainer(value)
  }

  /// Encodes a value whose type is known not to be ``JournalValueConvertible`` (the element
  /// codings decide that once per type), skipping the per-value protocol cast.
  @inlinable
  static func encode<T: Encodable>(nonConvertible value: T) throws -> JournalValue {
    if let direct = Self.primitive(value) { return direct }
    return try encodeContainer(value)
  }

  @inlinable
  static func encodeContainer<T: Encodable>(_ value: T) throws -> JournalValue {
    let encoder = _JournalValueEncoder(codingPath: [])
    try value.encode(to: encoder)
    return encoder.finish()
  }

  /// Values that map straight to a ``JournalValue`` without a container.
  @inlinable
  static func direct<T>(_ value: T) -> JournalValue? {
    if let primitive = primitive(value) { return primitive }
    if let value = value as? JournalValueConvertible { return value.journalValue }
    return nil
  }

  /// The standard library's numbers, strings and booleans. The metatype tests fold away in
  /// specialized code (no dynamic cast).
  @inlinable
  static func primitive<T>(_ value: T) -> JournalValue? {
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return .double(value as! Double) }
    if T.self == Int64.self { return .int(value as! Int64) }
    if T.self == Int32.self { return .int(Int64(value as! Int32)) }
    if T.self == Int16.self { return .int(Int64(value as! Int16)) }
    if T.self == Int8.self { return .int(Int64(value as! Int8)) }
    if T.self == UInt8.self { return .int(Int64(value as! UInt8)) }
    if T.self == UInt16.self { return .int(Int64(value as! UInt16)) }
    if T.self == UInt32.self { return .int(Int64(value as! UInt32)) }
    if T.self == UInt.self { return unsigned(UInt64(value as! UInt)) }
    if T.self == UInt64.self { return unsigned(value as! UInt64) }
    if T.self == Float.self { return .double(Double(value as! Float)) }
    return nil
  }

  /// Unsigned integers beyond `Int64.max` are stored as decimal strings.
  @inlinable
  static func unsigned(_ value: UInt64) -> JournalValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .string(String(value))
  }

  /// The finished value (an encoder that wrote nothing is an empty object).
  @inlinable
  func finish() -> JournalValue {
    switch kind {
    case .unset: return .object([])
    case .value(let value): return value
    case .array:
      var result = elements
      for (index, nested) in pending { result[index] = nested.finish() }
      return .array(result)
    case .object:
      var result = members
      for (index, nested) in pending { result[index].value = nested.finish() }
      return .object(result)
    }
  }

  // MARK: Building

  /// Makes this an object (dropping anything else it held).
  @inlinable
  func becomeObject() {
    if case .object = kind { return }
    kind = .object
    // Room for a typical element's few members up front: growing from empty would reallocate
    // the array at the first and second member of every `Codable` element.
    members = []
    members.reserveCapacity(Self.typicalMemberCount)
    elements = []
    pending = []
  }

  /// Members an object's array is first allocated for.
  @inlinable
  static var typicalMemberCount: Int { 4 }

  /// Makes this an array (dropping anything else it held).
  @inlinable
  func becomeArray() {
    if case .array = kind { return }
    kind = .array
    members = []
    elements = []
    pending = []
  }

  /// Sets member `key`; a later value for the same key replaces the earlier one.
  @inlinable
  func set(_ key: String, _ value: JournalValue) {
    becomeObject()
    if let index = members.firstIndex(where: { $0.key == key }) {
      members[index].value = value
      pending.removeAll { $0.index == index }
    } else {
      members.append(JournalValue.Member(key, value))
    }
  }

  /// A nested encoder whose value becomes member `key`.
  @inlinable
  func nested(forKey key: String, codingPath: [any CodingKey]) -> _JournalValueEncoder {
    set(key, .null)
    let child = _JournalValueEncoder(codingPath: codingPath)
    pending.append((members.firstIndex { $0.key == key }!, child))
    return child
  }

  @inlinable
  func append(_ value: JournalValue) {
    becomeArray()
    elements.append(value)
  }

  /// A nested encoder whose value becomes the next element.
  @inlinable
  func appendNested(codingPath: [any CodingKey]) -> _JournalValueEncoder {
    append(.null)
    let child = _JournalValueEncoder(codingPath: codingPath)
    pending.append((elements.count - 1, child))
    return child
  }

  /// Encodes a value that is not a primitive into a nested encoder (or directly when it maps
  /// straight to a ``JournalValue``).
  @inlinable
  func encodeChild<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> JournalValue {
    if let direct = Self.direct(value) { return direct }
    let child = _JournalValueEncoder(codingPath: codingPath())
    try value.encode(to: child)
    return child.finish()
  }

  @inlinable
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    becomeObject()
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  @inlinable
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    becomeArray()
    return UnkeyedContainer(encoder: self)
  }

  @inlinable
  func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

  // MARK: Containers

  @usableFromInline
  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    @usableFromInline let encoder: _JournalValueEncoder

    @inlinable
    init(encoder: _JournalValueEncoder) {
      self.encoder = encoder
    }
    @inlinable
    var codingPath: [any CodingKey] { encoder.codingPath }

    @inlinable
    func set(_ key: Key, _ value: JournalValue) { encoder.set(key.stringValue, value) }

    @inlinable
    mutating func encodeNil(forKey key: Key) throws { set(key, .null) }
    @inlinable
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, .bool(value)) }
    @inlinable
    mutating func encode(_ value: String, forKey key: Key) throws { set(key, .string(value)) }
    @inlinable
    mutating func encode(_ value: Double, forKey key: Key) throws { set(key, .double(value)) }
    @inlinable
    mutating func encode(_ value: Float, forKey key: Key) throws { set(key, .double(Double(value))) }
    @inlinable
    mutating func encode(_ value: Int, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(key, .int(value)) }
    @inlinable
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(key, _JournalValueEncoder.unsigned(UInt64(value))) }
    @inlinable
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(key, .int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(key, _JournalValueEncoder.unsigned(value)) }
    @inlinable
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      set(key, try encoder.encodeChild(value, codingPath: encoder.codingPath + [key]))
    }
    @inlinable
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      encoder.nested(forKey: key.stringValue, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    @inlinable
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      encoder.nested(forKey: key.stringValue, codingPath: codingPath + [key]).unkeyedContainer()
    }
    @inlinable
    mutating func superEncoder() -> any Encoder {
      encoder.nested(forKey: "super", codingPath: codingPath)
    }
    @inlinable
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      encoder.nested(forKey: key.stringValue, codingPath: codingPath + [key])
    }
  }

  @usableFromInline
  struct UnkeyedContainer: UnkeyedEncodingContainer {
    @usableFromInline let encoder: _JournalValueEncoder

    @inlinable
    init(encoder: _JournalValueEncoder) {
      self.encoder = encoder
    }
    @inlinable
    var codingPath: [any CodingKey] { encoder.codingPath }
    @inlinable
    var count: Int { encoder.elements.count }

    @inlinable
    func append(_ value: JournalValue) { encoder.append(value) }

    @inlinable
    mutating func encodeNil() throws { append(.null) }
    @inlinable
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    @inlinable
    mutating func encode(_ value: String) throws { append(.string(value)) }
    @inlinable
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    @inlinable
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    @inlinable
    mutating func encode<T: Encodable>(_ value: T) throws {
      append(try encoder.encodeChild(value, codingPath: encoder.codingPath))
    }
    @inlinable
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
      encoder.appendNested(codingPath: codingPath).container(keyedBy: keyType)
    }
    @inlinable
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      encoder.appendNested(codingPath: codingPath).unkeyedContainer()
    }
    @inlinable
    mutating func superEncoder() -> any Encoder {
      encoder.appendNested(codingPath: codingPath)
    }
  }

  @usableFromInline
  struct SingleContainer: SingleValueEncodingContainer {
    @usableFromInline let encoder: _JournalValueEncoder

    @inlinable
    init(encoder: _JournalValueEncoder) {
      self.encoder = encoder
    }
    @inlinable
    var codingPath: [any CodingKey] { encoder.codingPath }

    @inlinable
    func set(_ value: JournalValue) {
      encoder.kind = .value(value)
      encoder.members = []
      encoder.elements = []
      encoder.pending = []
    }

    @inlinable
    mutating func encodeNil() throws { set(.null) }
    @inlinable
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    @inlinable
    mutating func encode(_ value: String) throws { set(.string(value)) }
    @inlinable
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    @inlinable
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    @inlinable
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    @inlinable
    mutating func encode<T: Encodable>(_ value: T) throws {
      set(try encoder.encodeChild(value, codingPath: encoder.codingPath))
    }
  }
}
