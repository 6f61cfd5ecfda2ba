import BenchmarkSupport
import Foundation
import ListReplica
import ListSync

// The receive side of sync without a network: one receiving replica gets a stream of one-commit
// batches that K other replicas made concurrently (each editing with the sync workload's mix on
// a copy of the list that lags the others by up to K commits, so commits arrive interleaved and
// often sort before ones the receiver holds, including its own). Timed: each receive alone —
// `ListReplica.receive(_:)` on the commits, and a `SyncClient` taking the same commits as
// `commits` frames from a scripted channel (frame decode, batch decode, merge, bookkeeping,
// the merges stream). Not timed: making the commits.
//
//   ReceiveBench [COMMITS] [EDITORS,...] [ROWS,...]   (default 2000 10,100 100,10000)

struct Row: ListElement, Codable, Hashable {
  var id: String
  var value: String
}

typealias Replica = ListReplica<String, Row>
typealias Commit = ReplicaCommit<String, Row>
let sections = ["Inbox", "Later"]
let codec = HistoryCodec<String, Row>()

func base(rows: Int) -> ListSnapshot<String, Row> {
  var snapshot = ListSnapshot<String, Row>()
  try! snapshot.appendSections(sections)
  for index in 0..<rows {
    try! snapshot.appendItems([Row(id: "b\(index)", value: "v\(index)")], toSection: sections[index % 2])
  }
  return snapshot
}

/// One editor: the sync workload's mix (appends, inserts, children, deletes, moves, value
/// changes, expand and collapse), one operation per commit.
struct Editor {
  let replica: Replica
  let client: Int
  var made = 0
  var seen = 0

  mutating func edit(_ random: inout SplitMix) throws {
    let ids = replica.snapshot.itemIdentifiers
    let choice = ids.count < 4 ? 0 : Int.random(in: 0..<100, using: &random)
    let a = ids.randomElement(using: &random)
    let b = ids.randomElement(using: &random)
    let section = sections.randomElement(using: &random)!
    made += 1
    let row = Row(id: "c\(client)-\(made)", value: "v\(made)")
    let value = "w\(Int.random(in: 0..<1_000_000, using: &random))"
    do {
      try replica.transaction { tx in
        switch (choice, a, b) {
        case (0..<20, _, _), (_, nil, _), (_, _, nil): try tx.appendItems([row], toSection: section)
        case (20..<35, let a?, _): try tx.insertItems([row], afterItem: a)
        case (35..<45, let a?, _): try tx.appendItems([row], underParent: a)
        case (45..<55, let a?, _): try tx.deleteItems([a])
        case (55..<70, let a?, let b?) where a != b: try tx.moveItem(a, afterItem: b)
        case (70..<75, let a?, let b?) where a != b: try tx.moveItem(a, underParent: b)
        case (75..<95, let a?, _):
          var changed = tx.snapshot.item(a)!
          changed.value = value
          try tx.updateItem(changed)
        case (95..<98, let a?, _): try tx.expand([a])
        case (_, let a?, _): try tx.collapse([a])
        }
      }
    } catch {
      try replica.transaction { tx in try tx.appendItems([row], toSection: section) }
    }
  }
}

/// The stream the receiver gets, in arrival order, and after which arrivals it edits itself.
struct Stream {
  var commits: [Commit] = []
  var ownEditAfter: Set<Int> = []
}

