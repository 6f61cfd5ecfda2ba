// History engine benchmarks: encoded size, decode and fold throughput on the mixed workload,
// undo/redo cost against history length, and time travel in a long history.
//
//   Tools/bench-history                       # defaults: 1M mixed events, 10M-event history
//   EVENTS=200000 HISTORY=1000000 Tools/bench-history
//   SAMPLES=n: how many random versions time travel visits (200)
//   CHECKPOINT_BUDGET_MB=n: the time-travel history's in-memory checkpoint budget in MiB
//     (default: the library's, CheckpointBudget.default; 0: unbounded)
import BenchmarkSupport
import ListJournal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Workload

/// A row with identity apart from content, with the codec's fast path.
struct Row: ListElement, Codable, JournalValueConvertible {
  var id: Int
  var value: Int

  var journalValue: JournalValue { .object([.init("id", .int(Int64(id))), .init("value", .int(Int64(value)))]) }
  init(id: Int, value: Int) {
    self.id = id
    self.value = value
  }
  init(journalValue: JournalValue) throws(JournalValueError) {
    guard case .int(let id)? = journalValue["id"], case .int(let value)? = journalValue["value"] else {
      throw JournalValueError("not a row: \(journalValue)")
    }
    self.id = Int(id)
    self.value = Int(value)
  }
}

typealias Store = ListStore<String, Row>

/// Drives a store with the mixed workload: 30% content updates, 20% moves, 15% appends, 10%
/// deletes, 10% inserts, 10% expand/collapse, 5% undo/redo — one operation per transaction.
struct MixedWorkload {
  var random = SplitMix(state: 42)
  var ids: [Int] = []
  var nextID = 0
  let sections = (0..<10).map { "S\($0)" }
  let targetSize: Int

  init(targetSize: Int) { self.targetSize = targetSize }

  mutating func populate(_ store: Store) throws {
    try store.transaction(label: "Populate") { tx in
      try tx.appendSections(sections)
      for section in sections {
        let rows = (0..<(targetSize / sections.count)).map { _ in newRow() }
        try tx.appendItems(rows, toSection: section)
      }
    }
  }

  mutating func newRow() -> Row {
    defer { nextID += 1 }
    ids.append(nextID)
    return Row(id: nextID, value: 0)
  }

  /// A random live item (drops stale picks: deleted with a parent, or undone).
  mutating func pick(_ snapshot: Store.Snapshot) -> Int {
    while true {
      let index = Int.random(in: 0..<ids.count, using: &random)
      let id = ids[index]
      if snapshot.contains(item: id) { return id }
      ids.swapAt(index, ids.count - 1)
      ids.removeLast()
    }
  }

  /// Performs one step; returns the number of events it recorded (0 when refused).
  mutating func step(_ store: Store) -> Int {
    let roll = Int.random(in: 0..<100, using: &random)
    do {
      if roll >= 95 {
        if Bool.random(using: &random), store.redoTarget != nil { try store.redo() } else if store.canUndo { try store.undo() }
        return 1
      }
      return try store.transaction { tx -> Int in
        // Read `tx.snapshot` inline, never into a local: a live copy would share the working
        // snapshot's storage and turn every operation below into a path copy.
        switch roll {
        case 0..<30:
          let id = pick(tx.snapshot)
          try tx.updateItem(Row(id: id, value: Int.random(in: 0..<1000, using: &random)))
        case 30..<50:
          let id = pick(tx.snapshot)
          let anchor = pick(tx.snapshot)
          if id != anchor { try tx.moveItem(id, beforeItem: anchor) }
        case 50..<65:
          if Int.random(in: 0..<3, using: &random) == 0 {
            let row = newRow()  // before the pick, as the workload always drew them
            let parent = pick(tx.snapshot)
            try tx.appendItems([row], underParent: parent)
          } else {
            try tx.appendItems([newRow()], toSection: sections[Int.random(in: 0..<sections.count, using: &random)])
          }
        case 65..<75:
          let id = pick(tx.snapshot)
          try tx.deleteItems([id])
        case 75..<85:
          let row = newRow()
          let anchor = pick(tx.snapshot)
          try tx.insertItems([row], afterItem: anchor)
        default:
          let id = pick(tx.snapshot)
          if tx.snapshot.isExpanded(id) { try tx.collapse([id]) } else { try tx.expand([id]) }
        }
        return tx.events.count
      }
    } catch {
      return 0
    }
  }
}

