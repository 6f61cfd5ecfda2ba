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

      Example:
        listjournal export todo.journal --format jsonl > todo.jsonl
      """)

  @Argument(help: "The journal file.")
  var journal: String

  @Option(help: "jsonl.")
  var format: ExportFormat = .jsonl

  @Option(name: .shortAndLong, help: "Write to FILE instead of stdout.")
  var output: String?

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      guard FileManager.default.fileExists(atPath: journal) else {
        throw ListLanguageError(message: "cannot open journal '\(journal)': No such file or directory")
      }
      do throws(JournalStoreError) {
        let bar = ProgressBar.onStandardError(label: "exporting", showingAfter: 0.25)
        defer { bar?.finish() }
        let progress = bar.map { bar in { (done: Int, total: Int) in bar.update(done: done, total: total) } }
        if let output {
          try JournalMaintenance.export(at: journal, toJSONLines: output, progress: progress)
        } else {
          try JournalMaintenance.export(at: journal, progress: progress) { block in
            OutputStream.standardOutput.write(bytes: block)
          }
        }
      } catch {
        throw ListLanguageError(message: "journal '\(journal)': \(error)")
      }
    }
  }
}