/// K editors commit in a random order; before each commit an editor catches up (as one batch)
/// on the stream up to a random lag of at most K commits, as a client does whose pushes race
/// the others'.
func makeStream(editors count: Int, rows: Int, commits total: Int, seed: UInt64) throws -> Stream {
  var random = SplitMix(state: seed)
  let listID: UInt64 = 1
  let start = base(rows: rows)
  var editors = (0..<count).map { Editor(replica: Replica(replica: ReplicaID(rawValue: UInt64($0 + 2)), listID: listID, base: start), client: $0) }
  var stream = Stream()
  for step in 0..<total {
    let index = Int.random(in: 0..<count, using: &random)
    let lag = Int.random(in: 0...count, using: &random)
    let upTo = max(editors[index].seen, stream.commits.count - lag)
    if upTo > editors[index].seen {
      try editors[index].replica.receive(Array(stream.commits[editors[index].seen..<upTo]))
      editors[index].seen = upTo
    }
    let before = editors[index].replica.commitCount
    // An edit that changes nothing (collapsing a collapsed row) commits nothing: edit again.
    while editors[index].replica.commitCount == before { try editors[index].edit(&random) }
    let id = editors[index].replica.replicaID
    stream.commits.append(editors[index].replica.commits.last { $0.id.replica == id }!)
    // The receiver edits too, about as often as one editor.
    if Int.random(in: 0..<count, using: &random) == 0 { stream.ownEditAfter.insert(step) }
  }
  return stream
}

/// The process's CPU time in seconds (all threads): what a receive costs the device, apart from
/// the waits between the client's tasks.
func cpuSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

struct Timings {
  var micros: [Double] = []
  var cpu: [Double] = []
  var rebased = 0
  mutating func add(_ seconds: Double) { micros.append(seconds * 1e6) }
  var mean: Double { micros.reduce(0, +) / Double(max(1, micros.count)) }
  func percentile(_ p: Double) -> Double {
    let sorted = micros.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  }
  var line: String {
    String(format: "mean %7.1f µs  p50 %7.1f  p90 %7.1f  p99 %7.1f  cpu mean %7.1f µs", mean, percentile(0.5), percentile(0.9), percentile(0.99),
      cpu.reduce(0, +) / Double(max(1, cpu.count)))
  }
}

/// The receiver on the replica API: one `receive` per arriving commit.
func receiveDirect(_ stream: Stream, rows: Int, seed: UInt64) throws -> (Timings, ListSnapshot<String, Row>) {
  var random = SplitMix(state: seed ^ 0xfeed)
  let receiver = Replica(replica: ReplicaID(rawValue: 1), listID: 1, base: base(rows: rows))
  var own = Editor(replica: receiver, client: 999)
  var timings = Timings()
  for (step, commit) in stream.commits.enumerated() {
    let start = benchmarkClock.now
    let cpuStart = cpuSeconds()
    let merge = try receiver.receive([commit])
    timings.cpu.append((cpuSeconds() - cpuStart) * 1e6)
    timings.add(seconds(benchmarkClock.now - start))
    timings.rebased += merge.rebased
    if stream.ownEditAfter.contains(step) { try own.edit(&random) }
  }
  return (timings, receiver.snapshot)
}

/// A channel that plays frames to a client and swallows what it sends; `next` hands over
/// one frame at a time so each receive is timed alone.
final class ScriptedChannel: SyncChannel, @unchecked Sendable {
  let lock = NSLock()
  var frames: [[UInt8]] = []
  var waiting: CheckedContinuation<[UInt8]?, Never>?
  var closed = false

  func send(_ frame: [UInt8]) async throws {}
  func receive() async throws -> [UInt8]? {
    await withCheckedContinuation { continuation in
      lock.lock()
      if !frames.isEmpty {
        let frame = frames.removeFirst()
        lock.unlock()
        continuation.resume(returning: frame)
      } else if closed {
        lock.unlock()
        continuation.resume(returning: nil)
      } else {
        waiting = continuation
        lock.unlock()
      }
    }
  }
  func deliver(_ frame: [UInt8]?) {
    lock.lock()
    if let waiter = waiting {
      waiting = nil
      lock.unlock()
      waiter.resume(returning: frame)
      return
    }
    if let frame { frames.append(frame) } else { closed = true }
    lock.unlock()
  }
  func close() async { deliver(nil) }
}

struct ScriptedTransport: SyncTransport {
  let channel: ScriptedChannel
  func connect(to url: String, bearer token: String?) async throws -> any SyncChannel { channel }
}

