/// A self-describing, JSON-like value: how the codec stores identifiers and contents, so a
/// generic tool (the `listjournal` CLI) can decode any journal without the app's types.
///
/// Objects keep their members in encoding order (keys are unique).
///
/// ```swift
/// let value = try JournalValue(encoding: Contact(id: 7, name: "Ada"))
/// // .object([("id", .int(7)), ("name", .string("Ada"))])
/// let contact = try value.decode(as: Contact.self)
/// ```
public enum JournalValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JournalValue])
  case object([Member])

  /// One member of an object.
  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: JournalValue
    @inlinable
    public init(_ key: String, _ value: JournalValue) {
      self.key = key
      self.value = value
    }
  }

  /// The value of `key` when this is an object that has it.
  @inlinable
  public subscript(key: String) -> JournalValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// JSON text (object members in order); doubles that are not finite become strings.
  ///
  /// - Complexity: O(size of the value).
  @inlinable
  public var jsonText: String {
    var out: [UInt8] = []
    writeJSON(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @inlinable
  public var description: String { jsonText }

  /// Appends the value's JSON text (``jsonText``) to `out` as UTF-8: bytes, not `String`
  /// appends, since exports write millions of values.
  ///
  /// - Complexity: O(size of the value).
  @inlinable
  public func writeJSON(into out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): out.append(contentsOf: String(value).utf8)
    case .double(let value): out.append(contentsOf: (value.isFinite ? "\(value)" : "\"\(value)\"").utf8)
    case .string(let value): Self.writeJSONString(value, into: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.writeJSON(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeJSONString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        member.value.writeJSON(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A JSON string: `"` and `\\` escaped, `\n`, `\r`, `\t` and other control characters as
  /// escapes, everything else as its UTF-8 bytes.
  @inlinable
  public static func writeJSONString(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)],
        ])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