final class MemorySink: HistoryRecordSink, @unchecked Sendable {
  var records: [HistoryRecord] = []
  func write(_ record: HistoryRecord) throws { records.append(record) }
}

// MARK: - Helpers

func report(_ name: String, _ value: String, target: String = "") {
  let padded = name + String(repeating: " ", count: max(1, 58 - name.count))
  Results.write("\(padded) \(value)\(target.isEmpty ? "" : "   (target \(target))")")
}

// MARK: - 1. Mixed workload: size, decode, fold

let eventTarget = environment("EVENTS", 1_000_000)
let historyTarget = environment("HISTORY", 10_000_000)
let listSize = environment("LIST_SIZE", 100_000)
let travelInterval = environment("CHECKPOINT_INTERVAL", 16_384)
let travelBudgetMegabytes = environment("CHECKPOINT_BUDGET_MB", -1)
let travelBudget: CheckpointBudget =
  travelBudgetMegabytes < 0 ? .default : travelBudgetMegabytes == 0 ? .unbounded : .bytes(travelBudgetMegabytes << 20)
Results.begin(
  "HistoryBench",
  settings: environmentSettings([
    "EVENTS", "HISTORY", "LIST_SIZE", "CHECKPOINT_INTERVAL", "CHECKPOINT_BUDGET_MB", "SAMPLES", "PROFILE",
    "FOLD_REPEAT", "BUILD_REPEAT",
  ]))
Results.write("HistoryBench: \(eventTarget) mixed events on a \(listSize)-item list; time travel in a \(historyTarget)-event history")

let sink = MemorySink()
let store = Store(codec: HistoryCodec(), sink: sink, checkpointInterval: 65_536, journalCheckpointBytes: Int.max)
var workload = MixedWorkload(targetSize: listSize)
try workload.populate(store)
let setupRecords = sink.records.count
var produced = 0
let (_, liveSeconds) = measure {
  while produced < eventTarget { produced += workload.step(store) }
}
let workloadRecords = Array(sink.records[setupRecords...])
let workloadBytes = workloadRecords.reduce(0) { $0 + $1.payload.count }
report("live: commits/undo/redo through the store", "\(format(Double(produced) / liveSeconds / 1e6, digits: 2)) M events/s")
report("encoded size, mixed workload (payload bytes/event)", format(Double(workloadBytes) / Double(produced), digits: 2), target: "<= 16")

// A checkpoint of the whole list, for scale.
var checkpointCodec = HistoryCodec<String, Row>()
let checkpoint = try checkpointCodec.encode(
  .checkpoint(HistoryCheckpoint(head: store.head, latestVersion: store.latestVersion, snapshot: store.snapshot)), sequence: 0)
report("checkpoint record of the \(store.snapshot.numberOfItems)-item list", "\(checkpoint.payload.count / 1024) KiB")

// Decode every record with a fresh codec.
var decoder = HistoryCodec<String, Row>()
let (decoded, decodeSeconds) = try measure { try sink.records.map { try decoder.decode($0) } }
report("decode (typed, fast path)", "\(format(Double(produced) / decodeSeconds / 1e6, digits: 2)) M events/s")

var genericDecoder = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
let (_, genericSeconds) = try measure { try workloadRecords.count > 0 ? sink.records.map { try genericDecoder.decode($0) }.count : 0 }
report("decode (generic JournalValue, no app types)", "\(format(Double(produced) / genericSeconds / 1e6, digits: 2)) M events/s")