/// The receiver behind a `SyncClient`: each commit arrives as its own `commits` frame; the time
/// is from handing the frame over to the merge appearing on `merges` (what the UI waits for).
func receiveThroughClient(_ stream: Stream, rows: Int, seed: UInt64) async throws -> (Timings, ListSnapshot<String, Row>) {
  var random = SplitMix(state: seed ^ 0xfeed)
  let receiver = Replica(replica: ReplicaID(rawValue: 1), listID: 1, base: base(rows: rows))
  var own = Editor(replica: receiver, client: 999)
  let channel = ScriptedChannel()
  let genesis = try SyncListGenesis(of: receiver, codec: codec)
  channel.deliver(SyncMessage.welcome(genesis: genesis, lastPosition: 0, vector: ReplicaVersionVector()).encoded())
  let client = SyncClient(
    replica: receiver, codec: codec, transport: ScriptedTransport(channel: channel),
    endpoint: SyncEndpoint(url: "local:", list: "bench", token: nil),
    configuration: {
      var configuration = SyncClientConfiguration()
      configuration.autoPushInterval = nil
      return configuration
    }())
  let frames = try stream.commits.map { try SyncMessage.commits(ReplicaBatch(commits: [$0], listID: 1, codec: codec)).encoded() }
  let runner = Task { try await client.run() }
  var merges = client.merges.makeAsyncIterator()
  var timings = Timings()
  for (step, frame) in frames.enumerated() {
    let start = benchmarkClock.now
    let cpuStart = cpuSeconds()
    channel.deliver(frame)
    guard let merge = await merges.next() else { fatalError("the merges stream ended") }
    timings.cpu.append((cpuSeconds() - cpuStart) * 1e6)
    timings.add(seconds(benchmarkClock.now - start))
    timings.rebased += merge.rebased
    if stream.ownEditAfter.contains(step) { try own.edit(&random) }
  }
  runner.cancel()
  await channel.close()
  _ = try? await runner.value
  return (timings, receiver.snapshot)
}

let arguments = CommandLine.arguments
let total = arguments.count > 1 ? Int(arguments[1])! : 2000
let editorCounts = arguments.count > 2 ? arguments[2].split(separator: ",").map { Int($0)! } : [10, 100]
let rowCounts = arguments.count > 3 ? arguments[3].split(separator: ",").map { Int($0)! } : [100, 10_000]
let only = ProcessInfo.processInfo.environment["RECEIVE_ONLY"]  // "replica" or "client"
Results.begin("ReceiveBench", settings: ["commits=\(total)", "editors=\(editorCounts)", "rows=\(rowCounts)"] + environmentSettings(["RECEIVE_ONLY"]))
func report(_ line: String) { Results.write(line) }

report("one-commit receives: \(total) commits per case, per receive (default release build)")
for rows in rowCounts {
  for editors in editorCounts {
    let seed = UInt64(rows * 1000 + editors)
    let stream = try makeStream(editors: editors, rows: rows, commits: total, seed: seed)
    let label = String(format: "rows %6d  editors %3d", rows, editors)
    var direct: ListSnapshot<String, Row>? = nil
    if only != "client" {
      // For a profiler: the receives again, so that they outweigh making the stream.
      for _ in 0..<(Int(ProcessInfo.processInfo.environment["RECEIVE_PROFILE_REPEATS"] ?? "") ?? 0) {
        _ = try receiveDirect(stream, rows: rows, seed: seed)
      }
      let (timings, snapshot) = try receiveDirect(stream, rows: rows, seed: seed)
      direct = snapshot
      report("\(label)  replica.receive    \(timings.line)  rebased/receive \(String(format: "%.1f", Double(timings.rebased) / Double(total)))")
    }
    if only != "replica" {
      let (timings, snapshot) = try await receiveThroughClient(stream, rows: rows, seed: seed)
      if let direct, direct != snapshot { fatalError("the client's replica differs from the direct receiver's") }
      report("\(label)  SyncClient frame   \(timings.line)")
    }
  }
}
