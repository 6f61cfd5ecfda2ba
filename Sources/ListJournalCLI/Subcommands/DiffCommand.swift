import ArgumentParser

/// `listjournal diff JOURNAL FROM TO [--format text|json]`.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Print the changeset between two versions (any branch).",
    discussion: """
      Versions are N, head or head~N. Text lists `- deleted`, `+ inserted`, `→ moved`, \
      `~ reloaded` with ids; JSON has one object per stage of batch updates. Any app's journal \
      can be read (ids shown as in `listjournal show --help`).

      Example:
        listjournal diff todo.journal head~3 head --format json
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Argument(help: "The version to diff from.")
  var from: String

  @Argument(help: "The version to diff to.")
  var to: String

  @Option(help: "text or json.")
  var format: OutputFormat = .text

  @Flag(help: "Read past damage: every version that can still be rebuilt; the lost ones are named.")
  var salvage = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: salvage ? .salvage : .readOnly)
      let fromVersion = try session.resolve(try versionReference(from))
      let toVersion = try session.resolve(try versionReference(to))
      OutputStream.standardOutput.writeLine(
        try ChangesetRenderer.render(
          from: fromVersion, to: toVersion, session: session, json: format == .json,
          style: .forStandardOutput()))
    }
  }
}