// Fold the decoded events: commits apply, undo reverts the head's events, redo re-applies the
// child's — what replay does, without the store's bookkeeping. The setup records (populating
// the list) are folded first, untimed; the rate counts the mixed workload's events alone.
/// What a fold applies events to: the persistent model (`ListSnapshot`) or the flat fold state
/// (`ListFold`). Folding trusts the events (they were verified when recorded).
protocol FoldTarget {
  init()
  /// What the fold's result costs once the events are in (a `ListFold` builds its snapshot).
  func finish()
  mutating func clearMarkers()
  // Consuming, as the library's `apply`s: the caller's copy of an event out of its array is
  // handed on as is. A borrowed parameter made the witness copy the event a second time (and
  // destroy the first), work a replay, which passes its copy straight in, does not do.
  mutating func apply(_ event: consuming ListEvent<String, Row>) throws
  mutating func revert(_ event: consuming ListEvent<String, Row>) throws
}
extension ListSnapshot: FoldTarget where Section == String, Item == Row {
  func finish() {}
  mutating func apply(_ event: consuming ListEvent<String, Row>) throws { try event.apply(to: &self, verifying: false) }
  mutating func revert(_ event: consuming ListEvent<String, Row>) throws { try event.revert(from: &self, verifying: false) }
}
extension ListFold: FoldTarget where Section == String, Item == Row {
  func finish() { _ = snapshot() }
  // Markers are not part of a fold's state.
  mutating func clearMarkers() {}
  mutating func apply(_ event: consuming ListEvent<String, Row>) throws { try apply(event, verifying: false) }
  mutating func revert(_ event: consuming ListEvent<String, Row>) throws { try revert(event, verifying: false) }
}

struct Folder<Target: FoldTarget> {
  var snapshot = Target()
  var versionEvents: [[ListEvent<String, Row>]] = [[]]
  var parents = [0]
  var head = 0

