// End-to-end benchmark with REAL history records: a ListStore journaled through JournalStore.
//
//   JournalTool store-bench DIR [EVENTS] [ITEMS]
//
// Mixed workload of the history issue: 30% content updates, 20% moves, 15% appends, 10% deletes,
// 10% inserts, 10% expand/collapse, 5% undo/redo, on a list of ~ITEMS items (default 100,000),
// one operation per commit, written with `.grouped` durability.
import Foundation
import CZstd
import JournalFormat
import ListJournal

#if canImport(Glibc)
import Glibc
#endif

/// The benchmark's element: an integer identifier and a short text, `Codable` like an app's.
struct BenchItem: ListElement, Codable, Hashable, Sendable {
  var id: Int
  var content: String
}

struct BenchSection: ListElement, Codable, Hashable, Sendable {
  var id: Int
  var content: String
}

/// Small deterministic PRNG (splitmix64).
struct BenchRandom {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

typealias BenchStore = ListStore<BenchSection, BenchItem>

/// Drives a store with the mixed workload; returns the number of events recorded.
func runMixedWorkload(_ store: BenchStore, events target: Int, items: Int, seed: UInt64) throws -> Int {
  var random = BenchRandom(state: seed)
  let sections = 10
  try store.appendSections((0..<sections).map { BenchSection(id: $0, content: "Section \($0)") })
  // Initial fill in transactions of 1,000 items (counted as events too).
  var pool: [Int] = []
  pool.reserveCapacity(items * 2)
  var nextID = 0
  while pool.count < items {
    try store.transaction(label: "Fill") { tx in
      for _ in 0..<1_000 {
        let id = nextID
        nextID += 1
        try tx.appendItems([BenchItem(id: id, content: "item \(id)")], toSection: id % sections)
        pool.append(id)
      }
    }
  }
  var lastWasUndo = false
  var counter = 0
  func pick(_ snapshot: BenchStore.Snapshot) -> Int? {
    for _ in 0..<8 {
      guard !pool.isEmpty else { return nil }
      let index = random.below(pool.count)
      let id = pool[index]
      if snapshot.contains(item: id) { return id }
      pool.swapAt(index, pool.count - 1)
      pool.removeLast()
    }
    return nil
  }
  while store.eventCount < target {
    let roll = random.below(100)
    counter += 1
    let snapshot = store.snapshot
    do {
      switch roll {
      case 0..<30:  // content update
        guard let id = pick(snapshot) else { continue }
        try store.updateItem(BenchItem(id: id, content: "v\(counter % 9973) \(id)"))
      case 30..<50:  // move
        guard let id = pick(snapshot), let anchor = pick(snapshot), id != anchor else { continue }
        if snapshot.parent(of: anchor) != nil || snapshot.parent(of: id) != nil {
          try store.moveItem(id, toSection: random.below(sections))
        } else {
          try store.moveItem(id, beforeItem: anchor)
        }
      case 50..<65:  // append (sometimes under a parent: outlines)
        let id = nextID
        nextID += 1
        if random.below(4) == 0, let parent = pick(snapshot), snapshot.parent(of: parent) == nil {
          try store.appendItems([BenchItem(id: id, content: "new \(id)")], underParent: parent)
        } else {
          try store.appendItems([BenchItem(id: id, content: "new \(id)")], toSection: random.below(sections))
        }
        pool.append(id)
      case 65..<75:  // delete
        guard pool.count > items / 2, let id = pick(snapshot) else { continue }
        try store.deleteItems([id])
      case 75..<85:  // insert
        guard let anchor = pick(snapshot) else { continue }
        let id = nextID
        nextID += 1
        try store.insertItems([BenchItem(id: id, content: "ins \(id)")], beforeItem: anchor)
        pool.append(id)
      case 85..<95:  // expand / collapse
        guard let id = pick(snapshot) else { continue }
        if snapshot.isExpanded(id) { try store.collapse([id]) } else { try store.expand([id]) }
      default:  // undo / redo
        if lastWasUndo, store.redoTarget != nil {
          try store.redo()
          lastWasUndo = false
        } else if store.canUndo {
          try store.undo()
          lastWasUndo = true
        }
        continue
      }
      lastWasUndo = false
    } catch is ListError<Int, Int> {
      continue  // e.g. moving an item under its own descendant
    }
  }
  return store.eventCount
}

func fileSize(_ path: String) -> Int64 {
  var info = stat()
  return stat(path, &info) == 0 ? Int64(info.st_size) : 0
}

/// The concatenated compressed bytes of every chunk: a plain zstd stream `zstd -d` can read.
func extractZstdStream(_ path: String, to output: String) throws -> Int {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  var stream = Data()
  var offset = 64
  data.withUnsafeBytes { raw in
    while offset + 48 <= raw.count {
      let length = Int(raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
      guard offset + 48 + length <= raw.count else { break }
      stream.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(offset + 48)..<(offset + 48 + length)]))
      offset += 48 + length
    }
  }
  try stream.write(to: URL(fileURLWithPath: output))
  return stream.count
}

