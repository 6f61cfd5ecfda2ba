import BenchmarkSupport
import Foundation
import ListJournal
import ListReplica

// The replica workload (see replica-workload.py): a flat list of `Row`s in one section, edited
// by identifier. Timed: the exchange of two replicas' concurrent edits in both directions
// (batch encoding, decoding, merge) and a replica at the base catching up on one replica's
// commits. Not timed: reading the file and making the commits (local transactions).

struct Row: ListElement, Codable, Hashable {
  var id: String
  var value: String
  var expanded = false
}

enum Operation {
  case insert(id: String, after: String?, value: String)
  case append(id: String, value: String)
  case delete(String)
  case move(String, after: String?)
  case set(String, value: String)
  case expand(String, Bool)
}

struct Workload {
  var base = 0
  var merge: [[Operation]] = [[], []]
  var catchup: [Operation] = []

  static func read(_ path: String) throws -> Workload {
    var workload = Workload()
    var phase = ""
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      if let base = object["base"] as? Int { workload.base = base; continue }
      if let name = object["phase"] as? String { phase = name; continue }
      let id = object["id"] as! String
      let after = object["after"] as? String
      let value = object["value"] as? String ?? ""
      let operation: Operation
      switch object["op"] as! String {
      case "insert": operation = .insert(id: id, after: after, value: value)
      case "append": operation = .append(id: id, value: value)
      case "delete": operation = .delete(id)
      case "move": operation = .move(id, after: after)
      case "set": operation = .set(id, value: value)
      case "expand": operation = .expand(id, true)
      case "collapse": operation = .expand(id, false)
      case let other: fatalError("unknown operation \(other)")
      }
      if phase == "merge" { workload.merge[object["r"] as! Int].append(operation) } else { workload.catchup.append(operation) }
    }
    return workload
  }
}

typealias Replica = ListReplica<String, Row>
let section = "List"

/// Performs a workload operation in a transaction (of a replica or of a single-writer store).
func perform(_ operation: Operation, in tx: inout ListStore<String, Row>.Transaction) throws {
  switch operation {
  case .insert(let id, let after, let value):
    if let after {
      try tx.insertItems([Row(id: id, value: value)], afterItem: after)
    } else {
      try tx.insert(ListOutline(items: [Row(id: id, value: value)]), at: ListItemLocation(.section(section), index: 0))
    }
  case .append(let id, let value): try tx.appendItems([Row(id: id, value: value)], toSection: section)
  case .delete(let id): try tx.deleteItems([id])
  case .move(let id, let after):
    if let after { try tx.moveItem(id, afterItem: after) } else { try tx.moveItem(id, to: ListItemLocation(.section(section), index: 0)) }
  case .set(let id, let value):
    var row = tx.snapshot.item(id)!
    row.value = value
    try tx.updateItem(row)
  case .expand(let id, let expanded):
    // Rows are leaves: expansion is a flag of the row, as the Loro side stores it.
    var row = tx.snapshot.item(id)!
    row.expanded = expanded
    try tx.updateItem(row)
  }
}

func apply(_ operation: Operation, to replica: Replica) throws {
  try replica.transaction { tx in try perform(operation, in: &tx) }
}

let path = CommandLine.arguments.dropFirst().first ?? "replica-workload.jsonl"
let repeats = environment("REPEATS", 5)
let codec = HistoryCodec<String, Row>()
let (workload, readSeconds) = try measure { try Workload.read(path) }
var baseSnapshot = ListSnapshot<String, Row>()
try baseSnapshot.appendSections([section])
try baseSnapshot.appendItems((0..<workload.base).map { Row(id: "i\($0)", value: "v\($0)") }, toSection: section)
let operations = workload.merge[0].count + workload.merge[1].count
Results.begin("ReplicaBench", settings: ["workload \(path)", "base \(workload.base) items", "merge \(workload.merge[0].count)+\(workload.merge[1].count) ops", "catch-up \(workload.catchup.count) ops", "repeats \(repeats)", "read \(fixed(readSeconds, decimals: 1)) s"])

