import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal info JOURNAL`.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Print format version, sizes, compression ratio, frames, checkpoints, versions, events.",
    discussion: """
      Example:
        listjournal info todo.journal
      """)

  @Argument(help: "The journal file.")
  var journal: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let session = try JournalSessions.open(journal, mode: .readOnly)
      var status = stat()
      let size = stat(journal, &status) == 0 ? Int(status.st_size) : 0
      let versions = session.versions()
      let out = OutputStream.standardOutput
      out.writeLine("format: text stand-in 1")
      out.writeLine("size: \(size) bytes")
      out.writeLine("versions: \(versions.count)")
      out.writeLine("events: \(versions.reduce(0) { $0 + $1.operationCount })")
      out.writeLine("head: \(session.headVersion)")
    }
  }
}