func shell(_ command: String) -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  try? process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

func runStoreBenchmarks(directory: String, events: Int, items: Int) {
  do {
    let path = directory + "/store.journal"
    unlink(path)
    say("store-bench: \(events) events, ~\(items) items, real history records (ListStore → JournalStore)")

    // 1. Write with grouped durability.
    var start = now()
    let journal = try JournalStore<BenchSection, BenchItem>.open(at: path, durability: .grouped)
    let recorded = try runMixedWorkload(journal.store, events: events, items: items, seed: 42)
    try journal.close()
    let writeSeconds = now() - start
    let commits = journal.store.latestVersion.rawValue
    let size = Double(fileSize(path))
    say("write (grouped): \(recorded) events in \(commits) commits + head moves, \(fmt(writeSeconds, 2)) s, "
      + "\(fmt(Double(commits) / writeSeconds / 1000, 1))k commits/s (target >= 100k; includes workload generation)")
    say("size: \(fmt(size / Double(recorded), 2)) bytes/event (target <= 12), \(fmt(size / 1e6, 1)) MB")

    // 2. Open + full replay.
    start = now()
    let history = try JournalHistory<BenchSection, BenchItem>.open(at: path)
    let replaySeconds = now() - start
    guard history.head == journal.store.head, history.store.eventCount == recorded else { fail("replay differs from the live store") }
    say("open + full replay: \(fmt(replaySeconds, 2)) s, \(fmt(Double(recorded) / replaySeconds / 1e6, 2))M events/s (target >= 1.5M)")
    let zst = directory + "/store.zst"
    let streamBytes = try extractZstdStream(path, to: zst)
    start = now()
    guard shell("zstd -q -d -c '\(zst)' > /dev/null") == 0 else { fail("zstd -d failed") }
    let zstdSeconds = now() - start
    say("zstd -d of the same \(fmt(Double(streamBytes) / 1e6, 1)) MB: \(fmt(zstdSeconds, 3)) s; replay / zstd -d = \(fmt(replaySeconds / zstdSeconds, 1))x")

    // 3. Open the index and time travel.
    start = now()
    let travel = try JournalTimeTravel<BenchSection, BenchItem>.open(at: path)
    let openSeconds = now() - start
    say("open (index only): \(fmt(openSeconds * 1000, 1)) ms (target < 200 ms), \(travel.reader.frames.count) frames")
    var random = BenchRandom(state: 7)
    var worst = 0.0
    var total = 0.0
    let probes = 50
    for probe in 0..<probes {
      let version = Version(random.below(commits + 1))
      start = now()
      let state = try travel.state(at: version)
      let seconds = now() - start
      total += seconds
      worst = max(worst, seconds)
      if probe < 5 {
        guard state == (try history.state(at: version)) else { fail("time travel to \(version) differs from the replay") }
      }
    }
    say("time travel (file, after open): mean \(fmt(total / Double(probes) * 1000, 2)) ms, max \(fmt(worst * 1000, 2)) ms over \(probes) random versions (target < 20 ms)")
    total = 0
    worst = 0
    for _ in 0..<probes {
      let version = Version(random.below(commits + 1))
      start = now()
      _ = try history.state(at: version)
      let seconds = now() - start
      total += seconds
      worst = max(worst, seconds)
    }
    say("time travel (replayed history): mean \(fmt(total / Double(probes) * 1000, 2)) ms, max \(fmt(worst * 1000, 2)) ms")

    // 4. Strict commit latency vs bare write + fdatasync of the same bytes.
    let strictPath = directory + "/strict.journal"
    unlink(strictPath)
    let strict = try JournalStore<BenchSection, BenchItem>.open(at: strictPath, durability: .strict)
    try strict.store.appendSections([BenchSection(id: 0, content: "S")])
    let rounds = 2_000
    var latencies: [Double] = []
    for index in 0..<rounds {
      start = now()
      try strict.store.appendItems([BenchItem(id: index, content: "item \(index)")])
      latencies.append(now() - start)
    }
    try strict.close()
    let strictBytes = Int(fileSize(strictPath)) / (rounds + 1)
    let barePath = directory + "/bare.bin"
    unlink(barePath)
    let fd = open(barePath, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    var bare: [Double] = []
    let buffer = [UInt8](repeating: 0x5A, count: max(1, strictBytes))
    var offset: off_t = 0
    for _ in 0..<rounds {
      start = now()
      _ = buffer.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, offset) }
      fdatasync(fd)
      bare.append(now() - start)
      offset += off_t(buffer.count)
    }
    close(fd)
    latencies.sort()
    bare.sort()
    let median = latencies[rounds / 2]
    let bareMedian = bare[rounds / 2]
    say("strict commit: median \(fmt(median * 1e6, 0)) µs, p99 \(fmt(latencies[rounds * 99 / 100] * 1e6, 0)) µs; bare write+fdatasync of \(strictBytes) B: median \(fmt(bareMedian * 1e6, 0)) µs; ratio \(fmt(median / bareMedian, 2))x (target <= 1.3x)")

    // 5. Grouped commits/s on a fresh journal without workload generation overhead.
    let groupedPath = directory + "/grouped.journal"
    unlink(groupedPath)
    let grouped = try JournalStore<BenchSection, BenchItem>.open(at: groupedPath, durability: .grouped)
    try grouped.store.appendSections([BenchSection(id: 0, content: "S")])
    let groupedCommits = 200_000
    start = now()
    for index in 0..<groupedCommits {
      try grouped.store.appendItems([BenchItem(id: index, content: "item \(index)")])
    }
    try grouped.close()
    let groupedSeconds = now() - start
    say("grouped commits: \(fmt(Double(groupedCommits) / groupedSeconds / 1000, 1))k commits/s (appends, target >= 100k), durable through v\(grouped.durableVersion.rawValue)")
  } catch {
    fail("\(error)")
  }
}

