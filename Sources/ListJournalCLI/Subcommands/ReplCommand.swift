import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal repl JOURNAL`: the list language interactively.
struct ReplCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "Edit a journal interactively: line editing, history, tab completion, undo/redo.",
    discussion: """
      Tab completes command names and the identifiers of the current state; arrow-up recalls
      earlier lines; `undo`/`redo` print what they undid; `help` lists the commands; Ctrl-D quits.
      On a pipe it reads plain lines without prompts.

      Example:
        listjournal repl todo.journal
        v0> append-sections Fruit
        v1> append apple pear
        v2> undo
        undid 2 Append 2 Items: insert apple pear
      """)

  @Argument(help: "The journal file (created if missing).")
  var journal: String

  @Option(help: "When a commit is durable: strict, grouped, relaxed.")
  var durability: CLIDurability = .strict

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: .readWrite(durability: durability, createIfMissing: true))
      let terminal = isatty(STDIN_FILENO) == 1
      let interpreter = ListInterpreter(
        session: session, output: .standardOutput, style: .forStandardOutput(), interactive: true)
      let editor = LineEditors.make { word, isCommandName in
        if isCommandName { return ListCommandHelp.names }
        let keywords = ["to", "under", "before", "after", "with", "json", "head"]
        // A writing session's head never fails to show; the keywords alone if it ever did.
        guard let snapshot = try? session.currentSnapshot else { return keywords }
        return (snapshot.sectionIdentifiers + snapshot.itemIdentifiers).map { ListTokenizer.quoted($0) } + keywords
      }
      if terminal {
        OutputStream.standardOutput.writeLine(
          "listjournal: \(journal) at version \(session.headVersion). Type `help` for commands, Ctrl-D to quit.")
      }
      var number = 0
      while true {
        try interpreter.idle()
        let prompt = terminal ? "v\(session.headVersion)\(session.isInTransaction ? "+" : "")> " : ""
        guard let line = editor.readLine(prompt: prompt) else { break }
        number += 1
        if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { editor.addHistory(line) }
        if !terminal, line == "quit" || line == "exit" { break }
        if line == "quit" || line == "exit" { break }
        do throws(ListLanguageError) {
          try interpreter.run(line: line, number: number)
        } catch {
          printError(terminal ? error.message : error.description)
        }
      }
      if terminal { OutputStream.standardOutput.writeLine("") }
      if session.isInTransaction {
        session.rollback()
        printError("the open transaction was rolled back")
      }
      try session.close()
    }
  }
}
