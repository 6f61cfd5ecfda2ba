import JournalFormat
import ListHistory
import ListReplica

extension VerifyCommand {
  /// `verify` of a replica journal whose chunks are sound: decodes its header and every commit
  /// record and applies every commit in the agreed order (what opening it does); no read index
  /// is written (replicas do not use one).
  func verifyReplica(_ reader: JournalReader) throws(ListLanguageError) {
    let out = OutputStream.standardOutput
    if reader.recovery.tornTailBytes > 0 {
      out.writeLine(
        "torn tail: \(reader.recovery.tornTailBytes) bytes after offset \(reader.recovery.validBytes) "
          + "(dropped when the journal is next opened for writing)")
    }
    let replica: ReplicaJournals.Generic
    do {
      replica = try ReplicaJournals.load(journal)
    } catch {
      throw ListLanguageError(message: "'\(journal)' is not sound: \(error.message)")
    }
    let commits = replica.commits
    let replicas = Set(commits.map(\.id.replica)).count
    let operations = commits.reduce(0) { $0 + $1.operations.count }
    out.writeLine(
      "sound: replica journal, \(reader.recordCount) records in \(reader.frames.count) frames, "
        + "\(CloneCommand.commits(commits.count)) of \(replicas) replica\(replicas == 1 ? "" : "s") "
        + "(\(operations) operations) decoded and applied")
  }
}
