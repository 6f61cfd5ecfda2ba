import Foundation
import JournalFormat
import ListJournal
import ListReplica

/// The element types of the replica crash test: plain strings.
typealias CrashReplica = ListReplica<String, String>

/// Commits and receives forever on the replica journal at `path` (created when missing), as a
/// crash-test writer: `ListReplicaTests` kills it at random moments and checks the journal.
func replicaCrashWriter(path: String, seed: UInt64) -> Never {
  var options = JournalOptions()
  options.durability = .strict
  options.frameTargetBytes = 4096
  let codec = HistoryCodec<String, String>()
  do {
    let replica: CrashReplica
    if FileManager.default.fileExists(atPath: path) {
      replica = try CrashReplica.open(at: path, codec: codec, options: options)
    } else {
      replica = try CrashReplica.create(
        at: path, codec: codec, replica: ReplicaID(rawValue: 2), listID: 77, options: options)
    }
    // A peer of its own per run (named by how many commits the journal held), so a restarted
    // writer receives new commits rather than repeats.
    let peer = CrashReplica(replica: ReplicaID(rawValue: 1000 + UInt64(replica.commitCount)), listID: 77)
    var step = 0
    var random = BenchRandom(state: seed)
    while true {
      step += 1
      let id = "w\(replica.commitCount)-\(step)"
      try replica.transaction { tx in
        if tx.snapshot.isEmpty { try tx.appendSections(["S"]) }
        if random.next() % 3 == 0, let victim = tx.snapshot.itemIdentifiers.first {
          try tx.deleteItems([victim])
        } else {
          try tx.appendItems([id], toSection: "S")
        }
      }
      say("acked \(replica.replicaID):\(replica.versionVector[replica.replicaID])")
      try peer.transaction { tx in
        if tx.snapshot.isEmpty { try tx.appendSections(["P\(step)"]) } else { try tx.appendItems(["p\(step)-\(random.next() % 1000)"]) }
      }
      let commits = peer.changes(since: replica.versionVector)
      try replica.receive(commits)
      for commit in commits { say("acked \(commit.id)") }
    }
  } catch {
    fail("\(error)")
  }
}
