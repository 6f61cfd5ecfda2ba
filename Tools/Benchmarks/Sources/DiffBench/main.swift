import BenchmarkSupport
import ListJournal

// Diff workloads (fixed seeds): 100,000 Int identifiers.
//   flat:       one section; 10% deleted, 10% inserted, 2% moved, 1% updated
//   sectioned:  100 sections of 1,000; the same edits across sections (moves may cross sections)
//   unchanged:  equal states (distinct arrays, so no buffer-identity shortcut)
// Each is timed over several runs after a warm-up; the median and the best are printed.

typealias Rows = ListVisibleRows<Int, Int>

/// Applies the standard edit mix to sectioned rows; returns the new rows and the updated ids.
func edit(_ rows: [[Int]], seed: UInt64) -> (rows: [[Int]], updated: Set<Int>) {
  var generator = SplitMix(state: seed)
  let total = rows.reduce(0) { $0 + $1.count }
  var rows = rows
  var nextID = total * 10
  // 10% deleted
  for _ in 0..<(total / 10) {
    let section = Int.random(in: rows.indices, using: &generator)
    guard !rows[section].isEmpty else { continue }
    rows[section].remove(at: Int.random(in: rows[section].indices, using: &generator))
  }
  // 10% inserted
  for _ in 0..<(total / 10) {
    let section = Int.random(in: rows.indices, using: &generator)
    rows[section].insert(nextID, at: Int.random(in: 0...rows[section].count, using: &generator))
    nextID += 1
  }
  // 2% moved
  for _ in 0..<(total / 50) {
    let from = Int.random(in: rows.indices, using: &generator)
    guard !rows[from].isEmpty else { continue }
    let id = rows[from].remove(at: Int.random(in: rows[from].indices, using: &generator))
    let to = Int.random(in: rows.indices, using: &generator)
    rows[to].insert(id, at: Int.random(in: 0...rows[to].count, using: &generator))
  }
  // 1% updated
  var updated = Set<Int>()
  let all = rows.flatMap { $0 }
  for _ in 0..<(total / 100) { updated.insert(all.randomElement(using: &generator)!) }
  return (rows, updated)
}

/// Times `body` (one warm-up, then `runs` runs) and prints the median, the best and what the
/// last run returned (a move count or size, a check that the work was done).
func measure(_ name: String, runs: Int = 15, _ body: () -> Int) {
  var result = 0
  let samples = sample(repeats: runs) { result = body() }
  func ms(_ seconds: Double) -> String { fixed(seconds * 1e3, decimals: 3) + " ms" }
  Results.write(
    "\(name + String(repeating: " ", count: max(0, 46 - name.count))) median \(ms(samples.median))  "
      + "best \(ms(samples.min))  [\(result)]")
}

