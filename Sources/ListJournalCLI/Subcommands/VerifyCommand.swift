import ArgumentParser

/// `listjournal verify JOURNAL [--repair]`.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check checksums, replay everything and check invariants; exit 0 if sound, 1 if not.",
    discussion: """
      Names the first bad byte offset and version. --repair keeps the valid prefix and sets the
      original aside.

      Example:
        listjournal verify todo.journal || listjournal verify todo.journal --repair
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Flag(help: "Keep the valid prefix (the original is kept aside).")
  var repair = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      if repair {
        throw ListLanguageError(message: "--repair needs the binary journal format, not available in this build yet")
      }
      let session = try JournalSessions.open(journal, mode: .readOnly)
      let versions = session.versions()
      for info in versions {
        let snapshot = try session.snapshot(at: info.version)
        snapshot._checkInvariants()
      }
      OutputStream.standardOutput.writeLine(
        "sound: \(versions.count) versions, \(versions.reduce(0) { $0 + $1.operationCount }) events")
    }
  }
}
