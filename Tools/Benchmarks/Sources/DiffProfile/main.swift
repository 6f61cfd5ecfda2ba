import BenchmarkSupport
import ListJournal

// A profiling driver (not a benchmark): builds a workload like DiffBench's in linear time and runs
// one diff repeatedly, for `perf record` / `valgrind --tool=callgrind`.
// Usage: DiffProfile flat|sections|nopredicate|unchanged|snapshot|content|apply [iterations]
// Per-diff instruction counts: (callgrind total at N iterations - at 1) / (N - 1).

/// 10% deleted, 10% inserted, 2% moved (anywhere, across sections), 1% updated; O(n).
func edit(_ rows: [[Int]], seed: UInt64) -> (rows: [[Int]], updated: Set<Int>) {
  var generator = SplitMix(state: seed)
  let all = rows.flatMap { $0 }
  let total = all.count
  var moved: [Int] = []
  var kept: [[Int]] = rows.map { section in
    section.filter { _ in
      let roll = Int.random(in: 0..<100, using: &generator)
      if roll < 10 { return false }
      return true
    }
  }
  for section in kept.indices {
    kept[section] = kept[section].filter { id in
      if Int.random(in: 0..<100, using: &generator) < 2 { moved.append(id); return false }
      return true
    }
  }
  var nextID = total * 10
  var result: [[Int]] = []
  for section in kept {
    var out: [Int] = []
    for id in section {
      while Int.random(in: 0..<100, using: &generator) < 11 {
        if !moved.isEmpty, Int.random(in: 0..<6, using: &generator) == 0 { out.append(moved.removeLast()) }
        else { out.append(nextID); nextID += 1 }
      }
      out.append(id)
    }
    result.append(out)
  }
  result[result.count - 1].append(contentsOf: moved)
  var updated = Set<Int>()
  let now = result.flatMap { $0 }
  for _ in 0..<(total / 100) { updated.insert(now.randomElement(using: &generator)!) }
  return (result, updated)
}

let arguments = CommandLine.arguments
let workload = arguments.count > 1 ? arguments[1] : "flat"
let iterations = arguments.count > 2 ? Int(arguments[2])! : 50
typealias Rows = ListVisibleRows<Int, Int>
var sink = 0
switch workload {
case "flat", "sections":
  let old = workload == "flat" ? [Array(0..<100_000)] : (0..<100).map { Array(($0 * 1000)..<($0 * 1000 + 1000)) }
  let (new, updated) = edit(old, seed: 1)
  let a = Rows(sections: Array(old.indices), rows: old), b = Rows(sections: Array(new.indices), rows: new)
  for _ in 0..<iterations {
    sink &+= ListChangeset(from: a, to: b, itemNeedsReload: { updated.contains($0) }).numberOfItemMoves
  }
case "unchanged":
  let old = [Array(0..<100_000)]
  let a = Rows(sections: [0], rows: old), b = Rows(sections: [0], rows: [old[0].map { $0 }])
  for _ in 0..<iterations { sink &+= ListChangeset(from: a, to: b).count + 1 }
case "nopredicate":
  let old = [Array(0..<100_000)]
  let (new, _) = edit(old, seed: 1)
  let a = Rows(sections: [0], rows: old), b = Rows(sections: [0], rows: new)
  for _ in 0..<iterations { sink &+= ListChangeset(from: a, to: b).numberOfItemMoves }
case "snapshot", "content", "apply":
  struct Cell: ListElement {
    var id: Int
    var value: Int
  }
  let old = [Array(0..<100_000)]
  let (new, updated) = edit(old, seed: 1)
  func cells(_ rows: [[Int]], updated: Set<Int> = []) -> ListSnapshot<Int, Cell> {
    var snapshot = ListSnapshot<Int, Cell>()
    try! snapshot.appendSections(Array(rows.indices))
    for (section, items) in rows.enumerated() {
      try! snapshot.appendItems(items.map { Cell(id: $0, value: updated.contains($0) ? 1 : 0) }, toSection: section)
    }
    snapshot.clearMarkers()
    return snapshot
  }
  if workload == "snapshot" {
    var a = ListSnapshot<Int, Int>(), b = ListSnapshot<Int, Int>()
    try! a.appendSections([0]); try! a.appendItems(old[0])
    try! b.appendSections([0]); try! b.appendItems(new[0]); try! b.reloadItems(Array(updated))
    for _ in 0..<iterations { sink &+= ListChangeset(from: a, to: b).numberOfItemMoves }
  } else {
    let a = cells(old), b = cells(new, updated: updated)
    for _ in 0..<iterations {
      if workload == "content" { sink &+= ListChangeset(from: a, to: b).numberOfItemMoves }
      else { sink &+= try! a.operations(toReach: b).count }
    }
  }
default:
  fatalError("unknown workload \(workload)")
}
print(sink / iterations)