let filter = CommandLine.arguments.dropFirst().first
Results.begin("DiffBench", settings: filter.map { [$0] } ?? [])
func wants(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

// Flat.
let flatOld = [Array(0..<100_000)]
let (flatNew, flatUpdated) = edit(flatOld, seed: 1)
if wants("rows") {
  let old = Rows(sections: [0], rows: flatOld), new = Rows(sections: [0], rows: flatNew)
  measure("rows flat 10/10/2/1%") {
    ListChangeset(from: old, to: new, itemNeedsReload: { flatUpdated.contains($0) }).numberOfItemMoves
  }
  let sectionedOld = (0..<100).map { section in Array((section * 1000)..<(section * 1000 + 1000)) }
  let (sectionedNew, sectionedUpdated) = edit(sectionedOld, seed: 2)
  let oldS = Rows(sections: Array(0..<100), rows: sectionedOld), newS = Rows(sections: Array(0..<100), rows: sectionedNew)
  measure("rows 100 sections 10/10/2/1%") {
    ListChangeset(from: oldS, to: newS, itemNeedsReload: { sectionedUpdated.contains($0) }).numberOfItemMoves
  }
  var movedSections = Array(0..<100)
  movedSections.swapAt(3, 77)
  var movedRows = sectionedNew
  movedRows.swapAt(3, 77)
  let newM = Rows(sections: movedSections, rows: movedRows)
  measure("rows 100 sections + 2 section moves (split)") {
    ListChangeset(from: oldS, to: newM, itemNeedsReload: { sectionedUpdated.contains($0) }).count
  }
  let copy = Rows(sections: [0], rows: [flatOld[0].map { $0 }])
  measure("rows flat unchanged") { ListChangeset(from: old, to: copy).count }
}

// The floor the issue quotes: two identifier → index dictionaries over 100,000 Int identifiers.
if wants("floor") {
  let old = flatOld[0], new = flatNew[0]
  measure("floor: two id→index dictionaries") {
    var a = [Int: Int](minimumCapacity: old.count)
    for (index, id) in old.enumerated() { a[id] = index }
    var b = [Int: Int](minimumCapacity: new.count)
    for (index, id) in new.enumerated() { b[id] = index }
    return a.count &+ b.count
  }
}

// The same workloads through ListSnapshot (the public full diff): includes reading the visible rows.
func snapshot(_ rows: [[Int]], reloaded: Set<Int> = []) -> ListSnapshot<Int, Int> {
  var snapshot = ListSnapshot<Int, Int>()
  try! snapshot.appendSections(Array(rows.indices))
  for (section, items) in rows.enumerated() { try! snapshot.appendItems(items, toSection: section) }
  if !reloaded.isEmpty { try! snapshot.reloadItems(Array(reloaded)) }
  return snapshot
}
if wants("snapshot") {
  let old = snapshot(flatOld), new = snapshot(flatNew, reloaded: flatUpdated)
  measure("snapshot flat 10/10/2/1%") { ListChangeset(from: old, to: new).numberOfItemMoves }
  let sectionedOld = (0..<100).map { section in Array((section * 1000)..<(section * 1000 + 1000)) }
  let (sectionedNew, sectionedUpdated) = edit(sectionedOld, seed: 2)
  let oldS = snapshot(sectionedOld), newS = snapshot(sectionedNew, reloaded: sectionedUpdated)
  measure("snapshot 100 sections 10/10/2/1%") { ListChangeset(from: oldS, to: newS).numberOfItemMoves }
  measure("snapshot flat unchanged (same value)") { ListChangeset(from: old, to: old).count }
  let rebuilt = snapshot(flatOld)
  measure("snapshot flat unchanged (rebuilt equal)") { ListChangeset(from: old, to: rebuilt).count }
  measure("  (of which: reading visible rows once)") { ListVisibleRows(old).numberOfRows }
}

// Applying a whole rebuilt snapshot as minimal operations (what the store records).
if wants("apply") {
  let old = snapshot(flatOld), new = snapshot(flatNew)
  measure("apply whole snapshot flat 10/10/2%", runs: 3) { (try! old.operations(toReach: new)).count }
  measure("apply whole snapshot flat unchanged", runs: 3) { (try! old.operations(toReach: snapshot(flatOld))).count }
}

// Items with content (not their own identifier): every common row is compared by ==.
struct Cell: ListElement {
  var id: Int
  var value: Int
}
if wants("content") {
  func cells(_ rows: [[Int]], updated: Set<Int> = []) -> ListSnapshot<Int, Cell> {
    var snapshot = ListSnapshot<Int, Cell>()
    try! snapshot.appendSections(Array(rows.indices))
    for (section, items) in rows.enumerated() {
      try! snapshot.appendItems(items.map { Cell(id: $0, value: updated.contains($0) ? 1 : 0) }, toSection: section)
    }
    snapshot.clearMarkers()
    return snapshot
  }
  let old = cells(flatOld), new = cells(flatNew, updated: flatUpdated)
  measure("content cells flat 10/10/2/1% (== per row)") { ListChangeset(from: old, to: new).numberOfItemMoves }
}

// Event-derived diff: versions 10 events apart on a 1,000,000-item list (moves, inserts,
// deletes, updates), against the full diff of the same pair.
if wants("events") {
  struct Cell: ListElement {
    var id: Int
    var value: Int
  }
  let store = ListStore<Int, Cell>()
  try! store.transaction { tx in
    try tx.appendSections([0])
    try tx.appendItems((0..<1_000_000).map { Cell(id: $0, value: 0) })
  }
  let start = store.head
  var generator = SplitMix(state: 10)
  var nextID = 2_000_000
  for step in 0..<10 {
    try! store.transaction { tx in
      let id = Int.random(in: 0..<1_000_000, using: &generator)
      guard tx.snapshot.contains(item: id) else { return }
      switch step % 4 {
      case 0: try tx.moveItem(id, to: ListItemLocation(.section(0), index: Int.random(in: 0..<999_000, using: &generator)))
      case 1:
        try tx.insertItems([Cell(id: nextID, value: 0)], beforeItem: id)
        nextID += 1
      case 2: try tx.deleteItems([id])
      default: try tx.updateItem(Cell(id: id, value: 1))
      }
    }
  }
  let old = try! store.state(at: start), new = store.snapshot
  let events = try! store.events(from: start, to: store.head)
  measure("events: 10 events apart, 1M items (\(events.count) events)", runs: 2000) {
    ListChangeset(from: old, to: new, events: events).numberOfItemMoves
  }
  measure("  full diff of the same pair", runs: 3) { ListChangeset(from: old, to: new).numberOfItemMoves }
}
if wants("lookups") {
  var big = ListSnapshot<Int, Cell>()
  try! big.appendSections([0])
  try! big.appendItems((0..<1_000_000).map { Cell(id: $0, value: 0) })
  let probes = (0..<30).map { $0 * 33_331 }
  measure("30 visibleIndexPath lookups on 1M items", runs: 2000) { probes.reduce(0) { $0 &+ (big.visibleIndexPath(ofItem: $1)?.row ?? 0) } }
  measure("30 item(_:) lookups on 1M items", runs: 2000) { probes.reduce(0) { $0 &+ (big.item($1)?.value ?? 0) } }
}
