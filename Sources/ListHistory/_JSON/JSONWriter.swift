/// A tiny streaming JSON writer for the CLI's reports and the sync server's read endpoints: a
/// fixed key order (the order of the calls) and RFC 8259 string escaping, so golden files compare byte for byte — unlike `JSONEncoder`,
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
package struct JSONWriter {
  @inlinable package init() {}

  /// The UTF-8 written so far. Bytes, not a `String`: a `String` append has a fixed cost
  /// whatever its length, and the JSON of a large state (`replay`'s digest, `show --json`) is
  /// millions of small appends.
  package var bytes: [UInt8] = []
  /// Per open container: whether it has an element yet (to place commas).
  @usableFromInline var hasElement: [Bool] = []

  /// True right after `key(_:)`: the next value belongs to that key and needs no comma.
  @usableFromInline var afterKey = false

  /// The JSON text written so far.
  @inlinable package var output: String { String(decoding: bytes, as: UTF8.self) }

  @inlinable mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// Two bytes, without an array literal (which may allocate on every call).
  @inlinable static func append(_ first: UInt8, _ second: UInt8, to output: inout [UInt8]) {
    output.append(first)
    output.append(second)
  }

  @inlinable mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard let last = hasElement.last else { return }
    if last { Self.append(0x2C, 0x20, to: &bytes) }  // ", "
    hasElement[hasElement.count - 1] = true
  }

  @inlinable package mutating func object(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(0x7B)  // {
    hasElement.append(false)
    body(&self)
    hasElement.removeLast()
    bytes.append(0x7D)  // }
  }

  @inlinable package mutating func array(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(0x5B)  // [
    hasElement.append(false)
    body(&self)
    hasElement.removeLast()
    bytes.append(0x5D)  // ]
  }

  /// Writes `"name": `; the next value call writes the value.
  @inlinable package mutating func key(_ name: String) {
    separate()
    JSONWriter.appendEscaped(name, to: &bytes)
    Self.append(0x3A, 0x20, to: &bytes)  // ": "
    afterKey = true
  }

  @inlinable package mutating func string(_ value: String) {
    separate()
    JSONWriter.appendEscaped(value, to: &bytes)
  }

  @inlinable package mutating func number(_ value: Int) {
    separate()
    append(String(value))
  }

  @inlinable package mutating func number(_ value: Double) {
    separate()
    append(value.isFinite ? String(value) : "null")
  }

  @inlinable package mutating func number(_ value: UInt64) {
    separate()
    append(String(value))
  }

  /// A value's JSON as ``JournalValue/writeJSON(into:)`` writes it.
  @inlinable package mutating func value(_ value: JournalValue) {
    separate()
    value.writeJSON(into: &bytes)
  }

  @inlinable package mutating func bool(_ value: Bool) {
    separate()
    append(value ? "true" : "false")
  }

  @inlinable package mutating func null() {
    separate()
    append("null")
  }

  /// `"…"` with `"`, `\`, and control characters escaped; everything else as UTF-8. Byte by
  /// byte: every character that is escaped is ASCII, and the bytes of a multi-byte UTF-8
  /// sequence are all 0x80 or above.
  @inlinable package static func appendEscaped(_ value: String, to output: inout [UInt8]) {
    output.append(0x22)
    var needsEscaping = false
    for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscaping = true
      break
    }
    if !needsEscaping {
      output.append(contentsOf: value.utf8)
    } else {
      for byte in value.utf8 {
        switch byte {
        case 0x22: append(0x5C, 0x22, to: &output)  // \"
        case 0x5C: append(0x5C, 0x5C, to: &output)  // \\
        case 0x0A: append(0x5C, 0x6E, to: &output)  // \n
        case 0x0D: append(0x5C, 0x72, to: &output)  // \r
        case 0x09: append(0x5C, 0x74, to: &output)  // \t
        case 0x08: append(0x5C, 0x62, to: &output)  // \b
        case 0x0C: append(0x5C, 0x66, to: &output)  // \f
        case ..<0x20:
          let hex = String(byte, radix: 16)
          output.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".utf8)
        default: output.append(byte)
        }
      }
    }
    output.append(0x22)
  }
}
