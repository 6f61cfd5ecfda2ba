import ArgumentParser
import JournalFormat

/// `listjournal info JOURNAL`.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Print format version, sizes, compression ratio, frames, checkpoints, versions, events.",
    discussion: """
      On a replica journal: its replica and list, commits (per replica), version vector and \
      base size instead of versions and checkpoints.

      Example:
        listjournal info todo.journal
      """)

  @Argument(help: "The journal file.")
  var journal: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      let reader: JournalReader
      do throws(JournalError) {
        reader = try JournalReader.open(at: journal, tolerateCorruption: true)
      } catch {
        throw ListLanguageError(message: _StoreJournalSession.describe(error, path: journal))
      }
      if ReplicaJournals.isReplica(reader) { return try printReplicaInfo(reader) }
      let compressed = reader.frames.reduce(Int64(0)) { $0 + $1.byteCount }
      let uncompressed = reader.frames.reduce(Int64(0)) { $0 + $1.uncompressedBytes }
      // The reader checked every chunk already: a sound journal needs no second pass.
      let session =
        reader.recovery.corruption == nil
        ? try _IndexedJournalSession.open(reader) : try JournalSessions.open(journal, mode: .readOnly)
      let (versions, events) = session.historyCounts()
      let out = OutputStream.standardOutput
      out.writeLine("format: \(reader.formatMajor).\(reader.formatMinor)")
      out.writeLine("size: \(reader.recovery.validBytes + reader.recovery.tornTailBytes) bytes")
      out.writeLine("records: \(reader.recordCount) (\(uncompressed) bytes uncompressed, \(compressed) compressed)")
      if compressed > 0 {
        let ratio = Double(uncompressed) / Double(compressed)
        out.writeLine("compression ratio: \(Double(Int(ratio * 100)) / 100)")
      }
      out.writeLine("frames: \(reader.frames.count)")
      out.writeLine("checkpoints: \(reader.frames.filter(\.startsWithCheckpoint).count)")
      out.writeLine("versions: \(versions) (head \(session.headVersion))")
      if let start = session.keptHistoryStart {
        out.writeLine("history: starts at version \(start) (older versions were dropped by compaction)")
      }
      out.writeLine("events: \(events)" + (events > 0 ? " (\(Double(Int(Double(compressed) / Double(events) * 10)) / 10) bytes/event)" : ""))
      let staged = reader.stagedRecordCount()
      if staged > 0 {
        out.writeLine("staged: \(staged) newer records in \(JournalWriter.stagingPath(for: journal)), not yet in the journal (the next writer to open it carries them in)")
      }
      if reader.recovery.tornTailBytes > 0 { out.writeLine("torn tail: \(reader.recovery.tornTailBytes) bytes") }
      if let corruption = reader.recovery.corruption { out.writeLine("damaged: \(corruption)") }
    }
  }
}
