// AppBench: the rows an app cares about, measured as an app meets them — its own `Codable`
// element types, the public API alone (`import ListJournal`), in whatever configuration this
// runner was built. `Tools/bench-app` builds it in debug and in release and prints both.
//
//   AppBench            a table for this build
//   AppBench --tsv      the same rows as tab-separated values (what Tools/bench-app reads)
//   COMMITS=n           single-operation commits timed in the store and journal rows (20,000)
import BenchmarkSupport
import Foundation
import ListJournal

// MARK: - The app's model

/// A to-do item, declared as an app declares one: identity apart from content.
struct TodoItem: ListElement, Codable, Hashable, Sendable {
  var id: UUID
  var title: String
  var done: Bool
}

/// A to-do list: a section of the snapshot.
struct TodoList: ListElement, Codable, Hashable, Sendable {
  var id: UUID
  var name: String
}

typealias Snapshot = ListSnapshot<TodoList, TodoItem>
typealias Store = ListStore<TodoList, TodoItem>

/// Makes the app's values from a fixed seed, so that every run builds the same lists.
struct Model {
  var random: SplitMix
  var serial = 0
  let phrases = [
    "Buy groceries for the week", "Call the plumber about the sink", "Write the quarterly report",
    "Book flights to the conference", "Renew the passport", "Reply to the landlord",
    "Water the plants", "Prepare the slides for Monday",
  ]

  init(seed: UInt64) { random = SplitMix(state: seed) }

  /// A random version-4 UUID drawn from the seeded generator.
  mutating func uuid() -> UUID {
    var bytes = unsafeBitCast((random.next(), random.next()), to: uuid_t.self)
    bytes.6 = bytes.6 & 0x0F | 0x40
    bytes.8 = bytes.8 & 0x3F | 0x80
    return UUID(uuid: bytes)
  }

  mutating func item() -> TodoItem {
    serial += 1
    return TodoItem(id: uuid(), title: "\(phrases[serial % phrases.count]) #\(serial)", done: false)
  }

  mutating func items(_ count: Int) -> [TodoItem] { (0..<count).map { _ in item() } }

  mutating func list(_ name: String) -> TodoList { TodoList(id: uuid(), name: name) }

  mutating func index(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
}

// MARK: - Rows

/// How a row shows its samples, each of which is seconds per unit of work (one build, one
/// operation, one commit, one event) — except `.bytes`, whose samples are the value itself.
enum RowUnit: String {
  case milliseconds = "ms"
  case microseconds = "µs"
  case perSecond = "/s"
  case bytes = "B"

  func display(_ value: Double) -> Double {
    switch self {
    case .milliseconds: value * 1e3
    case .microseconds: value * 1e6
    case .perSecond: 1 / value
    case .bytes: value
    }
  }

  func text(_ value: Double) -> String {
    let shown = display(value)
    switch self {
    case .perSecond: return grouped(shown)
    case .bytes: return fixed(shown, decimals: 1)
    default: return fixed(shown, decimals: shown >= 100 ? 0 : shown >= 1 ? 2 : 3)
    }
  }
}

struct Row {
  let key: String
  let label: String
  let unit: RowUnit
  let samples: Samples
  /// The most a debug build may show, in the row's unit.
  var debugTarget: Double? = nil
  /// The most a debug build may take, as a multiple of the release build's time.
  var ratioTarget: Double? = nil

