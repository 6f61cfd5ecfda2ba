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
  public subscript(key: String) -> JournalValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// JSON text (object members in order); doubles that are not finite become strings.
  ///
  /// - Complexity: O(size of the value).
  @inlinable
  public var jsonText: String {
    var out = ""
    write(into: &out)
    return out
  }

  @inlinable
  public var description: String { jsonText }

  @inlinable
  func write(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value): out += value.isFinite ? "\(value)" : "\"\(value)\""
    case .string(let value): Self.writeString(value, into: &out)
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        value.write(into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        Self.writeString(member.key, into: &out)
        out += ":"
        member.value.write(into: &out)
      }
      out += "}"
    }
  }

  @inlinable
  static func writeString(_ string: String, into out: inout String) {
    out += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
