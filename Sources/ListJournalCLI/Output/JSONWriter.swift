/// A tiny streaming JSON writer with a fixed key order (the order of the calls) and
/// RFC 8259 string escaping, so golden files compare byte for byte — unlike `JSONEncoder`,
/// whose dictionaries come out in no particular order.
///
/// Output is compact with one space after `:` and `,` as in the README's shapes.
///
/// ```swift
/// var json = JSONWriter()
/// json.object { json in
///   json.key("version"); json.number(3)
///   json.key("label"); json.string("Move \"a\"")
/// }
/// json.output   // {"version": 3, "label": "Move \"a\""}
/// ```
///
/// - Complexity: O(output size).
struct JSONWriter {
  private(set) var output = ""
  /// Per open container: whether it has an element yet (to place commas).
  private var hasElement: [Bool] = []

  /// True right after `key(_:)`: the next value belongs to that key and needs no comma.
  private var afterKey = false

  private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard let last = hasElement.last else { return }
    if last { output += ", " }
    hasElement[hasElement.count - 1] = true
  }

  mutating func object(_ body: (inout JSONWriter) -> Void) {
    separate()
    output += "{"
    hasElement.append(false)
    body(&self)
    hasElement.removeLast()
    output += "}"
  }

  mutating func array(_ body: (inout JSONWriter) -> Void) {
    separate()
    output += "["
    hasElement.append(false)
    body(&self)
    hasElement.removeLast()
    output += "]"
  }

  /// Writes `"name": `; the next value call writes the value.
  mutating func key(_ name: String) {
    separate()
    JSONWriter.appendEscaped(name, to: &output)
    output += ": "
    afterKey = true
  }

  mutating func string(_ value: String) {
    separate()
    JSONWriter.appendEscaped(value, to: &output)
  }

  mutating func number(_ value: Int) {
    separate()
    output += String(value)
  }

  mutating func number(_ value: Double) {
    separate()
    output += value.isFinite ? String(value) : "null"
  }

  mutating func bool(_ value: Bool) {
    separate()
    output += value ? "true" : "false"
  }

  mutating func null() {
    separate()
    output += "null"
  }

  /// `"…"` with `"`, `\`, and control characters escaped; everything else as UTF-8.
  static func appendEscaped(_ value: String, to output: inout String) {
    output += "\""
    var needsEscaping = false
    for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscaping = true
      break
    }
    if !needsEscaping {
      output += value
    } else {
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        case "\u{08}": output += "\\b"
        case "\u{0C}": output += "\\f"
        default:
          if scalar.value < 0x20 {
            let hex = String(scalar.value, radix: 16)
            output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
          } else {
            output.unicodeScalars.append(scalar)
          }
        }
      }
    }
    output += "\""
  }
}
