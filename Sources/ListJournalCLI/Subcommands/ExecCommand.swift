import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal exec JOURNAL [SCRIPT]`: runs list-language commands non-interactively,
/// streaming line by line from the script or stdin.
struct ExecCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "exec",
    abstract: "Run list-language commands from a file or stdin (the journal is created if missing).",
    discussion: """
      Each command outside begin…commit is its own transaction (its own version). At the first \
      failing command: `error: line N: …`, nothing of it (or of its transaction) is recorded, \
      everything before it is kept, exit 1 — unless --keep-going. Input is read, applied and \
      committed line by line as it arrives, so a pipe gets `committed V` (with --ack) per commit.

      --atomic makes the whole script one transaction (one version): at the first error nothing \
      is written (a journal the run created is removed again); the script's begin…commit pairs \
      only group lines, and rollback, undo, redo and checkout are refused. --dry-run replays the \
      journal into memory and runs the script there: errors are reported with their lines, \
      nothing is written, and the journal is neither created nor locked.

      On a replica journal (see `listjournal clone --help`) every commit is one of this \
      replica's, `undo`/`redo` undo and redo its own edits only (as new commits), and \
      `checkout` is refused.

      Example:
        printf 'append-sections S\\nappend a\\n' | listjournal exec todo.journal --ack
        listjournal exec todo.journal script.list --durability strict
        listjournal exec todo.journal script.list --atomic
        listjournal exec todo.journal script.list --dry-run
      """)

  @Argument(help: "The journal file (created if missing).")
  var journal: String

  @Argument(help: "A script in the list language; stdin when omitted or '-'.")
  var script: String?

  @Flag(help: "Report failing commands and continue (exit 1 at the end).")
  var keepGoing = false

  @Option(help: "When a commit is durable: strict (sync per commit), grouped (shared syncs), relaxed (page cache).")
  var durability: CLIDurability = .grouped

  @Flag(help: "Print `committed V` on stdout once version V is durable.")
  var ack = false

  @Flag(help: "Run the whole script as one transaction: all of it is written, or nothing.")
  var atomic = false

  @Flag(help: "Run the script in memory only and report its errors; write nothing.")
  var dryRun = false

  func validate() throws {
    if atomic && keepGoing {
      throw ValidationError("--atomic and --keep-going exclude each other (an atomic script stops at its first error)")
    }
    if dryRun && ack { throw ValidationError("--dry-run commits nothing, so --ack has nothing to acknowledge") }
  }

  func run() throws {
    var failed = false
    try reportingFailures { () throws(ListLanguageError) in
      let input: Int32
      if let script, script != "-" {
        input = open(script, O_RDONLY)
        guard input >= 0 else { throw ListLanguageError(message: "cannot open script '\(script)': \(errorMessage())") }
      } else {
        input = STDIN_FILENO
      }
      defer { if input != STDIN_FILENO { closeDescriptor(input) } }

      let existed = access(journal, F_OK) == 0
      let session = try JournalSessions.open(
        journal, mode: dryRun ? .inMemory : .readWrite(durability: durability, createIfMissing: true))
      // Counting walks every version: only a dry run reports what it made.
      let versionsBefore = dryRun ? session.historyCounts().versions : 0
      let interpreter = ListInterpreter(
        session: session, output: .standardOutput, style: .forStandardOutput(), interactive: false)
      interpreter.acknowledgesCommits = ack
      if atomic { try interpreter.beginAtomic() }
      var lastLine = 0
      var idleFailure: ListLanguageError?
      // A script file's size is known: its bytes run so far are the progress.
      let scriptBytes = Self.regularFileSize(input)
      let bar = scriptBytes.flatMap { _ in
        ProgressBar.onStandardError(label: "executing", unit: "bytes", showingAfter: 0.25)
      }
      var bytesRun = 0
      defer { bar?.finish() }
      do {
        try LineReader(descriptor: input).forEachLine(
          beforeBlocking: {
            do throws(ListLanguageError) { try interpreter.idle() } catch { idleFailure = error }
          },
          { line, number in
            if idleFailure != nil { return false }
            if let bar, let scriptBytes {
              bytesRun += line.count + 1
              bar.update(done: min(bytesRun, scriptBytes), total: scriptBytes)
            }
            lastLine = number
            do throws(ListLanguageError) {
              try interpreter.run(bytes: line, number: number)
            } catch {
              printError(error.description)
              failed = true
              return keepGoing
            }
            return true
          })
      } catch {
        throw ListLanguageError(message: "\(error)")
      }
      if let idleFailure { throw idleFailure }
      if !failed || keepGoing {
        do throws(ListLanguageError) {
          try interpreter.finish(lastLine: lastLine)
        } catch {
          printError(error.description)
          failed = true
        }
      }
      bar?.finish()
      if dryRun {
        let made = session.historyCounts().versions - versionsBefore
        let outcome = failed ? "stopped at an error" : "no errors"
        OutputStream.standardOutput.writeLine(
          "dry run: \(outcome), \(made) new version\(made == 1 ? "" : "s"); nothing was written")
      }
      try session.close()
      // An atomic run that failed leaves no trace, not even the empty journal it created.
      if atomic, failed, !existed, !dryRun { unlink(journal) }
      interpreter.acknowledgeDurable()
      // The process ends right after this: releasing the history (every version's events and
      // the list's nodes, one by one) would only cost time.
      _ = Unmanaged.passRetained(session as AnyObject)
    }
    if failed { throw ExitCode(1) }
  }

  /// The size of the file behind `descriptor` when it is a regular file (a script, or stdin
  /// redirected from one); nil for a pipe or a terminal.
  static func regularFileSize(_ descriptor: Int32) -> Int? {
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(status.st_size)
  }
}
