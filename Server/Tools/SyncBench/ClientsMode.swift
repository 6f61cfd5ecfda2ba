import ArgumentParser
import Foundation
import ListHistory
import ListReplica
import ListSync
import ListSyncWebSocketClient
import SyncWorkload

#if canImport(Glibc)
import Glibc
#endif

extension SyncBench {
  /// The merging-client mode: every client is a `SyncClient` that merges what it receives (so it
  /// measures the clients as much as the server).
  func runClients() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let arguments = ["--max-queued-frames", "\(maxQueuedFrames)"] + (try storageArguments(data: directory)).arguments
    let server = try BenchServer(binary: self.server, arguments: arguments)
    let url = "ws://127.0.0.1:\(server.port)"
    let list = "bench-\(getpid())"
    let codec = HistoryCodec<String, SyncRow>()
    var clientConfiguration = SyncClientConfiguration()
    clientConfiguration.autoPushInterval = nil
    let transport = WebSocketSyncTransport()
    let endpoint = SyncEndpoint(url: url, list: list, token: nil)

    // The list's first replica creates it; the others are replicas of it on other devices.
    let origin = ListReplica<String, SyncRow>(
      replica: ReplicaID(rawValue: 1), listID: 0x5EED, base: SyncWorkload.base(items: baseItems))
    let replicas = (0..<clients).map { index in
      index == 0 ? origin : ListReplica(cloning: origin, replica: ReplicaID(rawValue: UInt64(index + 1)))
    }
    let book = LatencyBook(replicas: replicas.map(\.replicaID), operations: operations)
    let syncClients = replicas.map {
      SyncClient(replica: $0, codec: codec, transport: transport, endpoint: endpoint, configuration: clientConfiguration)
    }
    var runs: [Task<Void, any Error>] = []
    var listeners: [Task<Void, Never>] = []
    for client in syncClients {
      runs.append(Task { try await client.run() })
      listeners.append(Task { for await merge in client.merges { book.merged(merge.received) } })
    }
    for client in syncClients { try await client.waitUntilSynced() }
    print("\(clients) clients connected to \(url) (\(backend.joined(separator: " ")) backend)")

    let serverCPUBefore = server.cpuSeconds
    let selfCPUBefore = processCPUSeconds()
    let started = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, client) in syncClients.enumerated() {
        let operations = self.operations
        let rate = self.rate
        group.addTask {
          var workload = SyncWorkload(seed: 1, client: index)
          let pace = rate > 0 ? Duration.seconds(1 / rate) : nil
          var next = ContinuousClock.now
          var last: UInt64 = 0
          for _ in 0..<operations {
            try workload.edit(client.replica)
            let sequence = client.replica.versionVector[client.replica.replicaID]
            // An operation that changed nothing made no commit: nothing to push or time.
            guard sequence > last else { continue }
            last = sequence
            book.made(client: index, sequence: sequence)
            if let pace {
              try await client.push()
              next += pace
              try await Task.sleep(until: next)
            } else {
              // As fast as acknowledgements allow: pushes it and returns once it is acknowledged
              // (behind an empty push whose ack follows it), without polling.
              try await client.waitUntilSynced()
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let pushed = ContinuousClock.now - started
    // Everyone holds everything: one round so all is stored, one so all is received.
    for client in syncClients { try await client.waitUntilSynced() }
    for client in syncClients { try await client.waitUntilSynced() }
    let settled = ContinuousClock.now - started
    let serverCPU = server.cpuSeconds - serverCPUBefore
    let selfCPU = processCPUSeconds() - selfCPUBefore
    try await Task.sleep(for: .milliseconds(100))

    let reference = origin.snapshot
    let converged = syncClients.allSatisfy { $0.replica.snapshot == reference }
    // An operation that changes nothing (collapsing a collapsed row) makes no commit.
    let commits = origin.commitCount
    let reconnected = syncClients.filter { $0.status.connections > 1 }.count
    let summary = book.summary()
    func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
    func s(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    print("converged: \(converged ? "yes" : "NO"): \(clients) clients hold \(origin.commitCount) commits, \(reference.numberOfItems) items")
    print("commits: \(commits) (\(clients) clients x \(operations) operations), pushed one at a time \(rate > 0 ? "at \(rate)/s per client" : "as fast as acks allow")")
    print(String(format: "push phase: %.2f s; throughput %.0f commits/s stored (all acknowledged); settled after %.2f s", s(pushed), Double(commits) / s(pushed), s(settled)))
    print("push-to-others latency, per (commit, receiver): p50 \(ms(summary.pairP50)), p99 \(ms(summary.pairP99)), max \(ms(summary.pairMax)) over \(summary.pairs) deliveries (of \(commits * (clients - 1)))")
    print("push-to-everyone latency, per commit: p50 \(ms(summary.everyoneP50)), p99 \(ms(summary.everyoneP99)), max \(ms(summary.everyoneMax)) over \(summary.commitsReachingEveryone) commits")
    print(String(format: "CPU: server %.1f s, clients (this process) %.1f s over %.1f s wall: %.0f%% of 2 cores (server %.0f%%); server and all clients share the machine's 2 cores", serverCPU, selfCPU, s(settled), 100 * (serverCPU + selfCPU) / (2 * s(settled)), 100 * serverCPU / (2 * s(settled))))
    print("clients that reconnected (dropped for falling behind, or lost): \(reconnected)")
    for task in runs { task.cancel() }
    for task in runs { _ = try? await task.value }
    for task in listeners { task.cancel() }
    let status = server.stop()
    print("server stopped with SIGTERM: exit \(status)")
    if !converged { throw ExitCode(1) }
  }
}
