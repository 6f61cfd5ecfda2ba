import ArgumentParser

/// `listjournal log JOURNAL [--limit N] [--format text|json] [--graph]`.
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
      --limit N lists only the newest N versions (the last N lines of the full log; with
      --graph, the tree they form, each version whose parent is older starting a root): on a
      long journal that is read from its index instead of replaying it.

      Example:
        listjournal log todo.journal --graph
        listjournal log todo.journal --limit 20
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "text or json.")
  var format: OutputFormat = .text

  @Flag(help: "Draw the undo tree (branches nest; the head is marked).")
  var graph = false

  @Option(help: "List only the newest N versions.")
  var limit: Int?

  @Flag(help: "Read past damage: every version that can still be rebuilt; the lost ones are named.")
  var salvage = false

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit)") }
  }

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: salvage ? .salvage : .readOnly)
      let versions = try session.logEntries(newest: limit)
      let style = TerminalStyle.forStandardOutput()
      let text =
        graph ? LogRenderer.graph(versions, style: style)
        : format == .json ? LogRenderer.json(versions) : LogRenderer.text(versions, style: style)
      OutputStream.standardOutput.writeLine(text)
    }
  }
}
