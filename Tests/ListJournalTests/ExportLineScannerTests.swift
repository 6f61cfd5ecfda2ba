import Foundation
@testable import ListJournal
import TestSupport
import Testing

/// The import's line scanner against Foundation's JSON parser: it accepts exactly the lines
/// that are one JSON object, and reads `kind`, `version` and `payload` as the parser does.
/// It is stricter in two places, on purpose: no trailing comma before `]` or `}` (not JSON,
/// though Foundation accepts it), and a payload must be canonical base64 (padded quartets of the
/// standard alphabet), where Foundation also decodes some damaged ones.
@Suite("Export line scanner")
struct ExportLineScannerTests {
  /// What `JSONSerialization` makes of a line: nil unless it is one JSON object.
  static func reference(_ line: [UInt8]) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
  }

  static func scan(_ line: [UInt8]) -> _ExportLineScanner.Fields? {
    line.withUnsafeBufferPointer { try? _ExportLineScanner().scan($0) }
  }

  /// Checks one line: accepted iff the reference parses it, and the same fields.
  static func check(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    if hasTrailingComma(line) {
      #expect(scan(line) == nil, sourceLocation: sourceLocation)
      return
    }
    let expected = reference(line)
    let fields = scan(line)
    let text = String(decoding: line, as: UTF8.self)
    #expect((fields != nil) == (expected != nil), "\(text)", sourceLocation: sourceLocation)
    guard let fields, let expected else { return }
    #expect(fields.kind == expected["kind"] as? String, "\(text)", sourceLocation: sourceLocation)
    // Integers only: a version written as 1.0 or 1e2 is refused by import, not rounded.
    if let version = fields.version {
      #expect(version == (expected["version"] as? NSNumber)?.int64Value, "\(text)", sourceLocation: sourceLocation)
    }
    let payload = (expected["payload"] as? String).flatMap(canonicalBase64).flatMap { Data(base64Encoded: $0) }
      .map(Array.init)
    #expect(fields.payload == payload, "\(text)", sourceLocation: sourceLocation)
  }

  static func canonicalBase64(_ text: String) -> String? {
    text.utf8.count % 4 == 0 && text.wholeMatch(of: /[A-Za-z0-9+\/]*={0,2}/) != nil ? text : nil
  }

  /// A trailing comma (`[1,]`, `{"a":1,}`): Foundation accepts it; JSON and the scanner do not.
  static func hasTrailingComma(_ line: [UInt8]) -> Bool {
    String(decoding: line, as: UTF8.self).contains(/,\s*[\]}]/)
  }

  /// The lines of an export of a random history (commits, head moves, checkpoints).
  static func exportedLines() throws -> [[UInt8]] {
    let directory = TemporaryDirectory()
    let path = directory.file("e.journal")
    var driver = RandomHistoryDriver(seed: 5)
    let clock = TickingClock()
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(durability: .relaxed, store: .init(journalCheckpointBytes: 400, clock: clock.closure)))
    for _ in 0..<120 { try driver.step(journal.store) }
    try journal.close()
    try JournalMaintenance.export(at: path, toJSONLines: directory.file("e.jsonl"))
    let data = try Data(contentsOf: URL(fileURLWithPath: directory.file("e.jsonl")))
    return data.split(separator: 0x0A).map(Array.init)
  }

  @Test func exportedLinesReadAsTheParserReadsThem() throws {
    let lines = try Self.exportedLines()
    #expect(lines.count > 50)
    for line in lines {
      Self.check(line)
      #expect(Self.scan(line)?.payload != nil)
    }
  }

  @Test func damagedLinesAreRefusedExactlyWhenTheParserRefusesThem() throws {
    var random = SeededRandom(seed: 9)
    let structural = Array("{}[]\",:\\ 0-.etfnu".utf8)
    for (number, line) in try Self.exportedLines().enumerated() where number % 7 == 0 {
      for cut in 0..<line.count { Self.check(Array(line[..<cut])) }
      for _ in 0..<40 {
        var damaged = line
        let at = Int.random(in: 0..<damaged.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: damaged.remove(at: at)
        case 1: damaged[at] = structural.randomElement(using: &random)!
        default: damaged.insert(structural.randomElement(using: &random)!, at: at)
        }
        Self.check(damaged)
      }
    }
  }

  @Test(arguments: [
    #"{}"#, #" { "kind" : "commit" , "version" : 7 , "payload" : "AAEC" } "#,
    #"{"\u006bind":"commit","version":1,"payload":"AA=="}"#,
    #"{"kind":"c\"o\\m\/m\u00e9\ud83d\ude00","version":-0,"payload":"AAE="}"#,
    #"{"version":9223372036854775807}"#, #"{"version":9223372036854775808}"#,
    #"{"version":1.0}"#, #"{"version":1e2}"#, #"{"version":01}"#, #"{"version":-}"#,
    #"{"payload":"AAE"}"#, #"{"payload":"A=AA"}"#, #"{"payload":"====" }"#, #"{"payload":""}"#,
    #"{"a":[1,{"b":[true,false,null,"x",-1.5e-3]}],"kind":"x"}"#, #"{"a":[1,]}"#, #"{"a":1,}"#,
    #"{"a":"\ud800"}"#, #"{"a":"\x"}"#, #"{"a":tru}"#, #"{"a":1}x"#, #"[{"kind":"commit"}]"#,
    #"{"kind":"commit","kind":"headMove"}"#, "{\"a\":\"\t\"}",
  ])
  func handPickedLines(_ line: String) {
    Self.check(Array(line.utf8))
  }

  @Test func nestingIsBounded() {
    let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
    #expect(Self.scan(Array(deep.utf8)) == nil)
    let shallow = "{\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
    #expect(Self.scan(Array(shallow.utf8)) != nil)
  }
}
