// ListStateBench: the snapshot's operations at 1K–1M items, in a release build, printed as a table.
//
//   Tools/bench                 all benchmarks (sizes 1K, 10K, 100K, 1M)
//   Tools/bench --max 100000    stop the per-operation table at 100K items
//
// Timings are the minimum over a few rounds (the machine is shared; the minimum is the least
// disturbed run). Per-operation benchmarks run on a flat list of `Int` items in one section,
// with operation arguments drawn from a fixed-seed generator.
import BenchmarkSupport
import HashTreeCollections
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

typealias Snapshot = ListSnapshot<Int, Int>

struct Generator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    var z = state
    z = (z ^ (z >> 33)) &* 0xff51afd7ed558ccd
    return z ^ (z >> 33)
  }
  mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

// MARK: - Arguments

var maxSize = 1_000_000
var only: String? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--max": maxSize = Int(arguments.popFirst() ?? "") ?? maxSize
  case "--only": only = arguments.popFirst()
  default:
    print("usage: ListStateBench [--max N] [--only memory|ops|edits|bulk|profile-index]")
    exit(2)
  }
}

// MARK: - Memory (first, so that nothing else has touched the heap)

Results.begin("ListStateBench", settings: Array(CommandLine.arguments.dropFirst()))
Results.write("ListStateBench — \(buildConfiguration) build; times are the minimum of several rounds\n")
let onlyBenchmark = only
@MainActor func enabled(_ name: String) -> Bool { onlyBenchmark == nil || onlyBenchmark == name }
let baselineMB = residentMegabytes()
var memorySnapshot: Snapshot? = enabled("memory") ? try Snapshot(section: 0, items: Array(0..<1_000_000)) : nil
let withListMB = residentMegabytes()
memorySnapshot = nil

// MARK: - Profiling loop (not part of the table): `--only profile-index` runs index-of on 1M items.

if onlyBenchmark == "profile-index" {
  var state = try SizeState(size: 1_000_000)
  let probes = (0..<1_000_000).map { _ in state.live[state.generator.int(state.live.count)] }
  var checksum = 0
  let elapsed = time { for probe in probes { checksum &+= state.snapshot.index(ofItem: probe)! } }
  let sectionElapsed = time { for probe in probes.reversed() { checksum &+= state.snapshot.sectionIdentifier(containingItem: probe)! } }
  Results.write("index-of \(elapsed * 1e3) ns/op, section-of \(sectionElapsed * 1e3) ns/op (\(checksum))")
}

// MARK: - Per-operation cost at growing sizes

let operations = [
  "insert", "delete", "move", "index-of", "section-of", "ref: Dictionary lookup", "ref: TreeDictionary get",
  "ref: TreeDictionary set",
]
var perOperation: [Int: [String: Double]] = [:]
let sizes = enabled("ops") ? [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= maxSize } : []

/// One list under test, with the state the per-operation rounds carry from one to the next.
struct SizeState {
  let size: Int
  var generator: Generator
  var snapshot: Snapshot
  var live: [Int]
  var nextID: Int
  /// Reference: a plain Dictionary at the same size (how much of the growth is the memory
  /// hierarchy rather than the data structure).
  var reference: [Int: Int]
  /// Reference: swift-collections' persistent hash map (a structurally shared trie, the kind of
  /// building block a value whose copies are O(1) needs) at the same size.
  var persistentReference: TreeDictionary<Int, Int>
  /// Per-operation nanoseconds of each round, by operation.
  var samples: [String: Samples] = [:]

  init(size: Int) throws {
    self.size = size
    generator = Generator(state: UInt64(size))
    // Ten sections so that section-of and index-of cross section boundaries.
    let sectionCount = 10
    var sections: [(Int, ListOutline<Int>)] = []
    for section in 0..<sectionCount {
      let range = (size * section / sectionCount)..<(size * (section + 1) / sectionCount)
      sections.append((section, ListOutline(items: Array(range))))
    }
    snapshot = try Snapshot(sections)
    live = Array(0..<size)
    nextID = size
    reference = [Int: Int](uniqueKeysWithValues: (0..<size).map { ($0, $0) })
    persistentReference = TreeDictionary(uniqueKeysWithValues: (0..<size).map { ($0, $0) })
  }

