// Appends per second through `PostgresSyncStorage` alone: batches of 1, 10 and 100 commits from
// 1 and 8 concurrent tasks, each configuration on a list of its own.
//   Server/Tools/with-postgres swift run -c release postgres-storage-bench [seconds per case]
import Foundation
import ListReplica
import ListSync
import ListSyncPostgres
import Logging
import PostgresNIO

guard let url = ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_URL"] else {
  FileHandle.standardError.write(Data("set LISTJOURNAL_POSTGRES_URL (run under Server/Tools/with-postgres)\n".utf8))
  exit(64)
}
let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
var logger = Logger(label: "bench")
logger.logLevel = .error
let storage = try PostgresSyncStorage(url: url, logger: logger)
let runner = Task { try await storage.run() }

/// A commit of `size` opaque bytes (the storage does not decode them).
func commit(replica: UInt64, sequence: UInt64) -> SyncStoredCommit {
  let id = ReplicaCommitID(replica: ReplicaID(rawValue: replica), sequence: sequence)
  var bytes = [UInt8](repeating: 0, count: 120)
  withUnsafeBytes(of: sequence.littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
  return SyncStoredCommit(id: id, lamportClock: sequence, dependencies: ReplicaVersionVector(), bytes: bytes)
}

/// Appends from `tasks` concurrent tasks until `deadline`; how many appends were made.
nonisolated func appendUntil(_ deadline: ContinuousClock.Instant, batch: Int, tasks: Int, list: String) async throws -> Int {
  try await withThrowingTaskGroup(of: Int.self) { group in
    for task in 0..<tasks {
      group.addTask {
        let replica = UInt64(task + 1) << 32
        var sequence: UInt64 = 0
        var appends = 0
        while ContinuousClock.now < deadline {
          let commits = (0..<batch).map { _ in
            sequence += 1
            return commit(replica: replica, sequence: sequence)
          }
          let result = try await storage.append(commits, to: list)
          precondition(result.stored.count == batch)
          appends += 1
        }
        return appends
      }
    }
    return try await group.reduce(0, +)
  }
}

print("case                      commits/s   appends/s")
for batch in [1, 10, 100] {
  for tasks in [1, 8] {
    let list = "bench-\(batch)-\(tasks)-\(UInt32.random(in: 0...UInt32.max))"
    _ = try await storage.create(list, genesis: SyncListGenesis(listID: 1, base: []))
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: .seconds(seconds))
    let appends = try await appendUntil(deadline, batch: batch, tasks: tasks, list: list)
    let elapsed = clock.now - start
    let secondsTaken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let name = "batch \(batch), \(tasks) task\(tasks == 1 ? "" : "s")"
    print(
      name.padding(toLength: 24, withPad: " ", startingAt: 0),
      String(format: "%11.0f %11.0f", Double(appends * batch) / secondsTaken, Double(appends) / secondsTaken))
  }
}
try await storage.close()
_ = try await runner.value
