import Testing
import TestSupport

import ListHistory

@Suite("JSON writer")
struct JSONWriterTests {
  /// What the writer writes for a string value, as text.
  static func escaped(_ value: String) -> String {
    var bytes: [UInt8] = []
    JSONWriter.appendEscaped(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func keysKeepTheirOrderAndValuesTheirTypes() {
    var json = JSONWriter()
    json.object { json in
      json.key("z")
      json.number(1)
      json.key("a")
      json.array { json in
        json.bool(true)
        json.null()
        json.string("s")
        json.object { _ in }
        json.array { _ in }
      }
      json.key("m")
      json.object { json in
        json.key("k")
        json.bool(false)
      }
    }
    #expect(json.output == #"{"z": 1, "a": [true, null, "s", {}, []], "m": {"k": false}}"#)
  }

  @Test func stringsAreEscaped() {
    let output = Self.escaped("q\"b\\n\nt\tc\u{01}é😀")
    #expect(output == #""q\"b\\n\nt\tc\u0001é😀""#)
  }

  /// The writer escapes byte by byte; a scalar-by-scalar reference (RFC 8259's rules, as the
  /// writer did before it wrote bytes) agrees on random strings of quotes, backslashes, control
  /// characters and multi-byte characters.
  @Test func byteEscapingMatchesTheScalarReference() {
    // RFC 8259's escapes by table, scalar by scalar: an independent statement of the rule.
    let named: [Unicode.Scalar: String] = [
      "\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#, "\u{08}": #"\b"#, "\u{0C}": #"\f"#,
    ]
    func reference(_ value: String) -> String {
      let body = value.unicodeScalars.map { scalar -> String in
        if let escape = named[scalar] { return escape }
        guard scalar.value < 0x20 else { return String(scalar) }
        let hex = String(scalar.value, radix: 16)
        return #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
      }
      return "\"" + body.joined() + "\""
    }
    let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\u{00}", "\u{01}", "\u{08}", "\u{0C}", "\n", "\r", "\t", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}"]
    var random = SeededRandom(seed: 20_261_125)
    for _ in 0..<2_000 {
      var value = ""
      for _ in 0..<Int.random(in: 0...12, using: &random) { value.unicodeScalars.append(alphabet.randomElement(using: &random)!) }
      let output = Self.escaped(value)
      #expect(output == reference(value), "\(Array(value.unicodeScalars))")
    }
  }
}
