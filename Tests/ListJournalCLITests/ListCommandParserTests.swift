import ListState
import Testing

@testable import ListJournalCLI

@Suite("List-language parser")
struct ListCommandParserTests {
  static let valid: [(String, ListCommand)] = [
    ("append-sections A B", .appendSections(["A", "B"])),
    (#"append-sections A="Fruit" B"#, .appendSections(["A", "B"], contents: ["A": "Fruit"])),
    (#"insert-sections C="Roots" after A"#, .insertSections(["C"], .after, anchor: "A", contents: ["C": "Roots"])),
    (#"append a="Apple" b="Banana" to S"#, .append(["a", "b"], section: "S", parent: nil, contents: ["a": "Apple", "b": "Banana"])),
    (#"append "pink lady"="Pink \"Lady\"" c under p"#,
     .append(["pink lady", "c"], section: nil, parent: "p", contents: ["pink lady": #"Pink "Lady""#])),
    (#"append to="kw" a= b=="x""#, .append(["to", "a=", "b="], section: nil, parent: nil, contents: ["to": "kw", "b=": "x"])),
    (#"insert k="Kiwi" before b"#, .insert(["k"], .before, anchor: "b", contents: ["k": "Kiwi"])),
    ("insert-sections C D before A", .insertSections(["C", "D"], .before, anchor: "A")),
    ("insert-sections C after A", .insertSections(["C"], .after, anchor: "A")),
    ("delete-sections A", .deleteSections(["A"])),
    ("move-section A before B", .moveSection("A", .before, anchor: "B")),
    ("move-section A after B", .moveSection("A", .after, anchor: "B")),
    (#"set-section A "Header text""#, .setSection("A", content: "Header text")),
    ("reload-sections A B", .reloadSections(["A", "B"])),
    ("replace-section A with B", .replaceSection("A", with: "B", content: nil)),
    (#"replace-section A with B "new""#, .replaceSection("A", with: "B", content: "new")),
    ("append a b", .append(["a", "b"], section: nil, parent: nil)),
    ("append a to S", .append(["a"], section: "S", parent: nil)),
    ("append a under p", .append(["a"], section: nil, parent: "p")),
    ("append a b to S under p", .append(["a", "b"], section: "S", parent: "p")),
    ("append a under p to S", .append(["a"], section: "S", parent: "p")),
    (#"append "to" "under""#, .append(["to", "under"], section: nil, parent: nil)),
    ("insert a b before c", .insert(["a", "b"], .before, anchor: "c")),
    ("insert a after c", .insert(["a"], .after, anchor: "c")),
    (#"insert "before" before c"#, .insert(["before"], .before, anchor: "c")),
    ("delete a b", .delete(["a", "b"])),
    ("delete-all", .deleteAll),
    ("move a before b", .move("a", .before("b"))),
    ("move a after b", .move("a", .after("b"))),
    ("move a to S", .move("a", .toSection("S"))),
    ("move a under p", .move("a", .under("p"))),
    (#"set a "x y""#, .set("a", content: "x y")),
    ("set a plain", .set("a", content: "plain")),
    ("reload a b", .reload(["a", "b"])),
    ("reconfigure a", .reconfigure(["a"])),
    ("expand a b", .expand(["a", "b"])),
    ("collapse a", .collapse(["a"])),
    ("replace a with b", .replace("a", with: "b", content: nil)),
    (#"replace a with b "B""#, .replace("a", with: "b", content: "B")),
    ("reorder 0:3 to 1:0", .reorder(from: ListRowReference(section: "0", row: 3), to: ListRowReference(section: "1", row: 0))),
    ("reorder Fruit:3 to a:b:0", .reorder(from: ListRowReference(section: "Fruit", row: 3), to: ListRowReference(section: "a:b", row: 0))),
    ("begin", .begin),
    ("commit", .commit),
    ("rollback", .rollback),
    ("undo", .undo(1)),
    ("undo 3", .undo(3)),
    ("redo", .redo(1)),
    ("redo 2", .redo(2)),
    ("checkout 4", .checkout(.number(4))),
    ("checkout head~2", .checkout(.head(back: 2))),
    ("checkout head", .checkout(.head(back: 0))),
    ("show", .show(json: false)),
    ("show json", .show(json: true)),
    ("log", .log),
    ("diff 1 head", .diff(.number(1), .head(back: 0), json: false)),
    ("diff head~1 3 json", .diff(.head(back: 1), .number(3), json: true)),
    ("help", .help(nil)),
    ("help move", .help("move")),
    ("  append a   # trailing comment", .append(["a"], section: nil, parent: nil)),
  ]

  @Test(arguments: 0..<valid.count)
  func parsesEveryCommand(_ index: Int) throws {
    let (line, expected) = Self.valid[index]
    #expect(try ListCommandParser.parse(line) == expected, "\(line)")
  }

  @Test(arguments: 0..<valid.count)
  func descriptionParsesBackToTheSameCommand(_ index: Int) throws {
    let command = Self.valid[index].1
    #expect(try ListCommandParser.parse(command.description) == command, "\(command.description)")
  }

  @Test func everyHelpEntryIsACommandWithAParsingExample() throws {
    for entry in ListCommandHelp.entries {
      for line in entry.example.split(separator: "\n") {
        #expect(try ListCommandParser.parse(String(line)) != nil, "\(entry.name): \(line)")
      }
      #expect(try ListCommandParser.parse("help \(entry.name)") == .help(entry.name))
    }
  }

  @Test func blankAndCommentLinesAreNotCommands() throws {
    #expect(try ListCommandParser.parse("") == nil)
    #expect(try ListCommandParser.parse("   # comment") == nil)
  }

  /// (line, column, a fragment of the message)
  static let invalid: [(String, Int, String)] = [
    (#"set a="x""#, 5, "only a new item or section can be given a content here"),
    (#"delete a="x""#, 8, "only a new item or section can be given a content here"),
    (#"append a to S="x""#, 13, "only a new item or section can be given a content here"),
    (#"append q="x"="y""#, 10, "a content cannot have a content"),
    ("frobnicate a", 1, "unknown command 'frobnicate'"),
    ("apend a", 1, "did you mean 'append'?"),
    ("lg", 1, "did you mean 'log'?"),
    ("foo", 1, "unknown command 'foo' (type `help` for the list)"),
    (#""append" a"#, 1, "cannot be quoted"),
    ("append-sections", 16, "missing section identifiers"),
    ("insert-sections A", 18, "missing 'before' or 'after'"),
    ("insert-sections before A", 17, "missing section identifiers"),
    ("insert-sections A before", 25, "missing anchor section"),
    ("insert-sections A before B C", 28, "unexpected 'C'"),
    ("move-section A beside B", 16, "expected 'before' or 'after', found 'beside'"),
    ("set-section A", 14, "missing content"),
    ("replace-section A B", 19, "expected 'with', found 'B'"),
    ("append", 7, "missing item identifiers"),
    ("append to S", 8, "missing item identifiers"),
    ("append a to", 12, "missing section"),
    ("append a to S to T", 15, "unexpected 'to'"),
    ("append a under", 15, "missing parent item"),
    ("insert a c", 11, "missing 'before' or 'after'"),
    ("delete", 7, "missing item identifiers"),
    ("delete-all now", 12, "unexpected 'now'"),
    ("move a", 7, "missing 'before', 'after', 'to' or 'under'"),
    ("move a into b", 8, "expected 'before', 'after', 'to' or 'under', found 'into'"),
    ("move a before b c", 17, "unexpected 'c'"),
    ("set a", 6, "missing content"),
    ("set a b c", 9, "unexpected 'c'"),
    ("expand", 7, "missing item identifiers"),
    ("replace a b", 11, "expected 'with'"),
    ("replace a with", 15, "missing new item"),
    ("reorder 0-1 to 0:0", 9, "expected SECTION:ROW"),
    ("reorder 0:1 0:0", 13, "expected 'to', found '0:0'"),
    ("reorder 0:1 to 0:x", 16, "expected SECTION:ROW"),
    ("reorder 0:-1 to 0:0", 9, "expected SECTION:ROW"),
    ("begin now", 7, "unexpected 'now'"),
    ("undo 0", 6, "expected a positive count, found '0'"),
    ("undo x", 6, "expected a positive count"),
    ("redo 1 2", 8, "unexpected '2'"),
    ("checkout", 9, "missing version"),
    ("checkout tip", 10, "expected a version (N, head or head~N), found 'tip'"),
    ("checkout head~x", 10, "expected a version"),
    ("show yaml", 6, "unexpected 'yaml'"),
    ("log all", 5, "unexpected 'all'"),
    ("diff 1", 7, "missing version"),
    ("diff 1 2 xml", 10, "unexpected 'xml'"),
    ("help frobnicate", 6, "no command named 'frobnicate'"),
    (#"set a "open"#, 7, "unterminated quoted token"),
  ]

  @Test(arguments: 0..<invalid.count)
  func errorsNameTheColumnAndTheProblem(_ index: Int) throws {
    let (line, column, fragment) = Self.invalid[index]
    let error = try #require(throws: ListLanguageError.self, "\(line)") { try ListCommandParser.parse(line) }
    #expect(error.column == column, "\(line): \(error)")
    #expect(error.message.contains(fragment), "\(line): \(error.message)")
  }

  @Test func usageErrorsQuoteTheCommandsSynopsis() throws {
    let error = try #require(throws: ListLanguageError.self) { try ListCommandParser.parse("move a") }
    #expect(error.message.hasSuffix("(usage: move I before|after J | move I to S | move I under P)"))
    #expect(error.at(line: 7).description.hasPrefix("line 7, column 7: missing"))
  }

  @Test func versionReferences() {
    #expect(VersionReference("0") == .number(0))
    #expect(VersionReference("head~0") == .head(back: 0))
    #expect(VersionReference("head~12") == .head(back: 12))
    #expect(VersionReference("-1") == nil)
    #expect(VersionReference("head~-1") == nil)
    #expect(VersionReference("HEAD") == nil)
  }

  @Test func labelsCountItems() {
    #expect(ListCommand.append(["a", "b"], section: nil, parent: nil).label == "Append 2 Items")
    #expect(ListCommand.delete(["a"]).label == "Delete Item")
    #expect(ListCommand.move("a", .under("b")).label == "Move Item")
  }
}
