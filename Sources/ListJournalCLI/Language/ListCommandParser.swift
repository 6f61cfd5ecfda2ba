import ListState

/// Turns a line of the list language into a ``ListCommand``.
///
/// Keywords (`to`, `under`, `before`, `after`, `with`, `json`) are recognised only unquoted, so
/// any identifier can be written by quoting it. Errors name the column of the offending token
/// and the usage of the command; the interpreter adds the line number.
///
/// ```swift
/// try ListCommandParser.parse("append a b to Fruit")   // .append(["a", "b"], section: "Fruit", parent: nil)
/// try ListCommandParser.parse("# nothing")             // nil: a blank or comment line
/// ```
///
/// - Complexity: O(n) in the line's length.
enum ListCommandParser {
  /// Parses one line; nil for a blank or comment-only line.
  static func parse(_ line: String) throws(ListLanguageError) -> ListCommand? {
    try parse(tokens: ListTokenizer.tokenize(line))
  }

  /// Parses one line given as UTF-8 bytes; nil for a blank or comment-only line.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ListLanguageError) -> ListCommand? {
    try parse(tokens: ListTokenizer.tokenize(bytes))
  }

  /// Parses tokens; nil when there are none.
  static func parse(tokens: [ListToken]) throws(ListLanguageError) -> ListCommand? {
    guard let head = tokens.first else { return nil }
    let arguments = tokens.dropFirst()
    var parser = Arguments(name: head.text, tokens: arguments, end: lineEnd(tokens))
    if head.isQuoted {
      throw ListLanguageError(column: head.column, message: "a command name cannot be quoted")
    }
    switch head.text {
    // Item commands first: a string switch tries its cases in order, and they are most lines.
    case "append": return try parser.append()
    case "insert":
      let (ids, side, anchor, contents) = try parser.identifiersBeside(kind: "item")
      return .insert(ids, side, anchor: anchor, contents: contents)
    case "delete": return .delete(try parser.identifiers(atLeastOne: "item"))
    case "delete-all":
      try parser.finish()
      return .deleteAll
    case "move": return try parser.move()
    case "set":
      let id = try parser.identifier("item")
      let content = try parser.identifier("content")
      try parser.finish()
      return .set(id, content: content)
    case "reload": return .reload(try parser.identifiers(atLeastOne: "item"))
    case "reconfigure": return .reconfigure(try parser.identifiers(atLeastOne: "item"))
    case "expand": return .expand(try parser.identifiers(atLeastOne: "item"))
    case "collapse": return .collapse(try parser.identifiers(atLeastOne: "item"))
    case "replace":
      let (old, new, content) = try parser.replacement(kind: "item")
      return .replace(old, with: new, content: content)
    case "reorder":
      let source = try parser.rowReference()
      try parser.expectKeyword("to")
      let destination = try parser.rowReference()
      try parser.finish()
      return .reorder(from: source, to: destination)
    case "append-sections":
      let (ids, contents) = try parser.newIdentifiers(kind: "section", until: [])
      return .appendSections(ids, contents: contents)
    case "insert-sections":
      let (ids, side, anchor, contents) = try parser.identifiersBeside(kind: "section")
      return .insertSections(ids, side, anchor: anchor, contents: contents)
    case "delete-sections": return .deleteSections(try parser.identifiers(atLeastOne: "section"))
    case "move-section":
      let id = try parser.identifier("section")
      let side = try parser.side()
      let anchor = try parser.identifier("anchor section")
      try parser.finish()
      return .moveSection(id, side, anchor: anchor)
    case "set-section":
      let id = try parser.identifier("section")
      let content = try parser.identifier("content")
      try parser.finish()
      return .setSection(id, content: content)
    case "reload-sections": return .reloadSections(try parser.identifiers(atLeastOne: "section"))
    case "replace-section":
      let (old, new, content) = try parser.replacement(kind: "section")
      return .replaceSection(old, with: new, content: content)
    case "begin":
      try parser.finish()
      return .begin
    case "commit":
      try parser.finish()
      return .commit
    case "rollback":
      try parser.finish()
      return .rollback
    case "undo":
      let count = try parser.optionalCount()
      try parser.finish()
      return .undo(count)
    case "redo":
      let count = try parser.optionalCount()
      try parser.finish()
      return .redo(count)
    case "checkout":
      let version = try parser.version()
      try parser.finish()
      return .checkout(version)
    case "show":
      let json = parser.optionalKeyword("json")
      try parser.finish()
      return .show(json: json)
    case "log":
      try parser.finish()
      return .log
    case "diff":
      let from = try parser.version()
      let to = try parser.version()
      let json = parser.optionalKeyword("json")
      try parser.finish()
      return .diff(from, to, json: json)
    case "help":
      let topic = try parser.optionalToken()
      try parser.finish()
      if let topic, ListCommandHelp.entry(named: topic.text, includingRepl: true) == nil {
        throw ListLanguageError(column: topic.column, message: "no command named '\(topic.text)'")
      }
      return .help(topic?.text)
    case "history", "quit", "exit":
      throw ListLanguageError(column: head.column, message: "'\(head.text)' works in the REPL only (`listjournal repl`)")
    default:
      var message = "unknown command '\(head.text)'"
      if let suggestion = suggestion(for: head.text) { message += "; did you mean '\(suggestion)'?" }
      message += " (type `help` for the list)"
      throw ListLanguageError(column: head.column, message: message)
    }
  }

  /// The column just past the last token, for "missing …" errors.
  private static func lineEnd(_ tokens: [ListToken]) -> Int {
    guard let last = tokens.last else { return 1 }
    return last.column + last.text.utf8.count + (last.isQuoted ? 2 : 0)
  }

  /// The known command closest to a misspelled one: one edit away for words of up to four
  /// letters, two for longer ones (so `foo` suggests nothing, though `log` is two edits away).
  static func suggestion(for word: String) -> String? {
    nearest(to: word, among: ListCommandHelp.names)
  }

  /// The name in `names` closest to `word` within that limit, if any.
  static func nearest(to word: String, among names: [String]) -> String? {
    let candidates = names.map { ($0, editDistance(Array(word.utf8), Array($0.utf8))) }
    let limit = word.utf8.count <= 4 ? 1 : 2
    guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
    return best.0
  }

  /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: `lgo` is one
  /// edit from `log`.
  private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = Array(repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}