  var targetText: String {
    var parts: [String] = []
    if let debugTarget { parts.append("debug ≤ \(format(debugTarget, digits: 0)) \(unit.rawValue)") }
    if let ratioTarget { parts.append("debug ≤ \(format(ratioTarget, digits: 0))× release") }
    return parts.joined(separator: ", ")
  }
}

let tsv = CommandLine.arguments.dropFirst().contains("--tsv")
let commitCount = max(1_000, environment("COMMITS", 20_000))

/// Prints a row as soon as it is measured: a table line, or tab-separated values with `--tsv`.
@MainActor func add(_ row: Row) {
  if tsv {
    let targets = [row.debugTarget, row.ratioTarget].map { $0.map { "\($0)" } ?? "-" }
    let fields = [row.key, row.label, row.unit.rawValue, "\(row.samples.median)", "\(row.samples.min)"] + targets
    print(fields.joined(separator: "\t"))
  } else {
    Results.write(
      row.label + String(repeating: " ", count: max(1, 62 - row.label.count))
        + pad(row.unit.text(row.samples.median), 11) + pad(row.unit.text(row.samples.min), 11) + "  "
        + row.unit.rawValue + (row.targetText.isEmpty ? "" : "   (target \(row.targetText))"))
  }
}

if !tsv {
  Results.begin("AppBench", settings: environmentSettings(["COMMITS"]))
  Results.write(
    "AppBench: TodoItem (UUID id, String title, Bool done) through `import ListJournal`, "
      + "\(buildConfiguration) build")
  Results.write("Medians of the timed rounds and the best round (the least time); rates are per second.")
  Results.write(
    "row" + String(repeating: " ", count: 59) + pad("median", 11) + pad("best", 11) + "  unit")
}

// MARK: - Building snapshots

var model = Model(seed: 1)
let inbox = model.list("Inbox")
let tenThousand = model.items(10_000)
let bulk = try sample(warmUp: 2, repeats: 15) { () throws -> Snapshot in
  var snapshot = Snapshot()
  try snapshot.appendSections([inbox])
  try snapshot.appendItems(tenThousand)
  return snapshot
}
add(Row(
  key: "bulk-10k", label: "snapshot: bulk build, 10,000 items (one appendItems)", unit: .milliseconds,
  samples: bulk, debugTarget: 15, ratioTarget: 3))

let lists = (0..<100).map { model.list("List \($0)") }
let listItems = lists.map { _ in model.items(100) }
let sectioned = try sample(warmUp: 2, repeats: 15) { () throws -> Snapshot in
  var snapshot = Snapshot()
  try snapshot.appendSections(lists)
  for (list, items) in zip(lists, listItems) { try snapshot.appendItems(items, toSection: list.id) }
  return snapshot
}
add(Row(
  key: "sectioned-100x100", label: "snapshot: 100 sections × 100 items (appendItems per section)",
  unit: .milliseconds, samples: sectioned, debugTarget: 15, ratioTarget: 3))

// MARK: - Single operations on 10,000 items

/// A 10,000-item flat list and the app's own record of it, edited one operation at a time.
struct FlatList {
  var snapshot: Snapshot
  var live: [UUID]
  var items: [UUID: TodoItem]
  var model: Model

  init(model: Model, items: [TodoItem], section: TodoList) throws {
    self.model = model
    snapshot = Snapshot()
    try snapshot.appendSections([section])
    try snapshot.appendItems(items)
    live = items.map(\.id)
    self.items = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
  }

  mutating func pick() -> UUID { live[model.index(live.count)] }

  /// One batch of each operation; returns seconds per operation by operation.
  mutating func round(batch: Int) throws -> [String: Double] {
    // Timed on a local that holds the only reference, as an app's snapshot being edited does.
    var snapshot = self.snapshot
    self.snapshot = Snapshot()
    defer { self.snapshot = snapshot }
    snapshot.clearMarkers()

    let inserted = (0..<batch).map { _ in (model.item(), pick()) }
    let insert = try time {
      for (item, anchor) in inserted { try snapshot.insertItems([item], beforeItem: anchor) }
    }
    for (item, _) in inserted {
      live.append(item.id)
      items[item.id] = item
    }

    var victims: [UUID] = []
    for _ in 0..<batch {
      let position = model.index(live.count)
      victims.append(live[position])
      live.swapAt(position, live.count - 1)
      live.removeLast()
    }
    let delete = try time {
      for victim in victims { try snapshot.deleteItems([victim]) }
    }
    for victim in victims { items[victim] = nil }

    var pairs: [(UUID, UUID)] = []
    while pairs.count < batch {
      let (a, b) = (pick(), pick())
      if a != b { pairs.append((a, b)) }
    }
    let move = try time {
      for (item, anchor) in pairs { try snapshot.moveItem(item, beforeItem: anchor) }
    }

    let updates = (0..<batch).map { _ in
      var item = items[pick()]!
      item.done.toggle()
      item.title += "!"
      items[item.id] = item
      return item
    }
    let update = try time {
      for item in updates { try snapshot.updateItem(item) }
    }
    return [
      "insert": insert / Double(batch), "delete": delete / Double(batch), "move": move / Double(batch),
      "update": update / Double(batch),
    ]
  }
}

/// 1,000 parents with 9 children each (10,000 items), their rows expanded and collapsed.
struct OutlineList {
  var snapshot: Snapshot
  let parents: [UUID]
  var model: Model

  init(model: inout Model, section: TodoList) throws {
    snapshot = Snapshot()
    try snapshot.appendSections([section])
    let parentItems = model.items(1_000)
    try snapshot.appendItems(parentItems)
    for parent in parentItems { try snapshot.appendItems(model.items(9), underParent: parent.id) }
    parents = parentItems.map(\.id)
    self.model = model
  }

