// JournalTool: the crash-test writer/checker, the benchmark runner and the fuzz-seed generator.
//
//   JournalTool crash-writer PATH            strict appends forever, printing "committed N"
//   JournalTool crash-check PATH ACKED       reopen (recovery) and verify records 1...ACKED
//   JournalTool replica-crash-writer PATH SEED  a replica journal committing and receiving forever
//   JournalTool bench DIR [EVENTS]           size / throughput / latency numbers (release build)
//   JournalTool store-bench DIR [EVENTS] [ITEMS]  end-to-end numbers with real history records
//   JournalTool store-profile PHASE DIR [N]  one phase of store-bench, for profilers (StoreBench.swift)
//   JournalTool seeds DIR                    small journals for Tools/fuzz/corpus
import libzstd
import JournalFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A deterministic ~10-byte payload shaped like an encoded list event, derived from the sequence
/// so the checker can recompute it: op (1 of 4), section, position (pseudo-random < 1000), element
/// id (a recent id, not always the newest), and 2 bytes of pseudo-random content — about 4 bytes
/// of real entropy, so the size benchmark is not flattered by a perfectly regular stream.
func eventPayload(_ n: UInt64) -> [UInt8] {
  var h = n &* 0x9E37_79B9_7F4A_7C15
  h ^= h >> 29
  h = h &* 0xBF58_476D_1CE4_E5B9
  h ^= h >> 32
  var bytes: [UInt8] = [UInt8(h % 4 + 1), UInt8((h >> 3) % 3)]
  appendVarint(&bytes, (h >> 8) % 1000)
  appendVarint(&bytes, n &- (h >> 20) % 64)
  bytes.append(UInt8(truncatingIfNeeded: h >> 40))
  bytes.append(UInt8(truncatingIfNeeded: h >> 48))
  return bytes
}

func appendVarint(_ bytes: inout [UInt8], _ value: UInt64) {
  var v = value
  while v >= 0x80 {
    bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
    v >>= 7
  }
  bytes.append(UInt8(v))
}

func say(_ line: String) {
  let text = line + "\n"
  _ = text.withCString { write(1, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
  let text = "error: " + message + "\n"
  _ = text.withCString { write(2, $0, strlen($0)) }
  exit(1)
}

func now() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: JournalTool crash-writer|crash-check|bench|seeds PATH [N]") }

switch arguments[1] {
case "crash-writer":
  var options = JournalOptions()
  options.durability = .strict
  options.frameTargetBytes = 4096  // many frames per round, so kills land in every state
  do {
    let writer = try JournalWriter.open(at: arguments[2], options: options, createIfMissing: true)
    while true {
      let sequence = writer.nextSequence
      let kind: JournalRecord.Kind = sequence % 97 == 0 ? .checkpoint : .commit
      let receipt = try writer.append(JournalRecord(kind: kind, version: sequence, payload: eventPayload(sequence)))
      guard receipt.isDurable else { fail("strict append not durable") }
      say("committed \(receipt.sequence)")
    }
  } catch {
    fail("\(error)")
  }

case "replica-crash-writer":
  // A replica that forever makes a local commit and receives a batch of a peer's commits (the
  // peer is deterministic: seed ARGUMENT 3), printing "acked REPLICA:SEQUENCE" for every commit
  // once `transaction` or `receive` returned (strict durability: synced by then).
  let seed = arguments.count >= 4 ? UInt64(arguments[3]) ?? 1 : 1
  replicaCrashWriter(path: arguments[2], seed: seed)

case "crash-check":
  guard arguments.count >= 4, let acknowledged = UInt64(arguments[3]) else { fail("crash-check PATH ACKED") }
  do {
    // Recover as the next writer would (drops a torn tail), then verify read-only.
    let writer = try JournalWriter.open(at: arguments[2])
    let torn = writer.recovery.tornTailBytes
    try writer.close()
    let records = try JournalReader.open(at: arguments[2]).readAll()
    guard UInt64(records.count) >= acknowledged else { fail("only \(records.count) records survive, \(acknowledged) were acknowledged") }
    for (index, record) in records.enumerated() {
      let sequence = UInt64(index + 1)
      guard record.sequence == sequence, record.version == sequence, record.payload == eventPayload(sequence) else {
        fail("record \(sequence) differs")
      }
    }
    say("ok \(records.count) records (acknowledged \(acknowledged), torn tail \(torn) bytes)")
  } catch {
    fail("\(error)")
  }

case "seeds":
  let dir = arguments[2]
  for (name, durability, count) in [("strict", JournalDurability.strict, 12), ("grouped", .grouped, 300), ("relaxed", .relaxed, 5)] {
    var options = JournalOptions()
    options.durability = durability
    options.frameTargetBytes = 512
    let path = "\(dir)/\(name).journal"
    unlink(path)
    do {
      let writer = try JournalWriter.create(at: path, options: options)
      for n in UInt64(1)...UInt64(count) {
        try writer.append(JournalRecord(kind: n % 50 == 0 ? .checkpoint : .commit, version: n, payload: eventPayload(n)))
      }
      try writer.close()
    } catch {
      fail("\(error)")
    }
  }

case "store-bench":
  runStoreBenchmarks(
    directory: arguments[2], events: arguments.count > 3 ? Int(arguments[3]) ?? 2_000_000 : 2_000_000,
    items: arguments.count > 4 ? Int(arguments[4]) ?? 100_000 : 100_000)

case "store-profile":
  guard arguments.count >= 4 else { fail("store-profile PHASE DIR [N]") }
  runStoreProfile(arguments[2], directory: arguments[3], count: arguments.count > 4 ? Int(arguments[4]) ?? 1_000 : 1_000)

case "history-seeds":
  // Seeds for Tools/fuzz/run-history from the golden journals: record payloads (selector 0),
  // event streams (1) and packed record sequences (2).
  guard arguments.count >= 4 else { fail("history-seeds GOLDEN_DIR OUT_DIR") }
  writeHistorySeeds(goldenDirectory: arguments[2], output: arguments[3])

case "bench":
  runBenchmarks(directory: arguments[2], events: arguments.count > 3 ? Int(arguments[3]) ?? 10_000_000 : 10_000_000)

default:
  fail("unknown command \(arguments[1])")
}
