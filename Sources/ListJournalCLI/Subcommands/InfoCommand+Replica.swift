import JournalFormat
import ListHistory
import ListReplica
import ListState

extension InfoCommand {
  /// `info` of a replica journal: the container's sizes, then the replica, its list, the
  /// commits it holds (per replica), its version vector and the base it started from.
  func printReplicaInfo(_ reader: JournalReader) throws(ListLanguageError) {
    let replica = try ReplicaJournals.load(journal)
    let commits = replica.commits
    var perReplica: [ReplicaID: Int] = [:]
    for commit in commits { perReplica[commit.id.replica, default: 0] += 1 }
    let compressed = reader.frames.reduce(Int64(0)) { $0 + $1.byteCount }
    let uncompressed = reader.frames.reduce(Int64(0)) { $0 + $1.uncompressedBytes }
    let operations = commits.reduce(0) { $0 + $1.operations.count }
    let base = replica.base
    let out = OutputStream.standardOutput
    out.writeLine("format: \(reader.formatMajor).\(reader.formatMinor) (replica journal)")
    out.writeLine("size: \(reader.recovery.validBytes + reader.recovery.tornTailBytes) bytes")
    out.writeLine("records: \(reader.recordCount) (\(uncompressed) bytes uncompressed, \(compressed) compressed)")
    out.writeLine("replica: \(replica.replicaID)")
    out.writeLine("list: \(ReplicaID(rawValue: replica.listID))")
    let own = perReplica[replica.replicaID] ?? 0
    out.writeLine("commits: \(commits.count) (\(own) of this replica)")
    for id in perReplica.keys.sorted() {
      let count = perReplica[id]!
      out.writeLine("  \(id): \(count) commit\(count == 1 ? "" : "s")\(id == replica.replicaID ? " (this replica)" : "")")
    }
    out.writeLine("version vector: \(replica.versionVector)")
    out.writeLine("lamport clock: \(replica.lamportClock)")
    out.writeLine(
      "operations: \(operations)"
        + (operations > 0 ? " (\(Double(Int(Double(compressed) / Double(operations) * 10)) / 10) bytes/operation)" : ""))
    out.writeLine(
      "base: \(base.numberOfSections) section\(base.numberOfSections == 1 ? "" : "s"), "
        + "\(base.numberOfItems) item\(base.numberOfItems == 1 ? "" : "s")")
    let head = replica.snapshot
    out.writeLine(
      "list now: \(head.numberOfSections) section\(head.numberOfSections == 1 ? "" : "s"), "
        + "\(head.numberOfItems) item\(head.numberOfItems == 1 ? "" : "s")")
    if reader.recovery.tornTailBytes > 0 { out.writeLine("torn tail: \(reader.recovery.tornTailBytes) bytes") }
    if let corruption = reader.recovery.corruption { out.writeLine("damaged: \(corruption)") }
  }
}
