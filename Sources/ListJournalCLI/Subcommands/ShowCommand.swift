import ArgumentParser

/// `listjournal show JOURNAL [--at V] [--format text|json]`.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Print the list at the head or at version V.",
    discussion: """
      Text draws the outline (▸ collapsed, ▾ expanded, • leaf, two spaces per level); JSON is \
      {"version": V, "sections": [{"id": S, "content": C, "items": [ITEM...]}]} with \
      ITEM = {"id": I, "content": C, "expanded": true|false, "children": [ITEM...]}.

      Any app's journal can be read: identifiers and contents are decoded as generic values and \
      shown as text. An identifier: a string as itself, any other value as compact JSON (7, \
      {"day":3}). A content: "" for elements that are their own identifier; an object without \
      its `id` member (when that equals the identifier), shown as "" when empty, as its single \
      `content` member when that is all, else as compact JSON ({"title":"Milk","done":true}).

      --salvage reads a journal damaged in its middle: the versions before the damage and \
      those an intact checkpoint after it rebuilds; the lost ones are named on stderr.

      Example:
        listjournal show todo.journal --at head~1 --format json
      """)

  @Argument(help: "The journal file.")
  var journal: String

  // Unconditional: `--at -1` is a mistaken version, not a missing one.
  @Option(parsing: .unconditional, help: "The version to show: N, head or head~N (default: head).")
  var at: String?

  @Option(help: "text or json.")
  var format: OutputFormat = .text

  @Flag(help: "Read past damage: every version that can still be rebuilt; the lost ones are named.")
  var salvage = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      // A mistyped version is named before the journal is opened (and perhaps replayed).
      let reference = try at.map { s throws(ListLanguageError) in try versionReference(s) } ?? .head(back: 0)
      let session = try JournalSessions.open(journal, mode: salvage ? .salvage : .readOnly)
      let version = try session.resolve(reference)
      let outlines = try session.outlines(at: version)
      let out = OutputStream.standardOutput
      switch format {
      case .text:
        out.write(bytes: SnapshotRenderer.textBytes(outlines, version: version, style: .forStandardOutput()))
        out.write("\n")
      case .json: out.writeLine(SnapshotRenderer.json(outlines, version: version))
      }
    }
  }
}
