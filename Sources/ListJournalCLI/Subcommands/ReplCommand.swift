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
      Tab completes command names, the identifiers of the current state (quoted ones too) and \
      versions; arrow-up recalls earlier lines, kept across sessions in \
      $XDG_STATE_HOME/listjournal/history (~/.local/state/…; ~/Library/Application Support/… on \
      macOS; LISTJOURNAL_HISTORY_SIZE lines, default 1000); `history` lists them. Ctrl-C \
      cancels the line being typed; Ctrl-D or `quit` quits (an open transaction is rolled \
      back). `undo`/`redo` print what they undid; `help` lists the commands. On a pipe it \
      reads plain lines without prompts. On a replica journal the prompt counts its commits, \
      and `undo`/`redo` apply to this replica's own edits only (see `listjournal exec --help`).

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
      interpreter.helpWidth = terminal ? ReplTerminal.width() : nil
      let errorStyle = TerminalStyle.forStandardError()
      let editor = LineEditors.make(historyFile: ReplHistoryFile.standard()) { word, position in
        Self.completions(for: word, at: position, session: session)
      }
      if terminal {
        // Ctrl-C while a command runs must not end the session (while a line is being typed
        // the editor turns it into a key that cancels the line).
        signal(SIGINT, SIG_IGN)
        OutputStream.standardOutput.writeLine(
          "listjournal: \(journal) at version \(session.headVersion). Type `help` for commands, Ctrl-D to quit.")
      }
      var number = 0
      reading: while true {
        try interpreter.idle()
        let prompt = terminal ? "v\(session.headVersion)\(session.isInTransaction ? "+" : "")> " : ""
        let line: String
        switch editor.readLine(prompt: prompt) {
        case .end: break reading
        case .cancelled(let typed):
          if typed.allSatisfy({ $0 == " " || $0 == "\t" }), let begun = interpreter.transactionLine {
            OutputStream.standardOutput.writeLine(
              errorStyle.dim(
                "(the transaction begun at line \(begun) is still open: `rollback` drops it, `commit` keeps it)"))
          }
          continue
        case .line(let text): line = text
        }
        number += 1
        let trimmed = line.trimmingBlanks
        if !trimmed.isEmpty { editor.addHistory(line) }
        if trimmed == "quit" || trimmed == "exit" { break }
        if trimmed == "history" {
          for (index, entry) in editor.history.enumerated() {
            OutputStream.standardOutput.writeLine("\(String(repeating: " ", count: max(0, 5 - String(index + 1).count)))\(index + 1)  \(entry)")
          }
          continue
        }
        do throws(ListLanguageError) {
          try interpreter.run(line: line, number: number)
        } catch {
          guard terminal else {
            printError(error.description)
            continue
          }
          OutputStream.standardOutput.flush()
          if let column = error.column {
            // The caret goes under the column of the line just typed, after the prompt.
            let before = String(decoding: line.utf8.prefix(max(0, column - 1)), as: UTF8.self)
            OutputStream.standardError.writeLine(
              String(repeating: " ", count: prompt.count + before.count) + errorStyle.red("^"))
          }
          OutputStream.standardError.writeLine("\(errorStyle.bold(errorStyle.red("error:"))) \(error.message)")
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

  /// What Tab offers: command names first on the line; versions after `checkout` and `diff`;
  /// elsewhere the identifiers of the current list (quoted where they need it) and keywords.
  static func completions(for word: String, at position: CompletionPosition, session: any JournalSession) -> [String] {
    switch position {
    case .commandName:
      return ListCommandHelp.replNames
    case .argument(let command) where command == "checkout" || command == "diff":
      let latest = session.historyCounts().versions - 1
      var versions = ["head", "head~"]
      // Numbers that begin with what is typed, nearest the head first.
      if let _ = Int(word) {
        versions += (0...max(0, latest)).reversed().map(String.init).filter { $0.hasPrefix(word) }
      } else if word.isEmpty {
        versions += (0...max(0, latest)).reversed().map(String.init)
      }
      return command == "diff" ? versions + ["json"] : versions
    case .argument(let command) where command == "help":
      return ListCommandHelp.replNames
    case .argument:
      let keywords = ["to", "under", "before", "after", "with", "json"]
      // A writing session's head never fails to show; the keywords alone if it ever did.
      guard let snapshot = try? session.currentSnapshot else { return keywords }
      return (snapshot.sectionIdentifiers + snapshot.itemIdentifiers).map { ListTokenizer.quoted($0) } + keywords
    }
  }
}

extension String {
  /// The text without leading and trailing spaces and tabs.
  fileprivate var trimmingBlanks: Substring {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
    return self[first...last]
  }
}
