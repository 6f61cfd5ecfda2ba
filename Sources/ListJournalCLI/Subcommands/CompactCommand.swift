import ArgumentParser

/// `listjournal compact JOURNAL`.
struct CompactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact",
    abstract: "Rewrite the journal atomically, recompressing cold frames.",
    discussion: """
      Example:
        listjournal compact todo.journal
      """)

  @Argument(help: "The journal file.")
  var journal: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      _ = try JournalSessions.open(journal, mode: .readOnly)
      throw ListLanguageError(message: "compact needs the binary journal format, not available in this build yet")
    }
  }
}
