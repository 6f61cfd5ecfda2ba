import ArgumentParser

/// `listjournal import JSONL JOURNAL`.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Build a journal from JSON lines written by `export`.",
    discussion: """
      Example:
        listjournal import todo.jsonl copy.journal
      """)

  @Argument(help: "The JSON-lines file.")
  var jsonl: String

  @Argument(help: "The journal to create.")
  var journal: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      throw ListLanguageError(message: "import needs the binary journal format, not available in this build yet")
    }
  }
}