  /// One batch of expands and collapses of random parents; returns seconds per operation.
  mutating func round(batch: Int) throws -> Double {
    var snapshot = self.snapshot
    self.snapshot = Snapshot()
    defer { self.snapshot = snapshot }
    snapshot.clearMarkers()
    let picks = (0..<batch).map { _ in parents[model.index(parents.count)] }
    return try time {
      for parent in picks {
        if snapshot.isExpanded(parent) { try snapshot.collapse([parent]) } else { try snapshot.expand([parent]) }
      }
    } / Double(batch)
  }
}

var flat = try FlatList(model: Model(seed: 2), items: tenThousand, section: inbox)
var outlineModel = Model(seed: 3)
var outline = try OutlineList(model: &outlineModel, section: inbox)
var operationSamples: [String: Samples] = [:]
// The first round warms up (caches, first-touch pages) and is not counted.
for round in 0..<8 {
  let perOperation = try flat.round(batch: 1_000)
  let expandCollapse = try outline.round(batch: 1_000)
  guard round > 0 else { continue }
  for (name, seconds) in perOperation { operationSamples[name, default: Samples()].append(seconds) }
  operationSamples["expand", default: Samples()].append(expandCollapse)
}
precondition(flat.snapshot.numberOfItems == 10_000 && outline.snapshot.numberOfItems == 10_000)
for (key, label) in [
  ("insert", "10K items: insertItems([new], beforeItem: random)"),
  ("delete", "10K items: deleteItems([random])"),
  ("move", "10K items: moveItem(random, beforeItem: random)"),
  ("update", "10K items: updateItem (new title and done)"),
  ("expand", "10K items: expand or collapse a parent of 9"),
] {
  add(Row(
    key: "op-\(key)", label: label, unit: .microseconds, samples: operationSamples[key]!, ratioTarget: 3))
}

// MARK: - Stores

/// Single-operation commits an app makes: toggle an item, move one, insert one, delete one.
struct Edits {
  var live: [UUID]
  var items: [UUID: TodoItem]
  var model: Model

  init(items: [TodoItem], model: Model) {
    live = items.map(\.id)
    self.items = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
    self.model = model
  }

  mutating func pick() -> UUID { live[model.index(live.count)] }