/// One phase of the store benchmark alone, for profilers (callgrind, perf):
///   JournalTool store-profile grouped DIR N       N single-item appends with grouped durability
///   JournalTool store-profile workload DIR N      the mixed workload up to N events (writes DIR/store.journal)
///   JournalTool store-profile replay DIR          open + full replay of DIR/store.journal
///   JournalTool store-profile travel DIR N        N random time travels in DIR/store.journal
func runStoreProfile(_ phase: String, directory: String, count: Int) {
  do {
    let path = directory + "/store.journal"
    switch phase {
    case "grouped":
      let groupedPath = directory + "/grouped.journal"
      unlink(groupedPath)
      let grouped = try JournalStore<BenchSection, BenchItem>.open(at: groupedPath, durability: .grouped)
      try grouped.store.appendSections([BenchSection(id: 0, content: "S")])
      let start = now()
      for index in 0..<count {
        try grouped.store.appendItems([BenchItem(id: index, content: "item \(index)")])
      }
      try grouped.close()
      say("grouped: \(fmt(Double(count) / (now() - start) / 1000, 1))k commits/s")
    case "workload":
      unlink(path)
      let journal = try JournalStore<BenchSection, BenchItem>.open(at: path, durability: .grouped)
      let start = now()
      let recorded = try runMixedWorkload(journal.store, events: count, items: 100_000, seed: 42)
      try journal.close()
      say("workload: \(recorded) events, \(fmt(now() - start, 2)) s, \(fmt(Double(fileSize(path)) / Double(recorded), 2)) B/event")
    case "replay":
      let start = now()
      let history = try JournalHistory<BenchSection, BenchItem>.open(at: path)
      say("replay: \(history.store.eventCount) events, \(fmt(now() - start, 2)) s")
    case "travel":
      let travel = try JournalTimeTravel<BenchSection, BenchItem>.open(at: path)
      var random = BenchRandom(state: 7)
      let start = now()
      for _ in 0..<count { _ = try travel.state(at: Version(random.below(travel.latestVersion.rawValue + 1))) }
      say("travel: mean \(fmt((now() - start) / Double(count) * 1000, 2)) ms")
    case "analyze":
      analyzeJournal(path)
    case "stream":
      dumpRecordStream(path, to: directory + "/records.bin")
    case "recode":
      recodeRecordStream(path, to: directory + "/records-\(count).bin", minor: UInt16(count))
    case "dump":
      dumpRecords(path, from: UInt64(count), count: 40)
    default:
      fail("unknown phase \(phase)")
    }
  } catch {
    fail("\(error)")
  }
}