  /// One batch of each operation; adds each operation's per-operation time to its samples.
  mutating func round(batch: Int) throws {
    let anchors = (0..<batch).map { _ in live[generator.int(live.count)] }
    var nextID = self.nextID
    var snapshot = self.snapshot
    self.snapshot = Snapshot()  // keep the storage uniquely referenced while timing
    let insertTime = try time {
      for anchor in anchors {
        try snapshot.insertItems([nextID], beforeItem: anchor)
        nextID += 1
      }
    }
    live.append(contentsOf: self.nextID..<nextID)
    for id in self.nextID..<nextID {
      reference[id] = id
      persistentReference[id] = id
    }
    self.nextID = nextID
    var victims: [Int] = []
    for _ in 0..<batch {
      let position = generator.int(live.count)
      victims.append(live[position])
      live.swapAt(position, live.count - 1)
      live.removeLast()
    }
    let deleteTime = try time {
      for victim in victims { try snapshot.deleteItems([victim]) }
    }
    var pairs: [(Int, Int)] = []
    while pairs.count < batch {
      let a = live[generator.int(live.count)]
      let b = live[generator.int(live.count)]
      if a != b { pairs.append((a, b)) }
    }
    let moveTime = try time {
      for (item, anchor) in pairs { try snapshot.moveItem(item, beforeItem: anchor) }
    }
    let probes = (0..<batch).map { _ in live[generator.int(live.count)] }
    var checksum = 0
    let indexTime = time {
      for probe in probes { checksum &+= snapshot.index(ofItem: probe)! }
    }
    // Fresh probes for each query, so that one does not find the caches warmed by the other.
    let sectionProbes = (0..<batch).map { _ in live[generator.int(live.count)] }
    let sectionTime = time {
      for probe in sectionProbes { checksum &+= snapshot.sectionIdentifier(containingItem: probe)! }
    }
    let referenceProbes = (0..<batch).map { _ in live[generator.int(live.count)] }
    let referenceTime = time {
      for probe in referenceProbes { checksum &+= reference[probe]! }
    }
    let persistentProbes = (0..<batch).map { _ in live[generator.int(live.count)] }
    let persistentTime = time {
      for probe in persistentProbes { checksum &+= persistentReference[probe]! }
    }
    // Overwrites of existing keys in a map that shares its nodes with a kept copy: each pays
    // the path copy a persistent update costs, as an edit of a snapshot that history keeps does.
    let kept = persistentReference
    let persistentSetProbes = (0..<batch).map { _ in live[generator.int(live.count)] }
    let persistentSetTime = time {
      for probe in persistentSetProbes { persistentReference[probe] = probe &+ 1 }
    }
    precondition(checksum != -1 && snapshot.numberOfItems == size && kept.count == persistentReference.count)
    self.snapshot = snapshot
    let results = [
      "insert": insertTime, "delete": deleteTime, "move": moveTime, "index-of": indexTime,
      "section-of": sectionTime, "ref: Dictionary lookup": referenceTime,
      "ref: TreeDictionary get": persistentTime, "ref: TreeDictionary set": persistentSetTime,
    ]
    for (name, total) in results {
      samples[name, default: Samples()].append(total / Double(batch) * 1e9)
    }
  }
}

// Sizes are measured interleaved (every round runs every size) so that a busy machine
// disturbs all sizes alike; each figure is the minimum over the rounds.
var states = try sizes.map { try SizeState(size: $0) }
for _ in 0..<7 {
  for i in states.indices { try states[i].round(batch: 4_000) }
}
for state in states { perOperation[state.size] = state.samples.mapValues(\.min) }

