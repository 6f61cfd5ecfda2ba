import Testing

@testable import ListJournalCLI

@Suite("JSON writer")
struct JSONWriterTests {
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
    var output = ""
    JSONWriter.appendEscaped("q\"b\\n\nt\tc\u{01}é😀", to: &output)
    #expect(output == #""q\"b\\n\nt\tc\u0001é😀""#)
  }
}