/// Where a journal's bytes go: per record kind and event code, uncompressed payloads, record
/// framing, chunk headers, and each kind's payloads compressed alone (zstd level 3, one frame).
func analyzeJournal(_ path: String) {
  do {
    let reader = try JournalReader.open(at: path)
    var iterator = reader.makeIterator()
    var kinds: [UInt8: (count: Int, bytes: Int)] = [:]
    var streams: [UInt8: [UInt8]] = [:]
    var commitEvents = 0
    var firstBytes: [UInt8: (count: Int, bytes: Int)] = [:]
    var codec = HistoryCodec<BenchSection, BenchItem>()
    var eventKinds: [String: Int] = [:]
    try iterator.forEachRemaining { kind, sequence, version, payload in
      let bytes = Array(payload)
      kinds[kind.rawValue, default: (0, 0)].count += 1
      kinds[kind.rawValue, default: (0, 0)].bytes += bytes.count
      streams[kind.rawValue, default: []] += bytes
      if let historyKind = HistoryRecord.Kind(rawValue: kind.rawValue),
        let content = try? codec.decode(HistoryRecord(kind: historyKind, sequence: sequence, version: version, payload: bytes)),
        case .commit(let commit) = content
      {
        commitEvents += commit.events.count
        if commit.events.count == 1 {
          let name = "\(commit.events[0])".prefix(while: { $0 != "(" })
          eventKinds[String(name), default: 0] += 1
          let code = bytes.count > 2 ? bytes[2] : 0
          firstBytes[code, default: (0, 0)].count += 1
          firstBytes[code, default: (0, 0)].bytes += bytes.count
        }
      }
    }
    let fileBytes = fileSize(path)
    let chunks = reader.frames.reduce(0) { $0 + $1.chunkCount }
    say("file \(fileBytes) B, \(reader.frames.count) frames, \(chunks) chunks (\(chunks * 48) B of chunk headers), \(reader.recordCount) records")
    for (kind, stat) in kinds.sorted(by: { $0.key < $1.key }) {
      let stream = streams[kind]!
      var compressed = [UInt8](repeating: 0, count: ZSTD_compressBound(stream.count))
      let size = ZSTD_compress(&compressed, compressed.count, stream, stream.count, 3)
      say("kind \(kind): \(stat.count) records, \(stat.bytes) B payload (\(fmt(Double(stat.bytes) / Double(stat.count), 2)) B/record), alone compressed \(size) B (\(fmt(Double(size) / Double(stat.count), 2)) B/record)")
    }
    say("commit events: \(commitEvents)")
    for (name, count) in eventKinds.sorted(by: { $0.value > $1.value }) { say("  \(name): \(count)") }
    for (code, stat) in firstBytes.sorted(by: { $0.key < $1.key }) {
      say("  payload byte 2 = 0x\(String(code, radix: 16)): \(stat.count) records, \(fmt(Double(stat.bytes) / Double(stat.count), 2)) B/record")
    }
  } catch {
    fail("\(error)")
  }
}

