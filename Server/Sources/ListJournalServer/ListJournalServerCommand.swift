import ArgumentParser

/// `listjournal-server`: the sync server that hosts shared lists (`listjournal serve` runs it).
///
/// ```
/// $ listjournal-server serve --port 8080 --data lists --tokens tokens.json
/// ```
@main
struct ListJournalServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listjournal-server",
    abstract: "The ListJournal sync server: shared lists over WebSockets, JSON reads, on journal files.",
    subcommands: [ServeCommand.self],
    defaultSubcommand: ServeCommand.self)
}