  /// Folds `records`; returns the number of events (an undo or redo counts as one).
  mutating func fold(_ records: ArraySlice<HistoryRecordContent<String, Row>>) throws -> Int {
    var count = 0
    // Records and events are visited in place (by index): iterating with `for x in array`
    // copies each element, and copying a generic enum goes through its value witness.
    for index in records.indices {
      switch records[index] {
      case .commit(let commit):
        // Markers describe one transaction, as in a replay.
        snapshot.clearMarkers()
        for i in commit.events.indices { try snapshot.apply(commit.events[i]) }
        versionEvents.append(commit.events)
        parents.append(head)
        head = versionEvents.count - 1
        count += commit.events.count
      case .headMove(let move):
        let target = move.to.rawValue
        snapshot.clearMarkers()
        if parents[head] == target {
          let events = versionEvents[head]
          for i in events.indices.reversed() { try snapshot.revert(events[i]) }
        } else {
          let events = versionEvents[target]
          for i in events.indices { try snapshot.apply(events[i]) }
        }
        head = target
        count += 1
      case .checkpoint, .gap:
        break
      }
    }
    return count
  }
}
// A separate function so that a profiler can select it (`valgrind --toggle-collect`).
@inline(never)
func foldWorkload<Target: FoldTarget>(_ folder: inout Folder<Target>, _ records: ArraySlice<HistoryRecordContent<String, Row>>) throws -> Int {
  try folder.fold(records)
}
var folder = Folder<Store.Snapshot>()
_ = try folder.fold(decoded[..<setupRecords])
let foldStartCPU = threadCPUSeconds()
let (foldedCount, foldSeconds) = try measure { try foldWorkload(&folder, decoded[setupRecords...]) }
let foldCPUSeconds = threadCPUSeconds() - foldStartCPU
let folded = folder.snapshot
folder = Folder()
let foldRate = Double(foldedCount) / foldSeconds
report("fold decoded events (mixed workload)", "\(format(foldRate / 1e6, digits: 2)) M events/s", target: ">= 2 M/s")
report("  same, per second of thread CPU time", "\(format(Double(foldedCount) / foldCPUSeconds / 1e6, digits: 2)) M events/s")
report("fold result equals the live head state", "\(folded == store.snapshot)")
/// `PROFILE=fold` (into a snapshot) or `PROFILE=flat` (into a `ListFold`, building its
/// snapshot): fold the workload FOLD_REPEAT more times, report the best, and stop — so that a
/// sampling profiler sees mostly that fold.
func profileFold<Target: FoldTarget>(into _: Target.Type, events: Int) throws -> Never {
  var best = Double.infinity
  for _ in 0..<environment("FOLD_REPEAT", 0) {
    var again = Folder<Target>()
    _ = try again.fold(decoded[..<setupRecords])
    let start = threadCPUSeconds()
    _ = try foldWorkload(&again, decoded[setupRecords...])
    again.snapshot.finish()
    best = min(best, threadCPUSeconds() - start)
  }
  if best < .infinity { report("  best of the repeats, per CPU second", "\(format(Double(events) / best / 1e6, digits: 2)) M events/s") }
  exit(0)
}
let profile = getenv("PROFILE").map { String(cString: $0) }
if profile == "fold" { try profileFold(into: Store.Snapshot.self, events: foldedCount) }
// The same events folded into a `ListFold` (a flat, non-persistent state), then one bulk build
// of the final snapshot — what a full replay needs; timed together.
var flatFolder = Folder<ListFold<String, Row>>()
_ = try flatFolder.fold(decoded[..<setupRecords])
let flatStartCPU = threadCPUSeconds()
var flatBuildSeconds = 0.0
let ((flatCount, flatSnapshot), flatSeconds) = try measure {
  let count = try foldWorkload(&flatFolder, decoded[setupRecords...])
  let (snapshot, buildSeconds) = measure { flatFolder.snapshot.snapshot() }
  flatBuildSeconds = buildSeconds
  return (count, snapshot)
}
let flatCPUSeconds = threadCPUSeconds() - flatStartCPU
flatFolder = Folder()
report("fold into ListFold + build the final snapshot", "\(format(Double(flatCount) / flatSeconds / 1e6, digits: 2)) M events/s", target: ">= 2 M/s")
report("  same, per second of thread CPU time", "\(format(Double(flatCount) / flatCPUSeconds / 1e6, digits: 2)) M events/s")
report("  of which building the final snapshot (\(flatSnapshot.numberOfItems) items)", "\(format(flatBuildSeconds * 1000, digits: 1)) ms")
report("ListFold result equals the live head state", "\(flatSnapshot == store.snapshot)")
if profile == "flat" { try profileFold(into: ListFold<String, Row>.self, events: flatCount) }
/// `PROFILE=build`: build the folded state's snapshot BUILD_REPEAT times, report the best, and
/// stop (for a profiler, and to time `ListFold.snapshot()` alone).
if profile == "build" {
  var again = Folder<ListFold<String, Row>>()
  _ = try again.fold(decoded[..<setupRecords])
  _ = try foldWorkload(&again, decoded[setupRecords...])
  var best = Double.infinity
  for _ in 0..<environment("BUILD_REPEAT", 10) {
    let start = threadCPUSeconds()
    let built = again.snapshot.snapshot()
    best = min(best, threadCPUSeconds() - start)
    precondition(built.numberOfItems == again.snapshot.numberOfItems)
  }
  report("  build the snapshot (\(again.snapshot.numberOfItems) items), best", "\(format(best * 1000, digits: 1)) ms")
  exit(0)
}

let (replayed, replaySeconds) = try measure { try Store(replaying: sink.records, codec: HistoryCodec(), checkpointInterval: 65_536) }
report("replay records into a store (decode+verify+fold+tree)", "\(format(Double(produced) / replaySeconds / 1e6, digits: 2)) M events/s")
report("replayed store equals the live one", "\(replayed.head == store.head && replayed.snapshot == store.snapshot)")
// Checkpoints 2^20 events apart (the CLI's read-only sessions): the replay folds into a
// `ListFold` and builds the head's snapshot at the end.
let (sparse, sparseSeconds) = try measure { try Store(replaying: sink.records, codec: HistoryCodec(), checkpointInterval: 1 << 20) }
report("  same with checkpoints 2^20 events apart (flat fold)", "\(format(Double(produced) / sparseSeconds / 1e6, digits: 2)) M events/s")
report("  replayed store equals the live one", "\(sparse.head == store.head && sparse.snapshot == store.snapshot)")

// MARK: - 2. Undo/redo against history length