func dumpRecords(_ path: String, from: UInt64, count: Int) {
  do {
    let reader = try JournalReader.open(at: path)
    var iterator = reader.makeIterator()
    var codec = HistoryCodec<BenchSection, BenchItem>()
    try iterator.forEachRemaining { kind, sequence, version, payload in
      let bytes = Array(payload)
      let content = HistoryRecord.Kind(rawValue: kind.rawValue).flatMap {
        try? codec.decode(HistoryRecord(kind: $0, sequence: sequence, version: version, payload: bytes))
      }
      guard sequence >= from, sequence < from + UInt64(count) else { return }
      var line = "\(sequence) k\(kind.rawValue) v\(version) [\(bytes.count)] " + bytes.prefix(48).map { String($0, radix: 16) }.joined(separator: " ")
      if case .commit(let commit)? = content { line += "  " + commit.events.map { "\($0)" }.joined(separator: "; ") }
      say(String(line.prefix(300)))
    }
  } catch {
    fail("\(error)")
  }
}

/// Writes the journal's non-checkpoint records, framed as in a chunk (kind, version delta,
/// length, payload), to `output` — input for compression experiments.
func dumpRecordStream(_ path: String, to output: String) {
  do {
    let reader = try JournalReader.open(at: path)
    var iterator = reader.makeIterator()
    var stream: [UInt8] = []
    var lastVersion: UInt64 = 0
    try iterator.forEachRemaining { kind, _, version, payload in
      guard kind != .checkpoint else { return }
      stream.append(kind.rawValue)
      appendVarint(&stream, version - lastVersion)
      lastVersion = version
      appendVarint(&stream, UInt64(payload.count))
      stream += payload
    }
    let fs = POSIXFileSystem()
    unlink(output)
    let file = try fs.open(output, mode: .createNew)
    try file.write(stream, at: 0)
    file.close()
    say("\(stream.count) bytes")
  } catch {
    fail("\(error)")
  }
}

/// Re-encodes a journal's records with a fresh codec writing format minor `minor` and writes the
/// non-checkpoint records framed as in a chunk to `output` (compression experiments).
func recodeRecordStream(_ path: String, to output: String, minor: UInt16) {
  do {
    let reader = try JournalReader.open(at: path)
    var iterator = reader.makeIterator()
    var decoder = HistoryCodec<BenchSection, BenchItem>()
    var encoder = HistoryCodec<BenchSection, BenchItem>()
    encoder.encoderFormatMinor = minor
    var stream: [UInt8] = []
    var checkpointBytes = 0
    var lastVersion: UInt64 = 0
    var failure: Error?
    try iterator.forEachRemaining { kind, sequence, version, payload in
      guard failure == nil, let historyKind = HistoryRecord.Kind(rawValue: kind.rawValue) else { return }
      do {
        let content = try decoder.decode(HistoryRecord(kind: historyKind, sequence: sequence, version: version, payload: Array(payload)))
        let record = try encoder.encode(content, sequence: sequence)
        if kind == .checkpoint {
          checkpointBytes += record.payload.count
          return
        }
        stream.append(kind.rawValue)
        appendVarint(&stream, version - lastVersion)
        lastVersion = version
        appendVarint(&stream, UInt64(record.payload.count))
        stream += record.payload
      } catch { failure = error }
    }
    if let failure { fail("\(failure)") }
    let fs = POSIXFileSystem()
    unlink(output)
    let file = try fs.open(output, mode: .createNew)
    try file.write(stream, at: 0)
    file.close()
    say("\(stream.count) bytes of records, \(checkpointBytes) bytes of checkpoints")
  } catch {
    fail("\(error)")
  }
}
