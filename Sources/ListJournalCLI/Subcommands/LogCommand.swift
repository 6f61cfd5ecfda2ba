import ArgumentParser

/// `listjournal log JOURNAL [--limit N] [--format text|json] [--graph]`.
struct LogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "log",
    abstract: "List the versions: number, parent, time, label, operation count.",
    discussion: """
      Text: `* 3  ← 2  2023-11-14T22:13:20Z  Append 2 Items  (2 ops: insert a b)`, `*` marking \
      the head. JSON: [{"version": V, "parent": P|null, "head": bool, "label": L, "ops": N}].

      `ops` counts the sections and items the version changed, so a version made by one command \
      shows the count its label names: `append-sections A B` and `append a b` are 2 ops each, \
      `move a after b` is 1; a command that changed nothing is 0. (`replay` and `info` count \
      recorded events instead: `append a b` is one event.)

      --graph draws the undo tree with the head marked. --limit N lists only the newest N \
      versions (the last N lines of the full log; with --graph, the tree they form, each \
      version whose parent is older starting a root): on a long journal that is read from its \
      index instead of replaying it. --salvage reads a damaged journal (see `listjournal show \
      --help`), with a line `✗ versions A...B lost to the damage` where the lost ones were. \
      A journal repaired by `verify --repair` shows a line `✗ versions A...B lost in repair` \
      where the versions it could not keep were, and the version its history resumed at as \
      `← ?`. Any app's journal can be read (see `listjournal show --help`).

      On a replica journal (see `listjournal clone --help`) the log is its commits in the \
      agreed order: position, replica:sequence, Lamport clock, time, label (with `undo of R:S` \
      or `redo of R:S` for this replica's undos and redos), operation count; `*` marks the \
      journal's own replica's commits.

      Example:
        listjournal log todo.journal --graph
        listjournal log todo.journal --limit 20
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "text or json.")
  var format: OutputFormat = .text

  @Flag(help: "Draw the undo tree (branches nest; the head is marked).")
  var graph = false

  @Option(help: "List only the newest N versions.")
  var limit: Int?

  @Flag(help: "Read past damage: every version that can still be rebuilt; the lost ones are named.")
  var salvage = false

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit)") }
  }

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: salvage ? .salvage : .readOnly)
      if let replica = session as? any ReplicaLogging { return try printReplicaLog(replica) }
      let versions = try session.logEntries(newest: limit)
      let style = TerminalStyle.forStandardOutput()
      if let salvaged = session as? _SalvagedJournalSession, !graph, format == .text {
        OutputStream.standardOutput.writeLine(Self.text(versions, lost: salvaged.lostVersions, style: style))
        return
      }
      let repaired = session.repairedAway
      if !repaired.isEmpty, !graph, format == .text {
        // With --limit, only the gaps among (or after) the versions listed.
        let from = limit == nil ? 0 : versions.first?.version ?? 0
        let shown = repaired.filter { $0.upperBound >= from }
        let cause = session.keptHistoryStart == nil ? "lost in repair" : "dropped from the history by compaction"
        OutputStream.standardOutput.writeLine(Self.text(versions, lost: shown, style: style, cause: cause))
        return
      }
      let text =
        graph ? LogRenderer.graph(versions, style: style)
        : format == .json ? LogRenderer.json(versions) : LogRenderer.text(versions, style: style)
      OutputStream.standardOutput.writeLine(text)
    }
  }

  /// The text log of a salvaged journal: a line where each run of lost versions would be.
  static func text(
    _ versions: [LogEntry], lost: [ClosedRange<Int>], style: TerminalStyle, cause: String = "lost to the damage"
  ) -> String {
    var lines: [String] = []
    var gaps = lost[...]
    for entry in versions {
      while let gap = gaps.first, gap.lowerBound < entry.version {
        lines.append(Self.gapLine(gap, style: style, cause: cause))
        gaps = gaps.dropFirst()
      }
      lines.append(LogRenderer.text([entry], style: style))
    }
    // Lost versions after the last readable one.
    lines += gaps.map { Self.gapLine($0, style: style, cause: cause) }
    return lines.joined(separator: "\n")
  }

  private static func gapLine(_ gap: ClosedRange<Int>, style: TerminalStyle, cause: String) -> String {
    let versions = gap.count == 1 ? "version \(gap.lowerBound)" : "versions \(gap.lowerBound)...\(gap.upperBound)"
    return style.red("  ✗ \(versions) \(cause)")
  }
}
