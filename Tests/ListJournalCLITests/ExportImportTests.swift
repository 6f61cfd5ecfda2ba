import Foundation
import Testing

/// `export --format jsonl` and `import`: a round trip rebuilds the same history, and a bad
/// line is named.
@Suite("export and import")
struct ExportImportTests {
  static let script = """
    append-sections Fruit Veg
    set-section Fruit "Fresh \\"fruit\\""
    append apple pear to Fruit
    append granny under apple
    expand apple
    undo
    append kale to Veg
    move pear before apple
    move pear before apple
    checkout 3

    """

  @Test func exportThenImportRebuildsTheSameHistory() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try CLIRunner.run(["exec", "j.journal"], stdin: Self.script, in: directory).status == 0)

    let export = try CLIRunner.run(["export", "j.journal", "--format", "jsonl"], in: directory)
    #expect(export.status == 0)
    #expect(export.stderr.isEmpty)
    let lines = export.stdout.split(separator: "\n")
    // 8 commits (one a no-op move), undo and checkout.
    #expect(lines.count == 10)
    #expect(lines[0].hasPrefix(#"{"sequence":1,"kind":"commit","version":1,"parent":0,"#))
    #expect(lines[0].contains(#""label":"Append 2 Sections","events":[{"op":"insertSection""#))
    #expect(lines[5].contains(#""kind":"headMove","#))
    #expect(lines[5].contains(#""move":"undo","from":5,"to":4,"#))
    try export.stdout.write(to: directory.appendingPathComponent("j.jsonl"), atomically: true, encoding: .utf8)

    let imported = try CLIRunner.run(["import", "j.jsonl", "copy.journal"], in: directory)
    #expect(imported == .init(stdout: "imported 10 records into copy.journal\n", stderr: "", status: 0))
    for arguments in [["show", "--format", "json"], ["log", "--format", "json"], ["log", "--graph"], ["show", "--at", "6"]] {
      let original = try CLIRunner.run([arguments[0], "j.journal"] + arguments.dropFirst(), in: directory)
      let copy = try CLIRunner.run([arguments[0], "copy.journal"] + arguments.dropFirst(), in: directory)
      #expect(original.status == 0)
      #expect(copy == original, "\(arguments)")
    }
    // The copy exports to the same lines, and `--output` writes the same file.
    #expect(try CLIRunner.run(["export", "copy.journal"], in: directory).stdout == export.stdout)
    #expect(try CLIRunner.run(["export", "j.journal", "-o", "out.jsonl"], in: directory) == .init(stdout: "", stderr: "", status: 0))
    #expect(try String(contentsOf: directory.appendingPathComponent("out.jsonl"), encoding: .utf8) == export.stdout)
  }

  @Test func aMalformedLineIsNamedAndNothingIsCreated() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a b\nmove b before a\n", in: directory)
    let lines = try CLIRunner.run(["export", "j.journal"], in: directory).stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    let cases: [(String, String)] = [
      ([lines[0], "", "{not json", lines[2]].joined(separator: "\n"), "error: line 3: not a JSON object\n"),
      ([lines[0], lines[1].replacingOccurrences(of: #""kind":"commit""#, with: #""kind":"shrug""#)].joined(separator: "\n"),
       "error: line 2: missing or unknown \"kind\"\n"),
      ([lines[0], lines[1].replacingOccurrences(of: #""payload":""#, with: #""payload":"%%"#)].joined(separator: "\n"),
       "error: line 2: missing or invalid base64 \"payload\"\n"),
      // Versions out of order.
      ([lines[1], lines[0]].joined(separator: "\n"), "error: line 2: record version 1 is lower than the previous version 2\n"),
      // Well-formed lines whose records do not replay: version 3 right after version 1.
      ([lines[0], "", lines[2]].joined(separator: "\n"), "error: line 3: record #2 (version 3) does not replay: "),
    ]
    for (input, expected) in cases {
      try input.write(to: directory.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
      let result = try CLIRunner.run(["import", "bad.jsonl", "new.journal"], in: directory)
      #expect(result.status == 1, "\(expected)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.journal").path))
    }
    // An existing journal is never overwritten; a missing input or journal is named.
    try lines.joined(separator: "\n").write(to: directory.appendingPathComponent("good.jsonl"), atomically: true, encoding: .utf8)
    let existing = try CLIRunner.run(["import", "good.jsonl", "j.journal"], in: directory)
    #expect(existing == .init(stdout: "", stderr: "error: 'j.journal' already exists; import creates a new journal\n", status: 1))
    #expect(try CLIRunner.run(["import", "nope.jsonl", "n.journal"], in: directory).stderr == "error: cannot read 'nope.jsonl'\n")
    let missing = try CLIRunner.run(["export", "nope.journal"], in: directory)
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: cannot open journal 'nope.journal'"))
  }
}
