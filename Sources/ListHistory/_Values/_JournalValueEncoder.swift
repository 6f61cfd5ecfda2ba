#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Encoder` that turns any `Encodable` value into a ``JournalValue`` tree.
///
/// This is on the commit path of every app whose elements are plain `Codable` types, so the
/// common shapes are cheap: primitives go through the containers' concrete overloads (no
/// dynamic casts, no child encoder), and a node allocates only for nested containers.
final class _JournalValueEncoder: Encoder {
  /// A value under construction (a reference so nested containers can fill it later).
  final class Node {
    enum Kind {
      case unset
      case value(JournalValue)
      case array
      case object
    }
    /// A member or element: finished, or a nested node still being filled.
    enum Slot {
      case value(JournalValue)
      case node(Node)

      func finish() -> JournalValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.finish()
        }
      }
    }

    var kind: Kind = .unset
    /// Object member keys, parallel to `slots` (empty for arrays).
    var keys: [String] = []
    var slots: [Slot] = []

    func finish() -> JournalValue {
      switch kind {
      case .unset: return .object([])
      case .value(let value): return value
      case .array: return .array(slots.map { $0.finish() })
      case .object:
        var members: [JournalValue.Member] = []
        members.reserveCapacity(keys.count)
        for index in keys.indices { members.append(JournalValue.Member(keys[index], slots[index].finish())) }
        return .object(members)
      }
    }

    /// Makes this node an object (dropping anything else it held).
    func becomeObject() {
      if case .object = kind { return }
      kind = .object
      keys = []
      slots = []
    }

    /// Makes this node an array (dropping anything else it held).
    func becomeArray() {
      if case .array = kind { return }
      kind = .array
      keys = []
      slots = []
    }

    /// Sets member `key` (a later value for the same key replaces the earlier one).
    func set(_ key: String, _ slot: Slot) {
      becomeObject()
      if let index = keys.firstIndex(of: key) {
        slots[index] = slot
      } else {
        keys.append(key)
        slots.append(slot)
      }
    }

    func append(_ slot: Slot) {
      becomeArray()
      slots.append(slot)
    }

    func child(forKey key: String) -> Node {
      let node = Node()
      set(key, .node(node))
      return node
    }

    func appendChild() -> Node {
      let node = Node()
      append(.node(node))
      return node
    }
  }

  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(node: Node, codingPath: [any CodingKey]) {
    self.node = node
    self.codingPath = codingPath
  }

  static func encode<T: Encodable>(_ value: T) throws -> JournalValue {
    if let direct = Self.direct(value) { return direct }
    return try encodeContainer(value)
  }

  /// Encodes a value whose type is known not to be ``JournalValueConvertible`` (the element
  /// codings decide that once per type), skipping the per-value protocol cast.
  static func encode<T: Encodable>(nonConvertible value: T) throws -> JournalValue {
    if let direct = Self.primitive(value) { return direct }
    return try encodeContainer(value)
  }

  static func encodeContainer<T: Encodable>(_ value: T) throws -> JournalValue {
    let node = Node()
    try value.encode(to: _JournalValueEncoder(node: node, codingPath: []))
    return node.finish()
  }

  /// Values that map straight to a ``JournalValue`` without a container.
  static func direct<T>(_ value: T) -> JournalValue? {
    if let primitive = primitive(value) { return primitive }
    if let value = value as? JournalValueConvertible { return value.journalValue }
    return nil
  }

  /// The standard library's numbers, strings and booleans. The metatype tests fold away in
  /// specialized code (no dynamic cast).
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
  static func unsigned(_ value: UInt64) -> JournalValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .string(String(value))
  }

  func encodeChild<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> Node.Slot {
    if let direct = Self.direct(value) { return .value(direct) }
    let child = Node()
    let path = key.map { codingPath + [$0] } ?? codingPath
    try value.encode(to: _JournalValueEncoder(node: child, codingPath: path))
    return .node(child)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.becomeObject()
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.becomeArray()
    return UnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _JournalValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ key: Key, _ value: JournalValue) { encoder.node.set(key.stringValue, .value(value)) }

    mutating func encodeNil(forKey key: Key) throws { set(key, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(key, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(key, .double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(key, .double(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(key, .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(key, _JournalValueEncoder.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(key, .int(Int64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(key, _JournalValueEncoder.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      encoder.node.set(key.stringValue, try encoder.encodeChild(value, key: key))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      _JournalValueEncoder(node: encoder.node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        .container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      _JournalValueEncoder(node: encoder.node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        .unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
      _JournalValueEncoder(node: encoder.node.child(forKey: "super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      _JournalValueEncoder(node: encoder.node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: _JournalValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.slots.count }

    private func append(_ value: JournalValue) { encoder.node.append(.value(value)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      encoder.node.append(try encoder.encodeChild(value, key: nil))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
      _JournalValueEncoder(node: encoder.node.appendChild(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      _JournalValueEncoder(node: encoder.node.appendChild(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
      _JournalValueEncoder(node: encoder.node.appendChild(), codingPath: codingPath)
    }
  }

  struct SingleContainer: SingleValueEncodingContainer {
    let encoder: _JournalValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JournalValue) { encoder.node.kind = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      switch try encoder.encodeChild(value, key: nil) {
      case .value(let direct): set(direct)
      case .node(let child):
        // The value encoded itself through containers of its own: adopt what it built.
        encoder.node.kind = child.kind
        encoder.node.keys = child.keys
        encoder.node.slots = child.slots
      }
    }
  }
}
