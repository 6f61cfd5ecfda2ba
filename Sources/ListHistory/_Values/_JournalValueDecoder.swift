/// `Decoder` that reads any `Decodable` value from a ``JournalValue`` tree.
///
/// On the replay path of every app whose elements are plain `Codable` types: the standard
/// library's primitives decode through the containers' concrete overloads and metatype tests
/// (no dynamic casts, no child decoder), and coding paths are built only for errors.
@usableFromInline
struct _JournalValueDecoder: Decoder {
  @usableFromInline let value: JournalValue
  @usableFromInline let codingPath: [any CodingKey]

  @inlinable
  init(value: JournalValue, codingPath: [any CodingKey]) {
    self.value = value
    self.codingPath = codingPath
  }
  @inlinable
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  @inlinable
  static func decode<T: Decodable>(_ type: T.Type, from value: JournalValue) throws -> T {
    try _JournalValueDecoder(value: value, codingPath: []).decodeValue(type, codingPath: [])
  }

  /// Decodes a type known not to be ``JournalValueConvertible`` (the element codings decide that
  /// once per type), skipping the per-value protocol casts.
  @inlinable
  static func decode<T: Decodable>(nonConvertible type: T.Type, from value: JournalValue) throws -> T {
    if let primitive = try primitive(type, from: value, path: []) { return primitive }
    return try T(from: _RootJournalValueDecoder(value: value))
  }

