import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal`: replay, inspect and edit ListJournal journals.
///
/// Exit codes: 0 success, 1 a user error or a bad journal, 2 a usage error.
///
/// ```
/// $ listjournal exec todo.journal script.list
/// $ listjournal show todo.journal --at head~2
/// ```
@main
struct ListJournalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listjournal",
    abstract: "Replay, inspect and edit ListJournal journals.",
    discussion: """
      Every subcommand takes the journal path first, except `import` (the JSON-lines file, then \
      the journal to create), `clone` (the source, then the replica journal to create) and \
      `sync` (two replica journals). Errors go to stderr as `error: …` and name the line, identifier, \
      version or byte offset. Exit codes: 0 success, 1 user error or bad \
      journal, 2 usage error.

      Example:
        echo 'append-sections Fruit' | listjournal exec todo.journal
        listjournal show todo.journal
      """,
    subcommands: [
      ExecCommand.self, ReplCommand.self, ShowCommand.self, LogCommand.self, DiffCommand.self,
      ReplayCommand.self, VerifyCommand.self, InfoCommand.self, CompactCommand.self, ExportCommand.self,
      ImportCommand.self, CloneCommand.self, SyncCommand.self, ServeCommand.self,
    ])

  /// Runs the command line, mapping argument errors to `error: …` and exit code 2 (usage),
  /// where swift-argument-parser would use 64.
  static func main() {
    if let name = CommandLine.arguments.dropFirst().first, let message = unknownSubcommandMessage(name) {
      OutputStream.standardError.writeLine("error: \(message)")
      OutputStream.standardError.writeLine("(see `listjournal help` or `listjournal SUBCOMMAND --help`)")
      exitProcess(2)
    }
    do {
      var command = try parseAsRoot()
      try command.run()
      OutputStream.standardOutput.flush()
    } catch {
      OutputStream.standardOutput.flush()
      let code = exitCode(for: error)
      if code == .validationFailure {
        var message = self.message(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        OutputStream.standardError.writeLine("error: \(message)")
        OutputStream.standardError.writeLine("(see `listjournal help` or `listjournal SUBCOMMAND --help`)")
        exitProcess(2)
      }
      if code == .success {
        OutputStream.standardOutput.writeLine(fullMessage(for: error))
        OutputStream.standardOutput.flush()
        exitProcess(0)
      }
      if let exitCode = error as? ExitCode {
        exitProcess(exitCode.rawValue)
      }
      OutputStream.standardError.writeLine("error: \(self.message(for: error))")
      exitProcess(code == .failure ? 1 : code.rawValue)
    }
  }

  /// `unknown subcommand 'foo'` (with a suggestion only for a near name) when the first
  /// argument names no subcommand; nil for a subcommand, `help` or an option.
  static func unknownSubcommandMessage(_ name: String) -> String? {
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    guard !name.hasPrefix("-"), !names.contains(name) else { return nil }
    var message = "unknown subcommand '\(name)'"
    if let near = ListCommandParser.nearest(to: name, among: names) { message += "; did you mean '\(near)'?" }
    return message + " (subcommands: \(names.dropLast().joined(separator: ", ")))"
  }
}
