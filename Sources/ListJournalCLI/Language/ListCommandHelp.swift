/// The help text of every list-language command: synopsis, what it does, an example.
///
/// `help` prints the overview, `help COMMAND` one entry; the REPL completes command names from
/// ``names``.
///
/// ```swift
/// ListCommandHelp.entry(named: "move")?.synopsis   // "move I before|after J | move I to S | move I under P"
/// ```
enum ListCommandHelp {
  struct Entry: Sendable {
    var name: String
    var synopsis: String
    var summary: String
    var example: String
  }

  static let entries: [Entry] = [
    Entry(name: "append-sections", synopsis: "append-sections S...",
          summary: "Appends sections at the end (S=\"content\" gives one its content).",
          example: "append-sections Fruit=\"Fresh fruit\" Vegetables"),
    Entry(name: "insert-sections", synopsis: "insert-sections S... before|after S2",
          summary: "Inserts sections next to section S2 (S=\"content\" gives one its content).",
          example: "insert-sections Dairy before Fruit"),
    Entry(name: "delete-sections", synopsis: "delete-sections S...",
          summary: "Deletes sections with every item in them.", example: "delete-sections Dairy"),
    Entry(name: "move-section", synopsis: "move-section S before|after S2",
          summary: "Moves section S next to section S2.", example: "move-section Vegetables before Fruit"),
    Entry(name: "set-section", synopsis: "set-section S \"content\"",
          summary: "Sets a section's content (its header); the section is reloaded.",
          example: "set-section Fruit \"Fresh fruit\""),
    Entry(name: "reload-sections", synopsis: "reload-sections S...", summary: "Marks sections reloaded.",
          example: "reload-sections Fruit"),
    Entry(name: "replace-section", synopsis: "replace-section S with T [\"content\"]",
          summary: "Section T takes S's place and items, with the given content (S's content when none is given).",
          example: "replace-section Fruit with Fruits \"All fruit\""),
    Entry(name: "append", synopsis: "append I... [to S] [under P]",
          summary: "Appends items as root items of S (default: the last section), or as P's last children; I=\"content\" gives one its content.",
          example: "append apple=\"Apple\" pear to Fruit\nappend granny under apple"),
    Entry(name: "insert", synopsis: "insert I... before|after J",
          summary: "Inserts items as J's siblings (I=\"content\" gives one its content).",
          example: "insert kiwi before pear"),
    Entry(name: "delete", synopsis: "delete I...", summary: "Deletes items with their subtrees.",
          example: "delete pear"),
    Entry(name: "delete-all", synopsis: "delete-all",
          summary: "Deletes every item and every section, like UIKit's deleteAllItems.", example: "delete-all"),
    Entry(name: "move", synopsis: "move I before|after J | move I to S | move I under P",
          summary: "Moves an item with its subtree: as J's sibling, as the last root item of S, or as P's last child.",
          example: "move kiwi after pear\nmove kiwi to Vegetables\nmove granny under pear"),
    Entry(name: "set", synopsis: "set I \"content\"",
          summary: "Sets an item's content; it keeps its place, children and expansion and is reloaded.",
          example: "set apple \"Apple, red\""),
    Entry(name: "reload", synopsis: "reload I...", summary: "Marks items reloaded.", example: "reload apple"),
    Entry(name: "reconfigure", synopsis: "reconfigure I...", summary: "Marks items reconfigured.",
          example: "reconfigure apple"),
    Entry(name: "expand", synopsis: "expand I...",
          summary: "Expands items (a leaf keeps the flag for when it gets children).", example: "expand apple"),
    Entry(name: "collapse", synopsis: "collapse I...", summary: "Collapses items.", example: "collapse apple"),
    Entry(name: "replace", synopsis: "replace X with Y [\"content\"]",
          summary: "Item Y takes X's place, children and expansion, with the given content (X's content when none is given).",
          example: "replace apple with apples \"Apples\""),
    Entry(name: "reorder", synopsis: "reorder S:ROW to S:ROW",
          summary: "A drag between visible rows (S = section identifier or 0-based index, ROW = 0-based visible row): the row lands at ROW of the final layout, before the row now there (as its sibling), or, at the end position (ROW = the section's row count), as the last root item.",
          example: "reorder Fruit:3 to Fruit:0"),
    Entry(name: "begin", synopsis: "begin", summary: "Starts a transaction: the commands up to `commit` make one version.",
          example: "begin\nappend a b\ncommit"),
    Entry(name: "commit", synopsis: "commit", summary: "Commits the open transaction as one version.",
          example: "commit"),
    Entry(name: "rollback", synopsis: "rollback", summary: "Drops the open transaction.", example: "rollback"),
    Entry(name: "undo", synopsis: "undo [N]", summary: "Moves the head N versions back (default 1); creates no version.",
          example: "undo 2"),
    Entry(name: "redo", synopsis: "redo [N]",
          summary: "Moves the head to the most recently visited child, N times (default 1); creates no version.",
          example: "redo"),
    Entry(name: "checkout", synopsis: "checkout V", summary: "Moves the head to version V (N, head or head~N).",
          example: "checkout 3"),
    Entry(name: "show", synopsis: "show [json]", summary: "Prints the list at the head.", example: "show json"),
    Entry(name: "log", synopsis: "log", summary: "Prints one line per version.", example: "log"),
    Entry(name: "diff", synopsis: "diff V1 V2 [json]", summary: "Prints the changeset from V1 to V2.",
          example: "diff 1 head"),
    Entry(name: "help", synopsis: "help [COMMAND]", summary: "Lists the commands, or explains one.",
          example: "help move"),
  ]