  @inlinable
  static func mismatch(_ type: Any.Type, _ value: JournalValue, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value)"))
  }

  @inlinable
  func mismatch(_ type: Any.Type, _ value: JournalValue, _ path: [any CodingKey]) -> DecodingError {
    Self.mismatch(type, value, path)
  }

  /// The standard library's numbers, strings and booleans (nil for other types), with the same
  /// rules as their ``JournalValueConvertible`` conformances and the integer fallback of
  /// ``decodeValue(_:codingPath:)``. The metatype tests fold away in specialized code.
  @inlinable
  static func primitive<T>(_ type: T.Type, from value: JournalValue, path: @autoclosure () -> [any CodingKey]) throws -> T? {
    if T.self == String.self {
      guard case .string(let text) = value else { throw mismatch(type, value, path()) }
      return (text as! T)
    }
    if T.self == Int.self {
      guard case .int(let number) = value, let result = Int(exactly: number) else { throw mismatch(type, value, path()) }
      return (result as! T)
    }
    if T.self == Int64.self {
      guard case .int(let number) = value else { throw mismatch(type, value, path()) }
      return (number as! T)
    }
    if T.self == Bool.self {
      guard case .bool(let flag) = value else { throw mismatch(type, value, path()) }
      return (flag as! T)
    }
    if T.self == Double.self {
      switch value {
      case .double(let number): return (number as! T)
      case .int(let number): return (Double(number) as! T)
      default: throw mismatch(type, value, path())
      }
    }
    if T.self == Float.self {
      switch value {
      case .double(let number): return (Float(number) as! T)
      case .int(let number): return (Float(number) as! T)
      default: throw mismatch(type, value, path())
      }
    }
    if T.self == Int32.self { return try integer(Int32.self, from: value, path: path()) as? T }
    if T.self == Int16.self { return try integer(Int16.self, from: value, path: path()) as? T }
    if T.self == Int8.self { return try integer(Int8.self, from: value, path: path()) as? T }
    if T.self == UInt.self { return try integer(UInt.self, from: value, path: path()) as? T }
    if T.self == UInt64.self { return try integer(UInt64.self, from: value, path: path()) as? T }
    if T.self == UInt32.self { return try integer(UInt32.self, from: value, path: path()) as? T }
    if T.self == UInt16.self { return try integer(UInt16.self, from: value, path: path()) as? T }
    if T.self == UInt8.self { return try integer(UInt8.self, from: value, path: path()) as? T }
    return nil
  }

  /// An integer in range, also from the decimal string of a large unsigned value.
  @inlinable
  static func integer<I: FixedWidthInteger>(_ type: I.Type, from value: JournalValue, path: @autoclosure () -> [any CodingKey]) throws -> I {
    if case .int(let number) = value, let result = I(exactly: number) { return result }
    if case .string(let text) = value, let big = UInt64(text), let result = I(exactly: big) { return result }
    throw mismatch(type, value, path())
  }

  @inlinable
  func decodeValue<T: Decodable>(_ type: T.Type, codingPath path: @autoclosure () -> [any CodingKey]) throws -> T {
    if let primitive = try Self.primitive(type, from: value, path: path()) { return primitive }
    let path = path()
    if let convertible = type as? JournalValueConvertible.Type {
      do { return try convertible.init(journalValue: value) as! T } catch { throw mismatch(type, value, path) }
    }
    if let integer = type as? any FixedWidthInteger.Type {
      guard case .int(let number) = value, let result = integer.init(exactly: number) else {
        if case .string(let text) = value, let big = UInt64(text), let result = integer.init(exactly: big) {
          return result as! T
        }
        throw mismatch(type, value, path)
      }
      return result as! T
    }
    if type == Float.self {
      switch value {
      case .double(let number): return Float(number) as! T
      case .int(let number): return Float(number) as! T
      default: throw mismatch(type, value, path)
      }
    }
    // At the root the value alone goes in, without a path: it fits the existential's inline
    // buffer (see `_RootJournalValueDecoder`), where a value and a path were boxed.
    if path.isEmpty { return try T(from: _RootJournalValueDecoder(value: value)) }
    return try T(from: _JournalValueDecoder(value: value, codingPath: path))
  }

  @inlinable
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else { throw mismatch([String: Any].self, value, codingPath) }
    return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
  }

  @inlinable
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let values) = value else { throw mismatch([Any].self, value, codingPath) }
    return UnkeyedContainer(values: values, codingPath: codingPath)
  }

  @inlinable
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleContainer(decoder: self)
  }

  @usableFromInline
  struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    @usableFromInline let members: [JournalValue.Member]
    @usableFromInline let codingPath: [any CodingKey]

    @inlinable
    init(members: [JournalValue.Member], codingPath: [any CodingKey]) {
      self.members = members
      self.codingPath = codingPath
    }
    @inlinable
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    @inlinable
    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    @inlinable
    func lookup(_ key: Key) throws -> JournalValue {
      let name = key.stringValue
      guard let member = members.first(where: { $0.key == name }) else {
        throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
      }
      return member.value
    }

    @inlinable
    func decodeNil(forKey key: Key) throws -> Bool { try lookup(key) == .null }

    @inlinable
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      let value = try lookup(key)
      if let primitive = try _JournalValueDecoder.primitive(type, from: value, path: codingPath + [key]) { return primitive }
      return try _JournalValueDecoder(value: value, codingPath: codingPath + [key]).decodeValue(type, codingPath: codingPath + [key])
    }

    @inlinable
    func mismatch(_ type: Any.Type, _ value: JournalValue, _ key: Key) -> DecodingError {
      _JournalValueDecoder.mismatch(type, value, codingPath + [key])
    }

    @inlinable
    func integer<I: FixedWidthInteger>(_ type: I.Type, forKey key: Key) throws -> I {
      try _JournalValueDecoder.integer(type, from: lookup(key), path: codingPath + [key])
    }

    // The primitives' overloads, written out so that each is a direct match on the value (the
    // rules of `_JournalValueDecoder.primitive`).
    @inlinable
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      let value = try lookup(key)
      guard case .string(let text) = value else { throw mismatch(type, value, key) }
      return text
    }
    @inlinable
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      let value = try lookup(key)
      guard case .bool(let flag) = value else { throw mismatch(type, value, key) }
      return flag
    }
    @inlinable
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      let value = try lookup(key)
      guard case .int(let number) = value, let result = Int(exactly: number) else { throw mismatch(type, value, key) }
      return result
    }
    @inlinable
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      let value = try lookup(key)
      guard case .int(let number) = value else { throw mismatch(type, value, key) }
      return number
    }
    @inlinable
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      switch try lookup(key) {
      case .double(let number): return number
      case .int(let number): return Double(number)
      case let value: throw mismatch(type, value, key)
      }
    }
    @inlinable
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      switch try lookup(key) {
      case .double(let number): return Float(number)
      case .int(let number): return Float(number)
      case let value: throw mismatch(type, value, key)
      }
    }
    @inlinable
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, forKey: key) }
    @inlinable
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, forKey: key) }

    @inlinable
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try _JournalValueDecoder(value: lookup(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    @inlinable
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try _JournalValueDecoder(value: lookup(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    @inlinable
    func superDecoder() throws -> any Decoder {
      _JournalValueDecoder(value: members.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath)
    }

    @inlinable
    func superDecoder(forKey key: Key) throws -> any Decoder {
      _JournalValueDecoder(value: try lookup(key), codingPath: codingPath + [key])
    }
  }

  @usableFromInline
  struct IndexKey: CodingKey {
    @inlinable
    var stringValue: String { "\(intValue ?? 0)" }
    @usableFromInline var intValue: Int?
    @inlinable
    init(_ index: Int) { intValue = index }
    @inlinable
    init?(stringValue: String) { nil }
    @inlinable
    init?(intValue: Int) { self.intValue = intValue }
  }

  @usableFromInline
  struct UnkeyedContainer: UnkeyedDecodingContainer {
    @usableFromInline let values: [JournalValue]
    @usableFromInline let codingPath: [any CodingKey]
    @usableFromInline var currentIndex = 0
    @inlinable
    var count: Int? { values.count }
    @inlinable
    var isAtEnd: Bool { currentIndex >= values.count }

    @inlinable
    init(values: [JournalValue], codingPath: [any CodingKey]) {
      self.values = values
      self.codingPath = codingPath
    }

    @inlinable
    mutating func next() throws -> (JournalValue, [any CodingKey]) {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          JournalValue.self, .init(codingPath: codingPath, debugDescription: "unkeyed container is at its end"))
      }
      defer { currentIndex += 1 }
      return (values[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    @inlinable
    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, values[currentIndex] == .null else { return false }
      currentIndex += 1
      return true
    }

    @inlinable
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (value, path) = try next()
      return try _JournalValueDecoder(value: value, codingPath: path).decodeValue(type, codingPath: path)
    }

    @inlinable
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
      let (value, path) = try next()
      return try _JournalValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    @inlinable
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let (value, path) = try next()
      return try _JournalValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    @inlinable
    mutating func superDecoder() throws -> any Decoder {
      let (value, path) = try next()
      return _JournalValueDecoder(value: value, codingPath: path)
    }
  }

  @usableFromInline
  struct SingleContainer: SingleValueDecodingContainer {
    @usableFromInline let decoder: _JournalValueDecoder

    @inlinable
    init(decoder: _JournalValueDecoder) {
      self.decoder = decoder
    }
    @inlinable
    var codingPath: [any CodingKey] { decoder.codingPath }
    @inlinable
    func decodeNil() -> Bool { decoder.value == .null }
    @inlinable
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try decoder.decodeValue(type, codingPath: codingPath)
    }
  }
}