  /// Commits `count` single-operation transactions, each its own version.
  mutating func commit(_ count: Int, to store: Store) throws {
    for step in 0..<count {
      switch step % 4 {
      case 0:
        var item = items[pick()]!
        item.done.toggle()
        items[item.id] = item
        try store.updateItem(item)
      case 1:
        let item = pick()
        var anchor = pick()
        while anchor == item { anchor = pick() }
        try store.moveItem(item, beforeItem: anchor)
      case 2:
        let item = model.item()
        try store.insertItems([item], beforeItem: pick())
        live.append(item.id)
        items[item.id] = item
      default:
        let position = model.index(live.count)
        let victim = live[position]
        live.swapAt(position, live.count - 1)
        live.removeLast()
        items[victim] = nil
        try store.deleteItems([victim])
      }
    }
  }
}

/// Times `rounds` rounds of `count / rounds` commits after one untimed round; seconds per commit.
func commitRounds(_ edits: inout Edits, _ store: Store, total count: Int, after each: () throws -> Void = {})
  throws -> Samples
{
  let rounds = 5
  let perRound = count / rounds
  var samples = Samples()
  for round in 0...rounds {
    let seconds = try time {
      try edits.commit(perRound, to: store)
      try each()
    }
    if round > 0 { samples.append(seconds / Double(perRound)) }
  }
  return samples
}

let store = Store()
try store.transaction(label: "Load") { tx in
  try tx.appendSections([inbox])
  try tx.appendItems(tenThousand)
}
var storeEdits = Edits(items: tenThousand, model: Model(seed: 4))
let storeCommits = try commitRounds(&storeEdits, store, total: commitCount)
add(Row(
  key: "store-commits", label: "in-memory ListStore: single-operation commits", unit: .perSecond,
  samples: storeCommits))

let pairs = 2_000
var undoRedo = Samples()
for round in 0..<6 {
  let seconds = try time {
    for _ in 0..<pairs {
      try store.undo()
      try store.redo()
    }
  }
  if round > 0 { undoRedo.append(seconds / Double(pairs)) }
}
add(Row(
  key: "undo-redo", label: "in-memory ListStore: undo + redo of one commit", unit: .microseconds,
  samples: undoRedo))

// MARK: - A journal-backed store

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AppBench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let journalPath = directory.appendingPathComponent("todo.journal").path

let journal = try JournalStore<TodoList, TodoItem>.open(at: journalPath, configuration: .init(durability: .grouped))
try journal.store.transaction(label: "Load") { tx in
  try tx.appendSections([inbox])
  try tx.appendItems(tenThousand)
}
try journal.makeDurable(through: journal.store.head)
let loadedBytes = fileSize(journalPath)!
let loadedEvents = journal.store.eventCount
var journalEdits = Edits(items: tenThousand, model: Model(seed: 5))
// Each round ends when its last commit is durable: an app acknowledges only durable commits.
let journalCommits = try commitRounds(&journalEdits, journal.store, total: commitCount) {
  try journal.makeDurable(through: journal.store.head)
}
add(Row(
  key: "journal-commits", label: "JournalStore (.grouped): single-operation commits, durable",
  unit: .perSecond, samples: journalCommits))
let journalEvents = journal.store.eventCount
try journal.close()
let bytesPerEvent = Double(fileSize(journalPath)! - loadedBytes) / Double(journalEvents - loadedEvents)
add(Row(key: "journal-bytes", label: "JournalStore: file bytes per event of those commits", unit: .bytes,
  samples: Samples([bytesPerEvent])))

var reopen = Samples()
for round in 0..<4 {
  let (reopened, seconds) = try measure {
    try JournalStore<TodoList, TodoItem>.open(at: journalPath, configuration: .init(durability: .grouped))
  }
  let events = reopened.store.eventCount
  precondition(reopened.store.head == journal.store.head)
  try reopened.close()
  if round > 0 { reopen.append(seconds / Double(events)) }
}
try FileManager.default.removeItem(at: directory)
add(Row(
  key: "journal-reopen", label: "JournalStore: reopen (open + replay \(journalEvents) events)", unit: .perSecond,
  samples: reopen))

// MARK: - Diffs

let head = store.head
for distance in [1, 100] {
  let from = Version(head.rawValue - distance)
  let changesets = try sample(repeats: 15) { try store.changeset(from: from, to: head) }
  let commits = distance == 1 ? "1 commit" : "\(distance) commits"
  add(Row(
    key: "changeset-\(distance)", label: "changeset between versions \(commits) apart (10K items)",
    unit: .milliseconds, samples: changesets))
}

/// `old` with 10% of its items deleted, 10% inserted, 2% moved and 1% updated, in one pass.
func edited(_ old: [TodoItem], model: inout Model) -> [TodoItem] {
  var kept: [TodoItem] = []
  var moved: [TodoItem] = []
  for item in old {
    switch model.index(100) {
    case 0..<10: continue
    case 10..<12: moved.append(item)
    default: kept.append(item)
    }
  }
  var new: [TodoItem] = []
  new.reserveCapacity(old.count)
  for item in kept {
    if model.index(9) == 0 { new.append(model.item()) }
    new.append(item)
  }
  // Moved items go to random places: sorted by their new position and merged in one pass.
  let placed = moved.map { (model.index(new.count + 1), $0) }.sorted { $0.0 < $1.0 }
  var merged: [TodoItem] = []
  merged.reserveCapacity(new.count + placed.count)
  var next = placed.startIndex
  for (position, item) in new.enumerated() {
    while next < placed.endIndex, placed[next].0 == position {
      merged.append(placed[next].1)
      next += 1
    }
    merged.append(item)
  }
  merged.append(contentsOf: placed[next...].map(\.1))
  for _ in 0..<(old.count / 100) {
    let position = model.index(merged.count)
    merged[position].title += " (edited)"
  }
  return merged
}

var diffModel = Model(seed: 6)
let oldItems = diffModel.items(100_000)
let newItems = edited(oldItems, model: &diffModel)
func snapshot(_ items: [TodoItem]) throws -> Snapshot {
  var snapshot = Snapshot()
  try snapshot.appendSections([inbox])
  try snapshot.appendItems(items)
  snapshot.clearMarkers()
  return snapshot
}
let oldSnapshot = try snapshot(oldItems)
let newSnapshot = try snapshot(newItems)
var moves = 0
let fullDiff = sample(repeats: 5) {
  let changeset = ListChangeset(from: oldSnapshot, to: newSnapshot)
  moves = changeset.numberOfItemMoves
  return changeset
}
precondition(moves > 0)
add(Row(
  key: "diff-100k", label: "full diff, two 100K-item snapshots (10/10/2/1%)", unit: .milliseconds,
  samples: fullDiff))
