import ArgumentParser

/// `listjournal log JOURNAL [--format text|json] [--graph]`.
struct LogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "log",
    abstract: "List the versions: number, parent, time, label, operation count.",
    discussion: """
      JSON: [{"version": V, "parent": P|null, "head": bool, "label": L, "ops": N}].
      `ops` is the number of events the version recorded (as `replay` and `info` count them):
      one per section inserted, deleted or moved, one per run of items inserted or deleted, one
      per item moved, updated, replaced, expanded or collapsed, one per reload/reconfigure — so
      `append-sections A B` is 2 and `append a b` is 1; a command that changed nothing is 0.
      Any app's journal can be read (see `listjournal show --help`).
      --graph draws the undo tree with the head marked.

      Example:
        listjournal log todo.journal --graph
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "text or json.")
  var format: OutputFormat = .text

  @Flag(help: "Draw the undo tree (branches nest; the head is marked).")
  var graph = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: .readOnly)
      let versions = session.versions()
      let style = TerminalStyle.forStandardOutput()
      let text =
        graph ? LogRenderer.graph(versions, style: style)
        : format == .json ? LogRenderer.json(versions) : LogRenderer.text(versions, style: style)
      OutputStream.standardOutput.writeLine(text)
    }
  }
}