/// ``_JournalValueDecoder`` at the root of a value (an empty coding path), holding the value
/// alone.
///
/// Why: a value and a path (32 bytes) do not fit an existential's inline buffer (24), so
/// handing ``_JournalValueDecoder`` to `init(from:)` as `any Decoder` boxed it, one
/// allocation per element on every replay of a `Codable` element type. The value alone fits.
@usableFromInline
struct _RootJournalValueDecoder: Decoder {
  @usableFromInline let value: JournalValue

  @inlinable
  init(value: JournalValue) {
    self.value = value
  }
  @inlinable
  var codingPath: [any CodingKey] { [] }
  @inlinable
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  @inlinable
  var decoder: _JournalValueDecoder { _JournalValueDecoder(value: value, codingPath: []) }

  @inlinable
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try decoder.container(keyedBy: type)
  }

  @inlinable
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try decoder.unkeyedContainer() }

  @inlinable
  func singleValueContainer() throws -> any SingleValueDecodingContainer { try decoder.singleValueContainer() }
}

extension JournalValue {
  /// Encodes any `Encodable` value into its self-describing form.
  ///
  /// - Complexity: O(size of the value).
  @inlinable
  public init<T: Encodable>(encoding value: T) throws {
    self = try _JournalValueEncoder.encode(value)
  }

  /// Decodes a `Decodable` value from this self-describing form.
  ///
  /// - Complexity: O(size of the value).
  @inlinable
  public func decode<T: Decodable>(as type: T.Type) throws -> T {
    try _JournalValueDecoder.decode(type, from: self)
  }
}
