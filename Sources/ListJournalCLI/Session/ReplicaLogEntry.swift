import ListHistory

/// One `log` line of a replica journal: a commit at its place in the agreed order.
///
/// ```swift
/// ReplicaLogEntry(position: 3, commit: id, lamportClock: 2, time: 1_700_000_000, label: "Set Item",
///                 origin: .edit, operationCount: 1, operations: ["set pear"], isOwn: true)
/// ```
struct ReplicaLogEntry: Equatable, Sendable {
  /// Why the commit was made, with the commit an undo or redo inverted.
  enum Origin: Equatable, Sendable {
    case edit
    case undo(of: ReplicaCommitID)
    case redo(of: ReplicaCommitID)

    init<Section, Item>(_ origin: ReplicaCommit<Section, Item>.Origin) {
      switch origin {
      case .edit: self = .edit
      case .undo(let of): self = .undo(of: of)
      case .redo(let of): self = .redo(of: of)
      }
    }
  }

  /// 1 for the first commit of the agreed order.
  var position: Int
  var commit: ReplicaCommitID
  var lamportClock: UInt64
  /// Seconds since 1970.
  var time: Double
  var label: String
  var origin: Origin
  var operationCount: Int
  /// What the first few operations did ("insert a b", "move c").
  var operations: [String]
  /// Whether the commit is the replica's own (the journal's replica made it).
  var isOwn: Bool
}

/// A session whose history is a replica's agreed order of commits: `log` shows its commits.
protocol ReplicaLogging: AnyObject {
  /// One entry per commit (the newest `count` when given), in the agreed order.
  func replicaLogEntries(newest count: Int?) -> [ReplicaLogEntry]
}
