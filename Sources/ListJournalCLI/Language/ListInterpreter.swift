/// Runs list-language lines against a ``JournalSession``: the engine behind `exec` and `repl`.
///
/// Outside `begin`…`commit` every changing command is its own transaction. In `exec` mode a
/// failing command inside a transaction rolls the whole transaction back (and, with
/// `--keep-going`, the rest of it is skipped up to its `commit`/`rollback`); in the REPL the
/// transaction stays open without the failed command. `undo`/`redo` print what they undid in
/// the REPL. With acknowledgements on, `committed V` is printed once V is durable.
///
/// ```swift
/// let interpreter = ListInterpreter(session: session, output: .standardOutput, interactive: false)
/// try interpreter.run(line: "append-sections Fruit", number: 1)
/// ```
final class ListInterpreter {
  let session: any JournalSession
  let output: OutputStream
  let style: TerminalStyle
  let interactive: Bool
  var acknowledgesCommits = false
  /// The terminal's width for `help` (the REPL on a terminal); nil prints it unwrapped.
  var helpWidth: Int?
  /// `exec --atomic`: the whole input is one transaction, opened by ``beginAtomic()`` and
  /// committed by ``finish(lastLine:)``; the script's own `begin`…`commit` only group lines.
  private(set) var isAtomic = false
  /// The lines of the script's open `begin`s, in atomic mode.
  private var atomicBegins: [Int] = []

  /// The line of the open `begin`.
  private(set) var transactionLine: Int?
  /// After a failed command inside a transaction (exec): skip to its end.
  private var skippingFailedTransaction = false
  private var unacknowledged: [Int] = []
  private var unacknowledgedStart = 0

  init(session: any JournalSession, output: OutputStream, style: TerminalStyle = .plain, interactive: Bool) {
    self.session = session
    self.output = output
    self.style = style
    self.interactive = interactive
  }

  /// Opens the one transaction of an atomic run, before its first line.
  func beginAtomic() throws(ListLanguageError) {
    try session.begin()
    isAtomic = true
  }

