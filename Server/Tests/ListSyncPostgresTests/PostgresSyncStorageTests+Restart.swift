import Foundation
import ListReplica
import ListSync
import SyncStorageConformance
import Synchronization
import Testing

@testable import ListSyncPostgres

extension PostgresSyncStorageTests {
  /// PostgreSQL restarted (`pg_ctl restart -m fast`) while writers on two instances append:
  /// every append reported stored is there afterwards at the position reported, appends after
  /// the restart succeed, and the listener hears the other instance again.
  @Test(.timeLimit(.minutes(3)))
  func aRestartUnderLoadLosesNoStoredAppend() async throws {
    guard let control = PostgresTestEnvironment.control else {
      if PostgresTestEnvironment.required {
        Issue.record("LISTJOURNAL_REQUIRE_POSTGRES=1 but LISTJOURNAL_POSTGRES_CTL is not set (run under with-postgres)")
      }
      return
    }
    try await PostgresTestDatabase.withStorages(2) { storages in
      let list = "restart"
      _ = try await storages[0].create(list, genesis: ConformanceCommits.genesis(77))
      let notes = NoticeCollector(storages[0].externalAppends())
      let phase = Locked(Phase())

      let outcomes = try await withThrowingTaskGroup(of: WriterOutcome.self) { group in
        for writer in 0..<4 {
          let storage = storages[writer % 2]
          group.addTask {
            var outcome = WriterOutcome()
            let replica = UInt64(writer + 1) << 48
            var sequence: UInt64 = 0
            let deadline = ContinuousClock.now.advanced(by: .seconds(90))
            while phase.withLock({ !$0.restarted }) || outcome.afterRestart < 20 {
              guard ContinuousClock.now < deadline else {
                throw ConformanceFailure("writer \(writer) could not append after the restart: \(outcome.lastError ?? "")")
              }
              let batch = ConformanceCommits.commits(replica: replica, sequence + 1...sequence + 5)
              sequence += 5
              outcome.sent += batch
              // Retry the same batch until it is stored: appends are idempotent.
              while true {
                let restartedBefore = phase.withLock { $0.restarted }
                do {
                  let result = try await storage.append(batch, to: list)
                  outcome.reported += result.stored
                  phase.withLock { $0.stored += result.stored.count }
                  if restartedBefore { outcome.afterRestart += 1 }
                  break
                } catch {
                  outcome.failures += 1
                  outcome.lastError = "\(error)"
                  guard ContinuousClock.now < deadline else { throw error }
                  try await Task.sleep(for: .milliseconds(20))
                }
              }
            }
            return outcome
          }
        }
        group.addTask {
          while phase.withLock({ $0.stored < 300 }) { try await Task.sleep(for: .milliseconds(5)) }
          try await Self.run(control, "restart")
          phase.withLock { $0.restarted = true }
          return WriterOutcome()
        }
        return try await group.reduce(into: [WriterOutcome]()) { $0.append($1) }
      }

      let reported = outcomes.flatMap(\.reported)
      let sent = outcomes.flatMap(\.sent)
      let all = try await storages[1].commits(of: list, after: 0, limit: Int.max)
      #expect(all.map(\.position) == Array(1...UInt64(all.count)))
      let held = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
      for commit in reported {
        #expect(held[commit.id] == commit, "reported stored at \(commit.position), then missing or moved")
      }
      // A failed append may have committed (its answer lost); retried, every batch is held.
      #expect(Set(held.keys) == Set(sent.map(\.id)))

      // The listener reconnected: the other instance's append is heard.
      let next = try await storages[1].append(ConformanceCommits.commits(replica: 99, 1...1), to: list)
      try await notes.wait(for: list, position: try #require(next.stored.last).position, timeout: .seconds(30))
      await notes.stop()
    }
  }

  /// A value several tasks share.
  final class Locked<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
  }

  struct Phase: Sendable {
    var stored = 0
    var restarted = false
  }

  struct WriterOutcome: Sendable {
    var sent: [SyncStoredCommit] = []
    var reported: [SyncStoredCommit] = []
    var failures = 0
    var afterRestart = 0
    var lastError: String?
  }

  /// Runs the cluster's control script (`with-postgres`) on a thread of its own: `system`
  /// blocks, and waits for exactly its own child.
  static func run(_ control: String, _ action: String) async throws {
    let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
      Thread.detachNewThread {
        continuation.resume(returning: system("'\(control)' \(action) >/dev/null"))
      }
    }
    guard status == 0 else { throw ConformanceFailure("\(control) \(action) exited with \(status)") }
  }
}