if !sizes.isEmpty {
Results.write("Per-operation time (ns), flat Int items in 10 sections, random positions:")
var header = pad("operation", 23)
for size in sizes { header += pad(size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1_000)K", 9) }
header += pad("ratio", 8) + "  target ≤3×"
Results.write(header)
for operation in operations {
  var line = pad(operation, 23)
  for size in sizes { line += pad(format(perOperation[size]![operation]!, digits: 0), 9) }
  if let small = perOperation[sizes.first!]?[operation], let large = perOperation[sizes.last!]?[operation] {
    let ratio = large / small
    line += pad(format(ratio, digits: 2) + "×", 8)
    if !operation.hasPrefix("ref") { line += ratio <= 3 ? "  met" : "  NOT met" }
  }
  Results.write(line)
}
}

// MARK: - Snapshot after each edit

if enabled("edits") {
  let size = min(maxSize, 1_000_000)
  var snapshot = try Snapshot(section: 0, items: Array(0..<size))
  var generator = Generator(state: 99)
  let edits = 1_000
  var editsAloneSamples = Samples()
  var editsWithSnapshotsSamples = Samples()
  for _ in 0..<5 {
    let pairs = (0..<edits).map { _ in (generator.int(size), generator.int(size)) }.filter { $0.0 != $0.1 }
    editsAloneSamples.append(try time {
      for (item, anchor) in pairs { try snapshot.moveItem(item, beforeItem: anchor) }
    })
    let more = (0..<edits).map { _ in (generator.int(size), generator.int(size)) }.filter { $0.0 != $0.1 }
    var history: [Snapshot] = []
    history.reserveCapacity(edits)
    editsWithSnapshotsSamples.append(try time {
      for (item, anchor) in more {
        try snapshot.moveItem(item, beforeItem: anchor)
        history.append(snapshot)
      }
    })
    precondition(history.count == more.count)
    history = []
  }
  let editsAlone = editsAloneSamples.min
  let editsWithSnapshots = editsWithSnapshotsSamples.min
  let ratio = editsWithSnapshots / editsAlone
  Results.write("")
  Results.write("Snapshot after each of \(edits) moves on a \(size)-item list:")
  Results.write("  edits alone \(format(editsAlone * 1e3, digits: 2)) ms, with a snapshot kept after each "
    + "\(format(editsWithSnapshots * 1e3, digits: 2)) ms: ratio \(format(ratio, digits: 2))× (target ≤3×: "
    + (ratio <= 3 ? "met" : "NOT met") + ")")
}

// MARK: - Bulk build

if enabled("bulk") {
  let ids = Array(0..<100_000)
  var buildSamples = Samples()
  var dictionarySamples = Samples()
  var reservedSamples = Samples()
  for _ in 0..<7 {
    buildSamples.append(try time {
      var snapshot = Snapshot()
      try snapshot.appendSections([0])
      try snapshot.appendItems(ids)
      precondition(snapshot.numberOfItems == ids.count)
    })
    dictionarySamples.append(time {
      var dictionary: [Int: Int] = [:]
      for id in ids { dictionary[id] = id }
      precondition(dictionary.count == ids.count)
    })
    reservedSamples.append(time {
      let dictionary = [Int: Int](uniqueKeysWithValues: ids.lazy.map { ($0, $0) })
      precondition(dictionary.count == ids.count)
    })
  }
  let buildTime = buildSamples.min
  let dictionaryTime = dictionarySamples.min
  let reservedTime = reservedSamples.min
  let ratio = buildTime / dictionaryTime
  Results.write("")
  Results.write("Bulk build of 100,000 items (appendSections + appendItems):")
  Results.write("  snapshot \(format(buildTime * 1e3, digits: 2)) ms; [Int: Int] by insertion "
    + "\(format(dictionaryTime * 1e3, digits: 2)) ms: ratio \(format(ratio, digits: 2))× (target ≤2×: "
    + (ratio <= 2 ? "met" : "NOT met") + ")")
  Results.write("  (for reference, [Int: Int](uniqueKeysWithValues:) with reserved capacity: "
    + "\(format(reservedTime * 1e3, digits: 2)) ms, ratio \(format(buildTime / reservedTime, digits: 2))×)")
}

// MARK: - Memory report

if enabled("memory") {
Results.write("")
Results.write("Memory of a 1,000,000-item flat Int list: process resident \(format(withListMB, digits: 1)) MB "
  + "(\(format(withListMB - baselineMB, digits: 1)) MB above the \(format(baselineMB, digits: 1)) MB baseline); "
  + "target <150 MB: " + (withListMB < 150 ? "met" : "NOT met"))
}
