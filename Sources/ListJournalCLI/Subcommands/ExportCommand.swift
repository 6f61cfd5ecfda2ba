import ArgumentParser
import Foundation
import ListJournal

/// `listjournal export JOURNAL --format jsonl [--output FILE]`.
struct ExportCommand: ParsableCommand {
  enum ExportFormat: String, CaseIterable, ExpressibleByArgument { case jsonl }

  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write the journal's records as JSON lines (stdout, or --output FILE).",
    discussion: """
      One JSON object per record, in journal order (any app's journal: identifiers and contents
      are shown as the generic JSON values the app encoded):
        {"sequence":1,"kind":"commit","version":1,"parent":0,"time":T,"label":L,"events":[EVENT...],"payload":"BASE64"}
        {"sequence":2,"kind":"headMove","version":1,"move":"undo","from":1,"to":0,"time":T,"payload":"BASE64"}
        {"sequence":3,"kind":"checkpoint","version":1,"head":0,"payload":"BASE64"}
      EVENT is {"op": NAME, ...} with the event's fields. `payload` holds the record's exact \
      bytes: `import` uses it, so export → import rebuilds the same history.

      --salvage exports a journal damaged in its middle: the records before the damage and \
      those from the next intact checkpoint on (their sequence numbers show the gap); the lost \
      versions are named on stderr. Such an export does not import back.

      Example:
        listjournal export todo.journal --format jsonl > todo.jsonl
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "jsonl.")
  var format: ExportFormat = .jsonl

  @Option(name: .shortAndLong, help: "Write to FILE instead of stdout.")
  var output: String?

  @Flag(help: "Read past damage: the records before it and those from the next intact checkpoint on.")
  var salvage = false

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      try ReplicaJournals.refuse(journal, command: "export", because: "writes a single-writer history; `log --format json` lists a replica's commits")
      guard FileManager.default.fileExists(atPath: journal) else {
        throw ListLanguageError(message: "cannot open journal '\(journal)': No such file or directory")
      }
      do throws(JournalStoreError) {
        let bar = ProgressBar.onStandardError(label: "exporting", showingAfter: 0.25)
        defer { bar?.finish() }
        let progress = bar.map { bar in { (done: Int, total: Int) in bar.update(done: done, total: total) } }
        if salvage {
          // The same warning as the other salvaging reads, naming the lost versions.
          if let report = (try? _SalvagedJournalSession(path: journal))?.damageReport { printWarning(report) }
          try export(output) { write throws(JournalStoreError) in
            try JournalMaintenance.export(salvaging: journal, progress: progress, writing: write)
          }
        } else if let output {
          try JournalMaintenance.export(at: journal, toJSONLines: output, progress: progress)
        } else {
          try JournalMaintenance.export(at: journal, progress: progress) { block in
            OutputStream.standardOutput.write(bytes: block)
          }
        }
      } catch .journal(let error) {
        throw ListLanguageError(message: _StoreJournalSession.describe(error, path: journal))
      } catch {
        throw ListLanguageError(message: "journal '\(journal)': \(error)")
      }
    }
  }

  /// Runs `body` with a writer to `output` (created, and removed again when `body` fails) or
  /// to stdout.
  private func export(
    _ output: String?, _ body: (_ write: ([UInt8]) throws(JournalStoreError) -> Void) throws(JournalStoreError) -> Int
  ) throws(JournalStoreError) {
    guard let output else {
      _ = try body { block in OutputStream.standardOutput.write(bytes: block) }
      return
    }
    guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output)
    else { throw .unsupported("cannot write \(output)") }
    defer { try? file.close() }
    do throws(JournalStoreError) {
      _ = try body { block throws(JournalStoreError) in
        do { try file.write(contentsOf: block) } catch { throw .unsupported("cannot write \(output): \(error)") }
      }
    } catch {
      try? FileManager.default.removeItem(atPath: output)
      throw error
    }
  }
}
