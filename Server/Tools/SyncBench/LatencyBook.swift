import Foundation
import ListHistory

/// When each commit was made, and how long it took to reach each other client: push-to-others
/// latency per (commit, receiver) pair and per commit (until the last other client merged it).
final class LatencyBook: @unchecked Sendable {
  private let lock = NSLock()
  private let clients: Int
  private var made: [[UInt64]]
  private var remaining: [[Int]]
  private var pairs: [Double] = []
  private var everyone: [Double] = []
  private let index: [ReplicaID: Int]
  private let start = ContinuousClock.now

  init(replicas: [ReplicaID], operations: Int) {
    clients = replicas.count
    made = Array(repeating: [], count: replicas.count)
    remaining = Array(repeating: [], count: replicas.count)
    var index: [ReplicaID: Int] = [:]
    for (position, replica) in replicas.enumerated() { index[replica] = position }
    self.index = index
    pairs.reserveCapacity(replicas.count * max(0, replicas.count - 1) * operations)
    everyone.reserveCapacity(replicas.count * operations)
  }

  private var now: UInt64 {
    let elapsed = ContinuousClock.now - start
    return UInt64(elapsed.components.seconds) * 1_000_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000)
  }

  /// Client `client` made its commit number `sequence` (1, 2, …) now.
  func made(client: Int, sequence: UInt64) {
    guard sequence >= 1 else { return }
    let time = now
    lock.withLock {
      while made[client].count < sequence {
        made[client].append(0)
        remaining[client].append(clients - 1)
      }
      made[client][Int(sequence) - 1] = time
    }
  }

  /// A client merged these commits now.
  func merged(_ ids: [ReplicaCommitID]) {
    let time = now
    lock.withLock {
      for id in ids {
        guard let client = index[id.replica], id.sequence >= 1, Int(id.sequence) <= made[client].count else { continue }
        let position = Int(id.sequence) - 1
        let created = made[client][position]
        guard created > 0, time >= created else { continue }
        let seconds = Double(time - created) / 1e9
        pairs.append(seconds)
        remaining[client][position] -= 1
        if remaining[client][position] == 0 { everyone.append(seconds) }
      }
    }
  }

  struct Summary {
    var pairs: Int
    var commitsReachingEveryone: Int
    var pairP50: Double
    var pairP99: Double
    var pairMax: Double
    var everyoneP50: Double
    var everyoneP99: Double
    var everyoneMax: Double
  }

  func summary() -> Summary {
    lock.withLock {
      func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        return values[min(values.count - 1, Int(Double(values.count - 1) * p))]
      }
      let pairs = self.pairs.sorted()
      let everyone = self.everyone.sorted()
      return Summary(
        pairs: pairs.count, commitsReachingEveryone: everyone.count, pairP50: percentile(pairs, 0.5),
        pairP99: percentile(pairs, 0.99), pairMax: pairs.last ?? .nan, everyoneP50: percentile(everyone, 0.5),
        everyoneP99: percentile(everyone, 0.99), everyoneMax: everyone.last ?? .nan)
    }
  }
}