extension ListCommandParser {
  /// A cursor over a command's arguments that produces errors naming the column and the usage.
  fileprivate struct Arguments {
    let name: String
    let tokens: ArraySlice<ListToken>
    let end: Int
    var position: Int

    init(name: String, tokens: ArraySlice<ListToken>, end: Int) {
      self.name = name
      self.tokens = tokens
      self.end = end
      self.position = tokens.startIndex
    }

    var isAtEnd: Bool { position == tokens.endIndex }

    func error(_ message: String, column: Int? = nil) -> ListLanguageError {
      let usage = ListCommandHelp.entry(named: name)?.synopsis ?? name
      return ListLanguageError(column: column ?? end, message: "\(message) (usage: \(usage))")
    }

    mutating func next(_ what: String) throws(ListLanguageError) -> ListToken {
      guard position < tokens.endIndex else { throw error("missing \(what)") }
      defer { position += 1 }
      try refuseContent(tokens[position])
      return tokens[position]
    }

    /// `a="…"` gives a content to what a command creates; anywhere else it is an error.
    func refuseContent(_ token: ListToken) throws(ListLanguageError) {
      guard token.bindsContent else { return }
      throw error("'\(token.text)=\"…\"': only a new item or section can be given a content here", column: token.column)
    }

    /// `X... ` up to one of the unquoted `keywords` (or the end), each `X` bare or `X="content"`.
    mutating func newIdentifiers(kind: String, until keywords: [String]) throws(ListLanguageError)
      -> ([String], [String: String])
    {
      var ids: [String] = []
      var contents: [String: String] = [:]
      while position < tokens.endIndex, !keywords.contains(where: { tokens[position].isKeyword($0) }) {
        let token = tokens[position]
        ids.append(token.text)
        position += 1
        if token.bindsContent {
          // The tokenizer puts the quoted content right after a binding token.
          contents[token.text] = tokens[position].text
          position += 1
        }
      }
      guard !ids.isEmpty else {
        throw error("missing \(kind) identifiers", column: isAtEnd ? nil : tokens[position].column)
      }
      return (ids, contents)
    }

    mutating func identifier(_ what: String) throws(ListLanguageError) -> String {
      try next(what).text
    }

    mutating func finish() throws(ListLanguageError) {
      guard position < tokens.endIndex else { return }
      let extra = tokens[position]
      throw error("unexpected '\(extra.text)'", column: extra.column)
    }

    mutating func optionalToken() throws(ListLanguageError) -> ListToken? {
      guard position < tokens.endIndex else { return nil }
      defer { position += 1 }
      try refuseContent(tokens[position])
      return tokens[position]
    }

    mutating func optionalKeyword(_ word: String) -> Bool {
      guard position < tokens.endIndex, tokens[position].isKeyword(word) else { return false }
      position += 1
      return true
    }

    mutating func expectKeyword(_ word: String) throws(ListLanguageError) {
      let token = try next("'\(word)'")
      guard token.isKeyword(word) else { throw error("expected '\(word)', found '\(token.text)'", column: token.column) }
    }

    mutating func side() throws(ListLanguageError) -> ListCommand.Side {
      let token = try next("'before' or 'after'")
      if token.isKeyword("before") { return .before }
      if token.isKeyword("after") { return .after }
      throw error("expected 'before' or 'after', found '\(token.text)'", column: token.column)
    }

    /// `S...` up to the end of the line.
    mutating func identifiers(atLeastOne kind: String) throws(ListLanguageError) -> [String] {
      guard !isAtEnd else { throw error("missing \(kind) identifiers") }
      for token in tokens[position...] { try refuseContent(token) }
      let ids = tokens[position...].map(\.text)
      position = tokens.endIndex
      return ids
    }

    /// `X... before|after Y`, each `X` bare or `X="content"`.
    mutating func identifiersBeside(kind: String) throws(ListLanguageError)
      -> ([String], ListCommand.Side, String, [String: String])
    {
      let (ids, contents) = try newIdentifiers(kind: kind, until: ["before", "after"])
      let side = try self.side()
      let anchor = try identifier("anchor \(kind)")
      try finish()
      return (ids, side, anchor, contents)
    }

    /// `X with Y ["content"]`.
    mutating func replacement(kind: String) throws(ListLanguageError) -> (String, String, String?) {
      let old = try identifier(kind)
      try expectKeyword("with")
      let new = try identifier("new \(kind)")
      let content = try optionalToken()?.text
      try finish()
      return (old, new, content)
    }

    /// `I... [to S] [under P]`, each `I` bare or `I="content"`.
    mutating func append() throws(ListLanguageError) -> ListCommand {
      let (ids, contents) = try newIdentifiers(kind: "item", until: ["to", "under"])
      var section: String?
      var parent: String?
      while let clause = try optionalToken() {
        if clause.isKeyword("to"), section == nil {
          section = try identifier("section")
        } else if clause.isKeyword("under"), parent == nil {
          parent = try identifier("parent item")
        } else {
          throw error("unexpected '\(clause.text)'", column: clause.column)
        }
      }
      return .append(ids, section: section, parent: parent, contents: contents)
    }

    /// `I before|after J`, `I to S`, `I under P`.
    mutating func move() throws(ListLanguageError) -> ListCommand {
      let id = try identifier("item")
      let keyword = try next("'before', 'after', 'to' or 'under'")
      let destination: ListCommand.ItemDestination
      if keyword.isKeyword("before") {
        destination = .before(try identifier("anchor item"))
      } else if keyword.isKeyword("after") {
        destination = .after(try identifier("anchor item"))
      } else if keyword.isKeyword("to") {
        destination = .toSection(try identifier("section"))
      } else if keyword.isKeyword("under") {
        destination = .under(try identifier("parent item"))
      } else {
        throw error("expected 'before', 'after', 'to' or 'under', found '\(keyword.text)'", column: keyword.column)
      }
      try finish()
      return .move(id, destination)
    }

    /// `S:ROW` with non-negative integers.
    /// `SECTION:ROW`: the section by identifier or index, the row a 0-based index (the last
    /// colon separates them, so an identifier may hold colons).
    mutating func rowReference() throws(ListLanguageError) -> ListRowReference {
      let token = try next("SECTION:ROW")
      guard let colon = token.text.lastIndex(of: ":"), colon != token.text.startIndex,
        let row = Int(token.text[token.text.index(after: colon)...]), row >= 0
      else {
        throw error("expected SECTION:ROW (a section identifier or index, a 0-based row), found '\(token.text)'", column: token.column)
      }
      return ListRowReference(section: String(token.text[..<colon]), row: row)
    }

    mutating func optionalCount() throws(ListLanguageError) -> Int {
      guard let token = try optionalToken() else { return 1 }
      guard let count = Int(token.text), count >= 1 else {
        throw error("expected a positive count, found '\(token.text)'", column: token.column)
      }
      return count
    }

    mutating func version() throws(ListLanguageError) -> VersionReference {
      let token = try next("version")
      guard let version = VersionReference(token.text) else {
        throw error("expected a version (N, head or head~N), found '\(token.text)'", column: token.column)
      }
      return version
    }
  }
}