  /// The commands only the REPL knows (it handles them before the list language).
  static let replEntries: [Entry] = [
    Entry(name: "history", synopsis: "history", summary: "Lists the lines typed, kept across sessions (REPL only).",
          example: "history"),
    Entry(name: "quit", synopsis: "quit | exit",
          summary: "Leaves the REPL (REPL only; Ctrl-D too); an open transaction is rolled back.", example: "quit"),
  ]

  static var names: [String] { entries.map(\.name) }

  /// What the REPL completes and lists: the language's commands and its own.
  static var replNames: [String] { names + replEntries.map(\.name) + ["exit"] }

  static func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

  /// An entry of the language, or of the REPL's own commands when `includingRepl`.
  static func entry(named name: String, includingRepl: Bool) -> Entry? {
    if let entry = entry(named: name) { return entry }
    guard includingRepl else { return nil }
    return replEntries.first { $0.name == name || (name == "exit" && $0.name == "quit") }
  }

  /// The text `help` prints in `exec`.
  static var overview: String { overview(width: nil, includingRepl: false) }

  /// The text `help` prints: one line per command, its summary wrapped to `width` columns
  /// (unwrapped when nil) under a hanging indent; the REPL's own commands when `includingRepl`.
  static func overview(width: Int?, includingRepl: Bool) -> String {
    let shown = includingRepl ? entries + replEntries : entries
    let column = shown.map(\.synopsis.count).filter { $0 < 40 }.max() ?? 30
    let indent = String(repeating: " ", count: column + 4)
    var text = "Commands (one per line; # starts a comment; quote tokens with spaces: \"a b\"):\n"
    for entry in shown {
      let summary = String(entry.summary.prefix { $0 != "." })
      var lines = [String]()
      if entry.synopsis.count < 40 {
        let padding = String(repeating: " ", count: max(1, column - entry.synopsis.count + 2))
        lines = wrap(summary, width: width.map { $0 - column - 4 }, first: "  \(entry.synopsis)\(padding)", rest: indent)
      } else {
        lines = ["  \(entry.synopsis)"] + wrap(summary, width: width.map { $0 - column - 4 }, first: indent, rest: indent)
      }
      text += lines.joined(separator: "\n") + "\n"
    }
    text += "Type `help COMMAND` for details and an example."
    return text
  }

  /// `text` in lines of at most `width` characters (at least 20), broken at spaces, each
  /// after its prefix.
  static func wrap(_ text: String, width: Int?, first: String, rest: String) -> [String] {
    guard let width else { return [first + text] }
    let limit = max(20, width)
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > limit {
        lines.append(current)
        current = ""
      }
      current += current.isEmpty ? String(word) : " " + word
    }
    lines.append(current)
    return lines.enumerated().map { ($0.offset == 0 ? first : rest) + $0.element }
  }

  /// The text `help COMMAND` prints.
  static func text(for entry: Entry) -> String {
    let example = entry.example.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")
    return "usage: \(entry.synopsis)\n\(entry.summary)\nexample:\n\(example)"
  }
}