// Merge: two replicas of the base, each with its own ops as commits, exchange both ways.
var mergeTimes = Samples()
var mergeCPU = Samples()
var mergeBytes = 0
var rebased = 0
for _ in 0..<repeats {
  let listID: UInt64 = 42
  let a = Replica(replica: ReplicaID(rawValue: 1), listID: listID, base: baseSnapshot)
  let b = Replica(replica: ReplicaID(rawValue: 2), listID: listID, base: baseSnapshot)
  for operation in workload.merge[0] { try apply(operation, to: a) }
  for operation in workload.merge[1] { try apply(operation, to: b) }
  let cpuStart = threadCPUSeconds()
  let seconds = try time {
    let toB = try a.batch(since: b.versionVector, codec: codec)
    let toA = try b.batch(since: a.versionVector, codec: codec)
    let mergedA = try a.receive(toA, codec: codec)
    let mergedB = try b.receive(toB, codec: codec)
    mergeBytes = toB.bytes.count + toA.bytes.count
    rebased = mergedA.rebased + mergedB.rebased
  }
  mergeCPU.append(threadCPUSeconds() - cpuStart)
  precondition(a.snapshot == b.snapshot, "the replicas differ after the merge")
  mergeTimes.append(seconds)
}
Results.write("merge of \(operations) concurrent operations (both directions): min \(fixed(mergeTimes.min * 1000, decimals: 1)) ms, median \(fixed(mergeTimes.median * 1000, decimals: 1)) ms (thread CPU: min \(fixed(mergeCPU.min * 1000, decimals: 1)) ms, median \(fixed(mergeCPU.median * 1000, decimals: 1)) ms); \(rebased) commits rebased; \(mergeBytes) bytes on the wire, \(fixed(Double(mergeBytes) / Double(operations), decimals: 2)) B/operation")

// Catch-up: replica 0's merge-phase and catch-up commits, received by a replica at the base.
if !workload.catchup.isEmpty {
  let source = Replica(replica: ReplicaID(rawValue: 1), listID: 42, base: baseSnapshot)
  let making = try time {
    for operation in workload.merge[0] { try apply(operation, to: source) }
    for operation in workload.catchup { try apply(operation, to: source) }
  }
  let commits = source.commitCount
  Results.write("made \(commits) local commits in \(fixed(making, decimals: 2)) s (\(grouped(Double(commits) / making))/s, not timed below)")
  let batch = try source.batch(since: ReplicaVersionVector(), codec: codec)
  var catchupTimes = Samples()
  var catchupCPU = Samples()
  for _ in 0..<max(1, repeats / 2) {
    let target = Replica(replica: ReplicaID(rawValue: 3), listID: 42, base: baseSnapshot)
    let cpuStart = threadCPUSeconds()
    let seconds = try time { try target.receive(batch, codec: codec) }
    catchupCPU.append(threadCPUSeconds() - cpuStart)
    precondition(target.snapshot == source.snapshot, "the caught-up replica differs")
    catchupTimes.append(seconds)
  }
  Results.write("catch-up of \(commits) commits: min \(fixed(catchupTimes.min, decimals: 2)) s, median \(fixed(catchupTimes.median, decimals: 2)) s (thread CPU: min \(fixed(catchupCPU.min, decimals: 2)) s) (\(grouped(Double(commits) / catchupTimes.min)) commits/s); batch \(batch.bytes.count) bytes, \(fixed(Double(batch.bytes.count) / Double(commits), decimals: 2)) B/commit")
  // For comparison: the single-writer journal's bytes per command on the same operations.
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replica-bench-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let journalPath = directory + "/single.journal"
  try? FileManager.default.removeItem(atPath: journalPath)
  let replicaPath = directory + "/replica.journal"
  try? FileManager.default.removeItem(atPath: replicaPath)
  do {
    let journal = try JournalStore<String, Row>.open(at: journalPath, configuration: .init(durability: .relaxed))
    try journal.store.transaction { tx in
      try tx.appendSections([section])
      try tx.appendItems((0..<workload.base).map { Row(id: "i\($0)", value: "v\($0)") }, toSection: section)
    }
    try journal.sync()
    let baseBytes = (try FileManager.default.attributesOfItem(atPath: journalPath)[.size] as! NSNumber).intValue
    for operation in workload.merge[0] + workload.catchup {
      try journal.store.transaction { tx in try perform(operation, in: &tx) }
    }
    try journal.close()
    let total = (try FileManager.default.attributesOfItem(atPath: journalPath)[.size] as! NSNumber).intValue
    let replicaJournal = try Replica.create(at: replicaPath, cloning: source, codec: codec, options: {
      var options = JournalOptions()
      options.durability = .relaxed
      return options
    }())
    try replicaJournal.close()
    let replicaBytes = (try FileManager.default.attributesOfItem(atPath: replicaPath)[.size] as! NSNumber).intValue
    Results.write("single-writer journal of the same \(commits) operations: \(fixed(Double(total - baseBytes) / Double(commits), decimals: 2)) B/operation; replica journal: \(fixed(Double(replicaBytes) / Double(commits), decimals: 2)) B/commit (base state included)")
  }
  try? FileManager.default.removeItem(atPath: directory)
}
