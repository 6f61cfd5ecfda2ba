import BenchmarkSupport
import ListJournal

/// An app's edits of its list, drawn from a seed, one operation per commit.
///
/// Until the list has `headItems` rows every step inserts one. From then on a step is: 35% a
/// new title for a row, 20% a move of a top-level row before another, 30% an insert or a delete
/// — whichever brings the list back to `headItems`, so inserts and deletes alternate and only
/// the history grows — 10% an expand or collapse of a row with children, and 5% an undo
/// followed by a redo. An insert puts a new row before a random top-level row, or (one in four)
/// under one; a delete takes a random row without children. The mix keeps its own record of the
/// list, so every operation is valid without reading the store.
struct AppMix {
  let headItems: Int
  private var random: SplitMix
  private var serial = 0
  private var items = IndexedSet()
  private var roots = IndexedSet()
  private var leaves = IndexedSet()
  private var parents = IndexedSet()
  private var parentOf: [String: String] = [:]
  private var childCounts: [String: Int] = [:]

  private static let phrases = [
    "Buy groceries for the week", "Call the plumber about the sink", "Write the quarterly report",
    "Book flights to the conference", "Renew the passport", "Reply to the landlord", "Water the plants",
    "Prepare the slides for Monday", "Pick up the dry cleaning", "Schedule the dentist appointment",
  ]

  init(seed: UInt64, headItems: Int) {
    random = SplitMix(state: seed)
    self.headItems = headItems
  }

  var itemCount: Int { items.count }

  /// `count` new top-level rows, registered as the list's first rows (loaded in one commit).
  mutating func initialRows(_ count: Int) -> [Row] {
    (0..<count).map { _ in
      let row = newRow()
      items.insert(row.id)
      roots.insert(row.id)
      leaves.insert(row.id)
      return row
    }
  }

  /// The seconds an app's user waits before the next commit: 1 to 10.
  mutating func pause() -> Double { Double(Int.random(in: 1...10, using: &random)) }

  /// Makes one step on `store` and returns how many records it wrote: 2 for an undo and redo
  /// pair (never drawn when `recordsLeft` is 1), otherwise 1.
  mutating func step(_ store: RowStore, recordsLeft: Int) throws -> Int {
    guard items.count >= headItems else {
      try insert(store)
      return 1
    }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<35:
      let id = items.randomMember(using: &random)
      try store.updateItem(Row(id: id, title: title()))
    case 35..<55:
      let id = roots.randomMember(using: &random)
      var anchor = roots.randomMember(using: &random)
      while anchor == id { anchor = roots.randomMember(using: &random) }
      try store.moveItem(id, beforeItem: anchor)
    case 55..<85:
      if items.count < headItems { try insert(store) } else { try delete(store) }
    case 85..<95:
      let id = parents.isEmpty ? roots.randomMember(using: &random) : parents.randomMember(using: &random)
      try store.transaction { tx in
        if tx.snapshot.isExpanded(id) { try tx.collapse([id]) } else { try tx.expand([id]) }
      }
    default:
      guard recordsLeft >= 2 else { return try step(store, recordsLeft: recordsLeft) }
      _ = try store.undo()
      _ = try store.redo()
      return 2
    }
    return 1
  }

  private mutating func insert(_ store: RowStore) throws {
    let row = newRow()
    let anchor = roots.randomMember(using: &random)
    if Int.random(in: 0..<4, using: &random) == 0 {
      try store.appendItems([row], underParent: anchor)
      parentOf[row.id] = anchor
      childCounts[anchor, default: 0] += 1
      parents.insert(anchor)
      leaves.remove(anchor)
    } else {
      try store.insertItems([row], beforeItem: anchor)
      roots.insert(row.id)
    }
    items.insert(row.id)
    leaves.insert(row.id)
  }

  private mutating func delete(_ store: RowStore) throws {
    let id = leaves.randomMember(using: &random)
    try store.deleteItems([id])
    items.remove(id)
    leaves.remove(id)
    if let parent = parentOf.removeValue(forKey: id) {
      childCounts[parent]! -= 1
      if childCounts[parent] == 0 {
        childCounts[parent] = nil
        parents.remove(parent)
        leaves.insert(parent)
      }
    } else {
      roots.remove(id)
    }
  }

  private mutating func newRow() -> Row {
    serial += 1
    return Row(id: "row-\(serial)", title: title())
  }

  /// A to-do title of 25 to 45 characters.
  private mutating func title() -> String {
    "\(Self.phrases[Int.random(in: 0..<Self.phrases.count, using: &random)]) #\(Int.random(in: 1...9_999, using: &random))"
  }
}
