import ArgumentParser
import ListJournal

@main
struct ListJournalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listjournal", abstract: "Replay, inspect and edit ListJournal journals.")
}