  /// Runs one line given as UTF-8 bytes; errors carry the line number.
  func run(bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(ListLanguageError) {
    let command: ListCommand?
    do throws(ListLanguageError) {
      command = try ListCommandParser.parse(bytes)
    } catch {
      throw error.at(line: number)
    }
    guard let command else { return }
    try run(command, number: number)
  }

  /// Runs one line given as a string.
  func run(line: String, number: Int) throws(ListLanguageError) {
    var line = line
    let result: Result<Void, ListLanguageError> = line.withUTF8 { bytes in
      do throws(ListLanguageError) { try run(bytes: bytes, number: number) } catch { return .failure(error) }
      return .success(())
    }
    try result.get()
  }

  func run(_ command: ListCommand, number: Int) throws(ListLanguageError) {
    do throws(ListLanguageError) {
      try execute(command, number: number)
    } catch {
      throw error.at(line: number)
    }
  }

  private func execute(_ command: ListCommand, number: Int) throws(ListLanguageError) {
    if skippingFailedTransaction {
      if command == .commit || command == .rollback { skippingFailedTransaction = false }
      return
    }
    if command.isMutation {
      if session.isInTransaction {
        do throws(ListLanguageError) {
          try session.apply(command)
        } catch {
          if isAtomic {
            session.rollback()
            isAtomic = false
            throw ListLanguageError(message: error.message + " (--atomic: nothing was written)")
          }
          if !interactive {
            session.rollback()
            let begun = transactionLine.map { " (transaction begun at line \($0) rolled back)" } ?? ""
            transactionLine = nil
            skippingFailedTransaction = true
            throw ListLanguageError(message: error.message + begun)
          }
          throw error
        }
      } else {
        try committed(session.perform(command))
      }
      return
    }
    if isAtomic { return try executeInAtomicRun(command, number: number) }
    switch command {
    case .begin:
      if let transactionLine {
        throw ListLanguageError(message: "a transaction is already open (begun at line \(transactionLine))")
      }
      try session.begin()
      transactionLine = number
    case .commit:
      guard session.isInTransaction else { throw ListLanguageError(message: "commit without begin") }
      transactionLine = nil
      let version = try session.commit()
      try committed(version)
      if interactive { output.writeLine(version.map { "committed \($0)" } ?? "nothing to commit") }
    case .rollback:
      guard session.isInTransaction else { throw ListLanguageError(message: "rollback without begin") }
      session.rollback()
      transactionLine = nil
      if interactive { output.writeLine("rolled back") }
    case .undo(let count):
      let steps = try session.undo(count)
      if interactive {
        for step in steps { output.writeLine("undid \(step)") }
        output.writeLine(style.dim("head is version \(session.headVersion)"))
      }
    case .redo(let count):
      let steps = try session.redo(count)
      if interactive {
        for step in steps { output.writeLine("redid \(step)") }
        output.writeLine(style.dim("head is version \(session.headVersion)"))
      }
    case .checkout(let reference):
      let version = try session.checkout(reference)
      if interactive { output.writeLine("head is version \(version)") }
    case .show(let json):
      let snapshot = try session.currentSnapshot
      output.writeLine(
        json
          ? SnapshotRenderer.json(snapshot, version: session.headVersion)
          : SnapshotRenderer.text(snapshot, version: session.headVersion, style: style))
    case .log:
      if let replica = session as? any ReplicaLogging {
        output.writeLine(ReplicaLogRenderer.text(replica.replicaLogEntries(newest: nil), style: style))
      } else {
        output.writeLine(LogRenderer.text(session.versions(), style: style))
      }
    case .diff(let from, let to, let json):
      let fromVersion = try session.resolve(from)
      let toVersion = try session.resolve(to)
      output.writeLine(
        try ChangesetRenderer.render(
          from: fromVersion, to: toVersion, session: session, json: json, style: style))
    case .help(let topic):
      if let topic, let entry = ListCommandHelp.entry(named: topic, includingRepl: interactive) {
        output.writeLine(ListCommandHelp.text(for: entry))
      } else {
        output.writeLine(ListCommandHelp.overview(width: helpWidth, includingRepl: interactive))
      }
    default:
      break
    }
  }

  /// The non-changing commands of an atomic run: `begin`/`commit` nest inside the run's
  /// transaction, and what would end it early or move the head is refused.
  private func executeInAtomicRun(_ command: ListCommand, number: Int) throws(ListLanguageError) {
    switch command {
    case .begin:
      atomicBegins.append(number)
    case .commit:
      guard atomicBegins.popLast() != nil else { throw ListLanguageError(message: "commit without begin") }
    case .rollback, .undo, .redo, .checkout:
      session.rollback()
      isAtomic = false
      let name = command == .rollback ? "rollback" : "\(command)".prefix { $0 != "(" }
      throw ListLanguageError(
        message: "'\(name)' cannot run with --atomic, where the whole script is one transaction "
          + "(nothing was written)")
    default:
      isAtomic = false
      defer { isAtomic = true }
      try execute(command, number: number)
    }
  }

  private func committed(_ version: Int?) throws(ListLanguageError) {
    guard acknowledgesCommits, let version else { return }
    unacknowledged.append(version)
    acknowledgeDurable()
  }

  /// Prints `committed V` for every commit that has become durable.
  func acknowledgeDurable() {
    guard acknowledgesCommits else { return }
    let durable = session.durableVersion
    while unacknowledgedStart < unacknowledged.count, unacknowledged[unacknowledgedStart] <= durable {
      output.writeLine("committed \(unacknowledged[unacknowledgedStart])")
      unacknowledgedStart += 1
    }
    if unacknowledgedStart > 4096 {
      unacknowledged.removeFirst(unacknowledgedStart)
      unacknowledgedStart = 0
    }
  }

  /// Called when input is idle (before blocking on it): makes commits durable, acknowledges
  /// them, and flushes output.
  func idle() throws(ListLanguageError) {
    try session.synchronize()
    acknowledgeDurable()
    output.flush()
  }

  /// Called at the end of input: an open transaction is an error and is rolled back.
  func finish(lastLine: Int) throws(ListLanguageError) {
    if isAtomic {
      isAtomic = false
      if let begun = atomicBegins.last {
        session.rollback()
        throw ListLanguageError(
          line: lastLine, message: "input ended inside the transaction begun at line \(begun) (--atomic: nothing was written)")
      }
      try committed(session.commit())
      return
    }
    if let transactionLine, session.isInTransaction {
      session.rollback()
      self.transactionLine = nil
      throw ListLanguageError(
        line: lastLine, message: "input ended inside the transaction begun at line \(transactionLine); it was rolled back")
    }
  }
}
