import ListJournal
import TestSupport

/// The scenarios behind `Journal/Golden/*.journal`: each writes a small journal through a
/// journal-backed store with a fixed clock and salt, so regeneration is deterministic.
struct GoldenScenario: Sendable {
  var name: String
  var durability: JournalDurability = .strict
  /// Encoded bytes between checkpoint records (small values give multi-frame journals).
  var journalCheckpointBytes = 256 * 1024
  var frameTargetBytes = 256 * 1024
  /// The format minor the journal is written with: 0 for the goldens written before format 1.1
  /// (they must keep being reproduced byte for byte), 1 for those of the compact encodings.
  var formatMinor: UInt16 = 0
  var body: @Sendable (TextJournal) throws -> Void

  static let all: [GoldenScenario] = [
    GoldenScenario(name: "sections-items-outline") { journal in
      let store = journal.store
      try store.appendSections([TestSection("Fruit"), TestSection("Veg", content: "Vegetables")])
      try store.appendItems([TestItem("apple", content: "Apple"), TestItem("pear")], toSection: "Fruit")
      try store.appendItems([TestItem("carrot")], toSection: "Veg")
      try store.appendItems([TestItem("gala"), TestItem("fuji", content: "Fuji ★")], underParent: "apple")
      try store.expand(["apple"])
      try store.transaction(label: "Outline") { tx in
        try tx.append(ListOutline([.init(TestItem("kale"), isExpanded: true, children: [.init(TestItem("curly"))])]), toSection: "Veg")
        try tx.updateItem(TestItem("pear", content: "Pear"))
      }
    },
    GoldenScenario(name: "replace-header") { journal in
      let store = journal.store
      try store.appendSections([TestSection("Parent 1"), TestSection("Parent 2")])
      try store.appendItems([TestItem("P1", content: "Parent 1")], toSection: "Parent 1")
      try store.appendItems(["1A", "1B"].map { TestItem($0, content: "Child \($0)") }, underParent: "P1")
      try store.expand(["P1"])
      try store.replaceItem("P1", with: TestItem("P1", content: "Parent 1 ★"))
      try store.replaceItem("P1", with: TestItem("P1-new", content: "Renamed"))
      try store.replaceSection("Parent 2", with: TestSection("Parent 2b", content: "Header B"))
      try store.updateSection(TestSection("Parent 1", content: "Header A"))
    },
    GoldenScenario(name: "reorder") { journal in
      let store = journal.store
      try store.appendSections([TestSection("outline"), TestSection("flat")])
      try store.appendItems([TestItem("H1"), TestItem("H2")], toSection: "outline")
      try store.appendItems([TestItem("a"), TestItem("b")], underParent: "H1")
      try store.appendItems([TestItem("c"), TestItem("d"), TestItem("e")], underParent: "H2")
      try store.appendItems([TestItem("x"), TestItem("y")], toSection: "flat")
      try store.expand(["H1", "H2"])
      try store.transaction(label: "Drag") { tx in try tx.moveVisibleRow(from: ListIndexPath(section: 0, row: 6), to: ListIndexPath(section: 0, row: 4)) }
      try store.moveItem("b", beforeItem: "c")
      try store.moveItem("H1", beforeItem: "y")
      try store.moveSection("flat", toIndex: 0)
    },
    GoldenScenario(name: "undo-redo-branches") { journal in
      let store = journal.store
      try store.appendSections([TestSection("S")])  // v1
      try store.appendItems([TestItem("a")])  // v2
      try store.appendItems([TestItem("b")])  // v3
      try store.undo()  // v2
      try store.appendItems([TestItem("c")])  // v4 (branch off v2)
      try store.undo()  // v2
      try store.redo()  // v4
      try store.checkout(3)  // v3
      try store.appendItems([TestItem("d")])  // v5
      try store.undo()  // v3; redo → v5
    },
    GoldenScenario(name: "multi-frame-checkpoints", durability: .relaxed, journalCheckpointBytes: 300, frameTargetBytes: 512) { journal in
      let store = journal.store
      try store.appendSections([TestSection("A"), TestSection("B")])
      for index in 0..<71 {
        try store.appendItems([TestItem("item\(index)", content: "content \(index)")], toSection: index % 2 == 0 ? "A" : "B")
        if index % 7 == 3 { try store.moveItem("item\(index)", beforeItem: "item\(index - 2)") }
        if index % 11 == 5 { try store.undo() }
        if index % 13 == 0 { try store.updateItem(TestItem("item\(index)", content: "updated \(index)")) }
      }
    },
    GoldenScenario(name: "grouped-written", durability: .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: 1 << 20)) { journal in
      let store = journal.store
      try store.appendSections([TestSection("Inbox")])
      for index in 0..<12 {
        try store.appendItems([TestItem("t\(index)", content: "task \(index)")])
        if index % 4 == 3 { try journal.sync() }  // one chunk per group
      }
      try store.deleteItems(["t0", "t5"])
      try store.collapse(["t1"])
      try store.expand(["t2"])
    },
    GoldenScenario(name: "strict-written", durability: .strict) { journal in
      let store = journal.store
      try store.appendSections([TestSection("Log")])
      try store.appendItems([TestItem("one"), TestItem("two"), TestItem("three")])
      try store.deleteItems(["two"])
      try store.undo()
      try store.moveItem("three", beforeItem: "one")
    },
    // One per seed (/work/shared/seeds/).
    GoldenScenario(name: "seed-reload-section-header") { journal in
      let store = journal.store
      try store.appendSections([TestSection("Parent 1"), TestSection("Parent 2")])
      try store.appendItems([TestItem("P1", content: "Parent 1")], toSection: "Parent 1")
      try store.appendItems(["1A", "1B", "1C"].map { TestItem($0, content: "Child \($0)") }, underParent: "P1")
      try store.appendItems([TestItem("P2", content: "Parent 2")], toSection: "Parent 2")
      try store.appendItems(["2A", "2B", "2C", "2D"].map { TestItem($0, content: "Child \($0)") }, underParent: "P2")
      try store.expand(["P1", "P2"])
      try store.replaceItem("P1", with: TestItem("P1", content: "Parent 1 ★"))
      try store.replaceItem("P1", with: TestItem("P1", content: "Parent 1 ★"))
    },
    GoldenScenario(name: "seed-reload-cells-value-vs-reference") { journal in
      let store = journal.store
      try store.appendSections([TestSection("main")])
      try store.appendItems([TestItem("h1", content: "Batman"), TestItem("h2", content: "Superman"), TestItem("h3", content: "Wonder Woman")])
      try store.updateItem(TestItem("h2", content: "Superman ★"))
      try store.reloadItems(["h1"])
      try store.updateItem(TestItem("h2", content: "Superman ★★"))
    },
    GoldenScenario(name: "seed-sections-insert-delete") { journal in
      let store = journal.store
      try store.appendSections([TestSection("Classics"), TestSection("Not that cool stuff")])
      try store.appendItems([TestItem("A New Hope"), TestItem("The Empire Strikes Back"), TestItem("Return of the Jedi")], toSection: "Classics")
      try store.appendItems([TestItem("The Phantom Menace"), TestItem("Attack of the Clones"), TestItem("Revenge of the Sith")])
      for film in ["The Phantom Menace", "Attack of the Clones", "Revenge of the Sith"] { try store.deleteItems([film]) }
      try store.deleteSections(["Not that cool stuff"])
    },
    GoldenScenario(name: "seed-keep-expansion-state") { journal in
      let store = journal.store
      try store.appendSections([TestSection("topics")])
      try store.appendItems([TestItem("shellies")])
      try store.appendItems([TestItem("shellies/shelly1pm")], underParent: "shellies")
      try store.appendItems([TestItem("shellies/shelly1pm/relay"), TestItem("shellies/shelly1pm/temperature", content: "21.5")], underParent: "shellies/shelly1pm")
      try store.appendItems([TestItem("shellies/shelly1pm/relay/0", content: "on")], underParent: "shellies/shelly1pm/relay")
      try store.expand(["shellies", "shellies/shelly1pm", "shellies/shelly1pm/relay"])
      for value in 0..<3 {
        try store.updateItems([TestItem("shellies/shelly1pm/temperature", content: "2\(value).0"), TestItem("shellies/shelly1pm/relay", content: "msg \(value)")])
      }
      try store.appendItems([TestItem("shellies/shelly1pm/power", content: "3W")], underParent: "shellies/shelly1pm")
    },
    GoldenScenario(name: "seed-section-snapshots-and-reordering") { journal in
      let store = journal.store
      try store.appendSections([TestSection("outline"), TestSection("flat")])
      try store.appendItems([TestItem("H1"), TestItem("H2")], toSection: "outline")
      try store.appendItems([TestItem("a"), TestItem("b")], underParent: "H1")
      try store.appendItems([TestItem("c"), TestItem("d"), TestItem("e")], underParent: "H2")
      try store.appendItems([TestItem("x"), TestItem("y")], toSection: "flat")
      try store.expand(["H1", "H2"])
      try store.transaction(label: "Reorder") { tx in try tx.moveVisibleRow(from: ListIndexPath(section: 0, row: 2), to: ListIndexPath(section: 0, row: 3)) }
      try store.transaction(label: "Reorder") { tx in try tx.moveVisibleRow(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 1, row: 1)) }
    },
    // Format 1.1: the compact encodings (remembered contents for updates and leaf deletes,
    // single-event commits), including the fall-backs when the remembered content is stale.
    GoldenScenario(name: "compact-updates-deletes", formatMinor: 1) { journal in
      let store = journal.store
      try store.appendSections([TestSection("Inbox"), TestSection("Done", content: "Finished")])
      try store.appendItems((0..<6).map { TestItem("t\($0)", content: "task \($0)") }, toSection: "Inbox")
      try store.updateItem(TestItem("t1", content: "task 1 ★"))  // remembered old content
      try store.updateItem(TestItem("t1", content: "task 1 ★★"))
      try store.undo()  // the head's t1 is "task 1 ★" again; the codec still remembers "★★"
      try store.updateItem(TestItem("t1", content: "task 1 (edited)"))  // stale memory: old content stored
      try store.deleteItems(["t2"])  // remembered leaf
      try store.undo()
      try store.deleteItems(["t2"])  // after an undo: the memory still matches
      try store.appendItems([TestItem("t2", content: "task 2 again")], toSection: "Done")
      try store.deleteItems(["t2"])
      try store.appendItems([TestItem("sub", content: "subtask")], underParent: "t3")
      try store.expand(["t3"])
      try store.deleteItems(["t3"])  // an outline, not a leaf
      try store.transaction(label: "Batch") { tx in
        try tx.updateItem(TestItem("t4", content: "task 4 ✓"))
        try tx.moveItem("t4", toSection: "Done")
        try tx.deleteItems(["t0"])
      }
      try store.replaceItem("t5", with: TestItem("t5b", content: "renamed"))
      try store.updateItem(TestItem("t5b", content: "renamed again"))
      try store.reloadItems(["t5b"])
      try store.updateItem(TestItem("t5b", content: "renamed again"))  // the same content again
    },
    GoldenScenario(
      name: "compact-multi-frame-checkpoints", durability: .relaxed, journalCheckpointBytes: 200, frameTargetBytes: 400,
      formatMinor: 1
    ) { journal in
      let store = journal.store
      try store.appendSections([TestSection("A"), TestSection("B")])
      func exists(_ number: Int) -> Bool { store.snapshot.contains(item: "item\(number)") }
      for index in 0..<50 {
        try store.appendItems([TestItem("item\(index)", content: "content \(index)")], toSection: index % 2 == 0 ? "A" : "B")
        if index % 3 == 1, exists(index - 1) { try store.updateItem(TestItem("item\(index - 1)", content: "updated \(index)")) }
        if index % 7 == 3, exists(index), exists(index - 2) { try store.moveItem("item\(index)", beforeItem: "item\(index - 2)") }
        if index % 5 == 4, exists(index - 3) { try store.deleteItems(["item\(index - 3)"]) }
        if index % 11 == 5 { try store.undo() }
      }
    },
  ]

  /// Writes the scenario's journal at `path` (which must not exist); returns the live store's
  /// head state in the golden JSON shape.
  func write(to path: String) throws -> String {
    var options = JournalOptions()
    options.fixedSalt = 0x4C4A_474F_4C44_454E  // "LJGOLDEN"
    options.fixedCreationTimeNanoseconds = 1_700_000_000_000_000_000
    options.frameTargetBytes = frameTargetBytes
    options.formatMinor = formatMinor
    options.compressionLevel = 3  // the level every golden was written with (the default was 3 until 1.1)
    let clock = TickingClock()
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: durability, options: options,
        store: .init(journalCheckpointBytes: journalCheckpointBytes, clock: clock.closure)))
    try body(journal)
    let json = GoldenJSON.state(cleared(journal.store.snapshot), version: journal.store.head)
    try journal.close()
    return json
  }
}
