import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal replay JOURNAL [--to V]`.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Fold the whole journal; print versions, events, the final state digest, time and events/s.",
    discussion: """
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
      if isatty(STDERR_FILENO) == 1 { OutputStream.standardError.write("replaying \(journal)…\r") }
      let session = try JournalSessions.open(journal, mode: .readOnly)
      let target = try session.resolve(try to.map { s throws(ListLanguageError) in try versionReference(s) } ?? .head(back: 0))
      let snapshot = try session.snapshot(at: target)
      let elapsed = monotonicSeconds() - start
      if isatty(STDERR_FILENO) == 1 { OutputStream.standardError.write("\u{1B}[2K") }
      let versions = session.versions()
      let events = versions.reduce(0) { $0 + $1.operationCount }
      let rate = elapsed > 0 ? Int(Double(events) / elapsed) : 0
      let out = OutputStream.standardOutput
      out.writeLine("versions: \(versions.count)")
      out.writeLine("events: \(events)")
      out.writeLine("state at version \(target): \(snapshot.numberOfSections) sections, \(snapshot.numberOfItems) items")
      out.writeLine("digest: \(StateDigest.of(snapshot))")
      out.writeLine("time: \(Int(elapsed * 1000)) ms (\(rate) events/s)")
    }
  }
}
