import Foundation
import Testing

/// Contents given on creation (`append a="Apple"`) are recorded in the creating event itself,
/// and survive export and import.
@Suite("Contents on creation")
struct ContentsOnCreationTests {
  @Test func contentsSurviveExportAndImportAsOneEventPerCommand() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = #"append-sections S="Fruit"\#nappend a="Apple" b="Banana" to S\#n"#
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: script, in: directory).status == 0)
    let export = try CLIRunner.run(["export", "j.journal", "--format", "jsonl", "-o", "j.jsonl"], in: directory)
    #expect(export.status == 0)
    let lines = try String(contentsOf: directory.appendingPathComponent("j.jsonl"), encoding: .utf8).split(separator: "\n")
    let append = try #require(lines.first { $0.contains(#""version":2"#) })
    #expect(append.components(separatedBy: #""op":"#).count == 2, "one insertItems event, no set: \(append)")
    #expect(append.contains(#"{"id":"b","content":"Banana"}"#))
    #expect(try CLIRunner.run(["import", "j.jsonl", "copy.journal"], in: directory).status == 0)
    let original = try CLIRunner.run(["show", "j.journal"], in: directory)
    let copy = try CLIRunner.run(["show", "copy.journal"], in: directory)
    #expect(original.stdout == "version 2\nS \"Fruit\"\n  • a \"Apple\"\n  • b \"Banana\"\n")
    #expect(copy.stdout == original.stdout)
  }
}
