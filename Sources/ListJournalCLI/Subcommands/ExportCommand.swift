import ArgumentParser

/// `listjournal export JOURNAL --format jsonl`.
struct ExportCommand: ParsableCommand {
  enum ExportFormat: String, CaseIterable, ExpressibleByArgument { case jsonl }

  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write the journal's events as JSON lines on stdout.",
    discussion: """
      Example:
        listjournal export todo.journal --format jsonl > todo.jsonl
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "jsonl.")
  var format: ExportFormat = .jsonl

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      _ = try JournalSessions.open(journal, mode: .readOnly)
      throw ListLanguageError(message: "export needs the binary journal format, not available in this build yet")
    }
  }
}
