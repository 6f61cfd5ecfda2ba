import ArgumentParser

/// `listjournal replay JOURNAL [--to V]`.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Fold the whole journal; print versions, events, the final state digest, time and events/s.",
    discussion: """
      Any app's journal replays (identifiers and contents decoded generically). On a terminal, \
      a progress bar on stderr shows the records replayed (redrawn at most 10 times a second). \
      The digest fingerprints the state (FNV-1a of its JSON): equal digests, equal states.

      Example:
        listjournal replay todo.journal --to 40
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "Stop at version V (N, head or head~N) and digest that state.")
  var to: String?

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let start = monotonicSeconds()
      let bar = ProgressBar.onStandardError(label: "replaying")
      let session: _GenericJournalSession
      do throws(ListLanguageError) {
        session = try _GenericJournalSession(path: journal) { done, total in bar?.update(done: done, total: total) }
        bar?.finish()
      } catch {
        bar?.finish()
        throw error
      }
      let target = try session.resolve(try to.map { s throws(ListLanguageError) in try versionReference(s) } ?? .head(back: 0))
      let snapshot = try session.snapshot(at: target)
      let elapsed = monotonicSeconds() - start
      let (versions, events) = session.historyCounts()
      let rate = elapsed > 0 ? Int(Double(events) / elapsed) : 0
      let out = OutputStream.standardOutput
      out.writeLine("versions: \(versions)")
      out.writeLine("events: \(events)")
      out.writeLine("state at version \(target): \(snapshot.numberOfSections) sections, \(snapshot.numberOfItems) items")
      out.writeLine("digest: \(StateDigest.of(snapshot))")
      out.writeLine("time: \(Int(elapsed * 1000)) ms (\(rate) events/s)")
    }
  }
}