func undoRedoMicroseconds(_ store: Store, rounds: Int) throws -> Double {
  let (_, time) = try measure {
    for _ in 0..<rounds {
      try store.undo()
      try store.redo()
    }
  }
  return time / Double(rounds * 2) * 1e6
}
let small = Store()
var smallWorkload = MixedWorkload(targetSize: listSize)
try smallWorkload.populate(small)
for _ in 0..<1_000 { _ = smallWorkload.step(small) }
try small.updateItem(Row(id: 1, value: 7))
try store.updateItem(Row(id: workload.pick(store.snapshot), value: 7))
report("undo+redo of a 1-event transaction, 1K-event history", "\(format(try undoRedoMicroseconds(small, rounds: 20_000), digits: 2)) µs")
report("undo+redo of a 1-event transaction, \(produced / 1000)K-event history", "\(format(try undoRedoMicroseconds(store, rounds: 20_000), digits: 2)) µs")

// MARK: - 3. Time travel in a long history

let long = Store(checkpointInterval: travelInterval, checkpointBudget: travelBudget)
var longWorkload = MixedWorkload(targetSize: listSize)
try longWorkload.populate(long)
var longEvents = 0
var slowestStep = 0.0
var slowestThinning = 0.0  // a commit that thins the checkpoints pays an O(versions + events) pass
var thinnings = 0
let (_, buildSeconds) = measure {
  var interval = long.checkpointInterval
  while longEvents < historyTarget {
    let (events, time) = measure { longWorkload.step(long) }
    longEvents += events
    if long.checkpointInterval != interval {
      interval = long.checkpointInterval
      thinnings += 1
      slowestThinning = max(slowestThinning, time)
    } else {
      slowestStep = max(slowestStep, time)
    }
  }
}
report(
  "build \(historyTarget / 1_000)K-event history (checkpoint every \(travelInterval)+, budget \(travelBudget))",
  "\(format(buildSeconds, digits: 1)) s, RSS \(Int(residentMegabytes())) MiB")
report("  checkpoint interval at the end (doubled by the budget)", "\(long.checkpointInterval)")
report("  slowest step while building: thinning (\(thinnings) of them) / other", "\(format(slowestThinning * 1000, digits: 2)) / \(format(slowestStep * 1000, digits: 2)) ms")
var travelRandom = SplitMix(state: 7)
var travels = Samples()
let samples = environment("SAMPLES", 200)
for _ in 0..<samples {
  let version = Version(Int.random(in: 0...long.latestVersion.rawValue, using: &travelRandom))
  travels.append(try measure { try long.state(at: version) }.seconds)
}
report("state(at: random version), mean of \(samples)", "\(format(travels.total / Double(samples) * 1000, digits: 2)) ms", target: "< 20 ms")
report("state(at: random version), worst of \(samples)", "\(format(travels.max * 1000, digits: 2)) ms")

// MARK: - 4. Model primitives alone (what the fold is made of)

func primitiveRates(size: Int) throws {
  var snapshot = Store.Snapshot()
  try snapshot.appendSections(["A"])
  try snapshot.appendItems((0..<size).map { Row(id: $0, value: 0) })
  var random = SplitMix(state: 3)
  let rounds = 20_000
  let (_, update) = try measure {
    for round in 0..<rounds { try snapshot.updateItem(Row(id: Int.random(in: 0..<size, using: &random), value: round)) }
  }
  snapshot.clearMarkers()
  let (_, move) = try measure {
    for _ in 0..<rounds {
      let id = Int.random(in: 0..<size, using: &random)
      try snapshot.moveItem(id, to: ListItemLocation(.section("A"), index: Int.random(in: 0..<size, using: &random)))
    }
  }
  let (_, locate) = measure {
    var sum = 0
    for _ in 0..<rounds { sum &+= snapshot.location(ofItem: Int.random(in: 0..<size, using: &random))?.index ?? 0 }
    return sum
  }
  let (_, expand) = try measure {
    for _ in 0..<rounds { try snapshot.expand([Int.random(in: 0..<size, using: &random)]) }
  }
  report("model primitives on \(size) items: updateItem / moveItem(to:) / location / expand",
    "\(format(update / Double(rounds) * 1e6, digits: 2)) / \(format(move / Double(rounds) * 1e6, digits: 2)) / \(format(locate / Double(rounds) * 1e6, digits: 2)) / \(format(expand / Double(rounds) * 1e6, digits: 2)) µs")
}
try primitiveRates(size: 1_000)
try primitiveRates(size: listSize)
