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
  /// The load generator: pre-made pushes from thin clients, arrivals stamped without merging.
  func runLoad() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try storageArguments(data: directory)
    let codec = HistoryCodec<String, SyncRow>()
    let list = "bench-\(getpid())"

    // Before the clock: every client's commits, made offline on its own clone of the base (so
    // they are valid concurrent commits), encoded as push frames.
    let prepareStart = ContinuousClock.now
    let origin = ListReplica<String, SyncRow>(
      replica: ReplicaID(rawValue: UInt64(clients) + 1), listID: 0x5EED, base: SyncWorkload.base(items: baseItems))
    let genesis = try SyncListGenesis(of: origin, codec: codec)
    let hello = SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: genesis).encoded()
    let plans = try await prepare(origin: origin, codec: codec)
    var offsets = [0]
    for plan in plans { offsets.append(offsets.last! + plan.pushOfSequence.count) }
    let total = offsets.last!
    let pushFrames = plans.reduce(0) { $0 + $1.pushes.count }
    let pushBytes = plans.reduce(0) { $0 + $1.pushes.reduce(0) { $0 + $1.count } }
    print(
      String(
        format: "prepared %d commits (%d clients x %d operations) as %d push frames (%.0f bytes each on average) in %.1f s",
        total, clients, operations, pushFrames, Double(pushBytes) / Double(max(1, pushFrames)),
        (ContinuousClock.now - prepareStart).seconds))

    // The servers, and one connection per client (alternating between instances).
    var servers: [BenchServer] = []
    for _ in 0..<instances {
      servers.append(try BenchServer(binary: server, arguments: ["--max-queued-frames", "\(maxQueuedFrames)"] + storage.arguments))
    }
    let transport = WebSocketSyncTransport()
    let ids = FrameIDs(codec: codec)
    let samples = Set(sampleClients())
    var loadClients: [LoadClient] = []
    for (index, plan) in plans.enumerated() {
      let server = servers[index % servers.count]
      let channel = try await transport.connect(
        to: SyncEndpoint(url: "ws://127.0.0.1:\(server.port)", list: list, token: nil).syncURL, bearer: nil)
      try await channel.send(hello)
      guard let first = try await channel.receive(), case .welcome = try SyncMessage(decoding: first) else {
        throw BenchFailure("client \(index) got no welcome")
      }
      loadClients.append(
        LoadClient(
          index: index, channel: channel, pushes: plan.pushes, pushOfSequence: plan.pushOfSequence, offsets: offsets,
          total: total, window: window, keepsCommits: samples.contains(index)))
    }
    let ports = servers.map { String($0.port) }.joined(separator: ", ")
    print(
      "\(clients) clients connected to \(instances) listjournal-server instance\(instances == 1 ? "" : "s") on port\(instances == 1 ? "" : "s") \(ports) (\(storage.description) backend, --max-queued-frames \(maxQueuedFrames))"
    )

    // The clock runs from the first push to quiescence.
    let serverCPUBefore = servers.reduce(0) { $0 + $1.cpuSeconds }
    let selfCPUBefore = processCPUSeconds()
    let start = monotonicNanoseconds()
    let interval: Double? = rate > 0 ? 1 / rate : nil
    let receivers = loadClients.map { client in Task { await client.receive(ids: ids) } }
    let senders = loadClients.map { client in Task { try await client.send(interval: interval) } }
    var serverCPUAtPushEnd = 0.0
    var selfCPUAtPushEnd = 0.0
    var pushEnd: UInt64 = 0
    var lastProgress = (monotonicNanoseconds(), -1)
    var quiet = false
    while true {
      try await Task.sleep(for: .milliseconds(20))
      let acked = loadClients.reduce(0) { $0 + $1.acks.load(ordering: .relaxed) }
      let arrived = loadClients.reduce(0) { $0 + $1.arrivals.load(ordering: .relaxed) }
      if pushEnd == 0, acked == pushFrames {
        pushEnd = monotonicNanoseconds()
        serverCPUAtPushEnd = servers.reduce(0) { $0 + $1.cpuSeconds }
        selfCPUAtPushEnd = processCPUSeconds()
      }
      if loadClients.allSatisfy(\.isDone) { break }
      if acked + arrived != lastProgress.1 {
        lastProgress = (monotonicNanoseconds(), acked + arrived)
      } else if monotonicNanoseconds() - lastProgress.0 > 30_000_000_000 {
        quiet = true
        break
      }
    }
    let settled = monotonicNanoseconds()
    if pushEnd == 0 {
      pushEnd = settled
      serverCPUAtPushEnd = servers.reduce(0) { $0 + $1.cpuSeconds }
      selfCPUAtPushEnd = processCPUSeconds()
    }
    let serverCPU = servers.reduce(0) { $0 + $1.cpuSeconds } - serverCPUBefore
    let selfCPU = processCPUSeconds() - selfCPUBefore
    // Closing ends the receivers, and a sender still waiting for its window (a stalled run) fails.
    for client in loadClients {
      client.closing.store(true, ordering: .releasing)
      await client.channel.close()
    }
    for receiver in receivers { await receiver.value }
    for sender in senders { _ = try? await sender.value }

    // Results.
    func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
    let pushSeconds = seconds(pushEnd - start)
    let settledSeconds = seconds(settled - start)
    let stored = loadClients.reduce(0) { $0 + $1.stored }
    let storedDuplicates = loadClients.reduce(0) { $0 + $1.storedDuplicates }
    let deliveries = loadClients.reduce(0) { $0 + $1.arrivals.load(ordering: .relaxed) }
    let lastArrival = loadClients.reduce(UInt64(0)) { max($0, $1.arrivedAt.max() ?? 0) }
    let failures = loadClients.compactMap { client in client.failure.map { "client \(client.index): \($0)" } }
    var missing = 0
    var latencies: [UInt64] = []
    latencies.reserveCapacity(total * (clients - 1))
    var toEveryone = [UInt64](repeating: 0, count: total)
    for receiver in loadClients {
      for sender in loadClients where sender.index != receiver.index {
        for sequence in 0..<(offsets[sender.index + 1] - offsets[sender.index]) {
          let slot = offsets[sender.index] + sequence
          let arrived = receiver.arrivedAt[slot]
          guard arrived != 0 else {
            missing += 1
            continue
          }
          let sent = sender.sentAt[sender.pushOfSequence[sequence]]
          let latency = arrived >= sent ? arrived - sent : 0
          latencies.append(latency)
          toEveryone[slot] = max(toEveryone[slot], latency)
        }
      }
    }
    var ackLatencies: [UInt64] = []
    for client in loadClients {
      for (sent, acked) in zip(client.sentAt, client.ackedAt) where acked >= sent && acked != 0 { ackLatencies.append(acked - sent) }
    }
    latencies.sort()
    toEveryone.sort()
    ackLatencies.sort()
    func ms(_ nanoseconds: UInt64) -> String { String(format: "%.1f ms", Double(nanoseconds) / 1e6) }
    func percentiles(_ values: [UInt64]) -> String {
      guard !values.isEmpty else { return "none" }
      func at(_ p: Double) -> UInt64 { values[min(values.count - 1, Int(Double(values.count - 1) * p))] }
      return "p50 \(ms(at(0.5))), p99 \(ms(at(0.99))), max \(ms(values.last!))"
    }
    let pace = rate > 0 ? String(format: "%.0f pushes/s per client", rate) : "a window of \(window) push\(window == 1 ? "" : "es") in flight per client"
    print("pushes: \(commitsPerPush) commit\(commitsPerPush == 1 ? "" : "s") per push, \(pace)")
    print(
      String(
        format: "push phase: %.2f s (every push acknowledged); throughput %.0f commits/s stored (%d stored, %d duplicates)",
        pushSeconds, Double(stored) / pushSeconds, stored, storedDuplicates))
    print(
      String(
        format: "delivery: %d of %d (commit, receiver) pairs, the last %.2f s after the start: %.0f commits/s delivered; settled after %.2f s",
        deliveries, total * (clients - 1), seconds(lastArrival > start ? lastArrival - start : 0),
        Double(deliveries) / seconds(max(1, lastArrival > start ? lastArrival - start : 1)), settledSeconds))
    print("push-to-others latency, per (commit, receiver), every receiver recorded: \(percentiles(latencies)) over \(latencies.count) pairs")
    print("push-to-everyone latency, per commit (until its last receiver): \(percentiles(toEveryone.filter { $0 > 0 }))")
    print("push-to-ack latency, per push: \(percentiles(ackLatencies))")
    let decoding = ids.statistics
    print(
      String(
        format:
          "CPU over the push phase: server %.1f s (%.0f%% of one core; %.1f µs per commit stored), load generator %.1f s; until settled: server %.1f s, load generator %.1f s; decoding %d distinct commits frames (%d commits, for %d frames received) took %.1f s of its threads' time, waits for a core included",
        serverCPUAtPushEnd - serverCPUBefore, 100 * (serverCPUAtPushEnd - serverCPUBefore) / pushSeconds,
        1e6 * (serverCPUAtPushEnd - serverCPUBefore) / Double(max(1, stored)), selfCPUAtPushEnd - selfCPUBefore, serverCPU,
        selfCPU, decoding.frames, decoding.commits, decoding.lookups, decoding.seconds))
    print("the server\(instances == 1 ? "" : "s") and the load generator share this machine's \(ProcessInfo.processInfo.activeProcessorCount) cores")
    let duplicates = loadClients.reduce(0) { $0 + $1.duplicates + $1.unknown }

    // Convergence: every client received every other client's commits; the samples fold what
    // they received into replicas that equal each other and every instance's state.
    var converged = failures.isEmpty && missing == 0 && duplicates == 0 && !quiet && Int(stored) == total
    for failure in failures.prefix(5) { print("failure: \(failure)") }
    print(
      "id sets: \(missing == 0 ? "every client received every other client's commits" : "\(missing) (commit, receiver) pairs MISSING")\(duplicates > 0 ? "; \(duplicates) commits received twice or unknown" : "")\(quiet ? "; no progress for 30 s" : "")"
    )
    let foldStart = ContinuousClock.now
    var texts: [(String, String)] = []
    for client in loadClients where samples.contains(client.index) {
      let replica = plans[client.index].replica
      _ = try replica.receive(client.received.flatMap { $0 })
      guard replica.commitCount == total else {
        print("client \(client.index) folded \(replica.commitCount) commits of \(total)")
        converged = false
        continue
      }
      texts.append(("client \(client.index)", StateCheck.canonical(replica.snapshot)))
    }
    for (index, server) in servers.enumerated() {
      let state = try await StateCheck.serverState(port: server.port, list: list)
      if state.commits != total {
        print("instance \(index) holds \(state.commits) commits of \(total)")
        converged = false
      }
      texts.append(("instance \(index)", state.text))
    }
    let agree = texts.dropFirst().allSatisfy { $0.1 == texts.first?.1 }
    if !agree { converged = false }
    print(
      String(
        format: "states: %@ (%@; folded and read in %.1f s)", agree ? "equal" : "DIFFERENT",
        texts.map(\.0).joined(separator: ", "), (ContinuousClock.now - foldStart).seconds))
    print("converged: \(converged ? "yes" : "NO")")
    for (index, server) in servers.enumerated() { print("instance \(index) stopped with SIGTERM: exit \(server.stop())") }
    if !converged { throw ExitCode(1) }
  }

  /// The clients whose received commits are folded afterwards: spread over the clients.
  func sampleClients() -> [Int] {
    let count = min(foldSamples, clients)
    guard count > 0 else { return [] }
    return (0..<count).map { $0 * (clients - 1) / max(1, count - 1) }.uniqued()
  }

  struct Plan: Sendable {
    var replica: ListReplica<String, SyncRow>
    var pushes: [[UInt8]]
    var pushOfSequence: [Int]
  }

  /// Each client's operations of the mixed workload on its own clone, as push frames; two
  /// clients at a time.
  func prepare(origin: ListReplica<String, SyncRow>, codec: HistoryCodec<String, SyncRow>) async throws -> [Plan] {
    let operations = self.operations
    let commitsPerPush = self.commitsPerPush
    let clients = self.clients
    return try await withThrowingTaskGroup(of: (Int, Plan).self) { group in
      var plans = [Plan?](repeating: nil, count: clients)
      var next = 0
      func add() {
        let index = next
        next += 1
        group.addTask {
          let replica = ListReplica(cloning: origin, replica: ReplicaID(rawValue: UInt64(index) + 1))
          var workload = SyncWorkload(seed: 1, client: index)
          for _ in 0..<operations { try workload.edit(replica) }
          let commits = replica.commits
          var pushes: [[UInt8]] = []
          var pushOfSequence: [Int] = []
          var position = 0
          while position < commits.count {
            let slice = Array(commits[position..<min(commits.count, position + commitsPerPush)])
            for (offset, commit) in slice.enumerated() {
              guard commit.id.sequence == UInt64(position + offset + 1) else {
                throw BenchFailure("client \(index)'s commit \(commit.id) is not its number \(position + offset + 1)")
              }
              pushOfSequence.append(pushes.count)
            }
            let batch = try ReplicaBatch(commits: slice, listID: origin.listID, codec: codec)
            pushes.append(SyncMessage.push(request: UInt64(pushes.count + 1), batch: batch).encoded())
            position += slice.count
          }
          return (index, Plan(replica: replica, pushes: pushes, pushOfSequence: pushOfSequence))
        }
      }
      for _ in 0..<min(2, clients) { add() }
      while let (index, plan) = try await group.next() {
        plans[index] = plan
        if next < clients { add() }
      }
      return plans.map { $0! }
    }
  }
}

extension Array where Element: Hashable {
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
