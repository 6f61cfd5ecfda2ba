/// `Encoder` that turns any `Encodable` value into a ``JournalValue`` tree.
final class _JournalValueEncoder: Encoder {
  /// A node of the value under construction (a reference so nested containers can fill it later).
  final class Node {
    enum Kind {
      case unset
      case value(JournalValue)
      case array([Node])
      case object([(String, Node)])
    }
    var kind: Kind = .unset

    func finish() -> JournalValue {
      switch kind {
      case .unset: return .object([])
      case .value(let value): return value
      case .array(let nodes): return .array(nodes.map { $0.finish() })
      case .object(let members): return .object(members.map { JournalValue.Member($0.0, $0.1.finish()) })
      }
    }

    func child(forKey key: String) -> Node {
      let node = Node()
      guard case .object(var members) = kind else {
        kind = .object([(key, node)])
        return node
      }
      if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = node } else { members.append((key, node)) }
      kind = .object(members)
      return node
    }

    func appendChild() -> Node {
      let node = Node()
      if case .array(var nodes) = kind {
        nodes.append(node)
        kind = .array(nodes)
      } else {
        kind = .array([node])
      }
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
    let node = Node()
    try value.encode(to: _JournalValueEncoder(node: node, codingPath: []))
    return node.finish()
  }

  /// Values that map straight to a ``JournalValue`` without a container.
  static func direct(_ value: Any) -> JournalValue? {
    switch value {
    case let value as JournalValueConvertible: return value.journalValue
    case let value as Int8: return .int(Int64(value))
    case let value as Int16: return .int(Int64(value))
    case let value as Int32: return .int(Int64(value))
    case let value as UInt8: return .int(Int64(value))
    case let value as UInt16: return .int(Int64(value))
    case let value as UInt32: return .int(Int64(value))
    case let value as UInt: return value <= UInt(Int64.max) ? .int(Int64(value)) : .string(String(value))
    case let value as UInt64: return value <= UInt64(Int64.max) ? .int(Int64(value)) : .string(String(value))
    case let value as Float: return .double(Double(value))
    default: return nil
    }
  }

  func encodeChild<T: Encodable>(_ value: T, into node: Node, key: (any CodingKey)?) throws {
    if let direct = Self.direct(value) {
      node.kind = .value(direct)
      return
    }
    let path = key.map { codingPath + [$0] } ?? codingPath
    try value.encode(to: _JournalValueEncoder(node: node, codingPath: path))
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.kind {} else { node.kind = .object([]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.kind {} else { node.kind = .array([]) }
    return UnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _JournalValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { encoder.node.child(forKey: key.stringValue).kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try encoder.encodeChild(value, into: encoder.node.child(forKey: key.stringValue), key: key)
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
    var count: Int {
      if case .array(let nodes) = encoder.node.kind { return nodes.count }
      return 0
    }
    mutating func encodeNil() throws { encoder.node.appendChild().kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try encoder.encodeChild(value, into: encoder.node.appendChild(), key: nil)
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
    mutating func encodeNil() throws { encoder.node.kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try encoder.encodeChild(value, into: encoder.node, key: nil)
    }
  }
}
