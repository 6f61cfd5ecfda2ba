import ListHistory
import ListReplica

extension _HostedList {
  /// The read model brought up to date with storage: a generic replica holding every commit.
  func readModel() async throws -> _GenericReplica {
    try await load()
    guard let genesis else { throw SyncHubError.notHosted(list: name) }
    let replica: _GenericReplica
    if let reader {
      replica = reader
    } else {
      let base = try ReplicaJournalLayout.decodeBase(genesis.base, codec: HistoryCodec<JournalValueElement, JournalValueElement>.generic())
      replica = _GenericReplica(replica: ReplicaID(rawValue: 0), listID: genesis.listID, base: base)
      reader = replica
    }
    let commits = try await storage.commits(of: name, after: readerPosition, limit: Int.max)
    guard !commits.isEmpty else { return replica }
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var decoded: [_GenericCommit] = []
    for commit in commits { decoded += try codec.decodeReplicaCommits(commit.bytes) }
    try replica.receive(decoded)
    readerPosition = max(readerPosition, commits.last!.position)
    return replica
  }
}
