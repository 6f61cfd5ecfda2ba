@testable import ListHistory
import ListState
import TestSupport
import Testing

/// The cache hints of a flat replay (`_FoldPrefetcher`): they must point at the memory the fold
/// then reads — the table entry and the record of the item each event names — or they only
/// cost time. What the fold computes is covered by the replay suites (a flat replay goes
/// through the prefetcher).
@Suite struct FoldPrefetcherTests {
  typealias Event = ListEvent<String, Int>

  /// A fold of `count` items in two sections, every tenth with a child.
  func makeFold(count: Int) throws -> ListFold<String, Int> {
    var fold = ListFold<String, Int>()
    for (index, section) in ["A", "B"].enumerated() {
      let ids = stride(from: index, to: count, by: 2)
      let nodes = ids.map { id in
        ListOutline<Int>.Node(id, isExpanded: false, children: id % 10 == 0 ? [.init(-id - 1)] : [])
      }
      try fold.apply(.insertSection(section, items: ListOutline(nodes), at: index))
    }
    return fold
  }

  @Test func eachEventHintsAtTheItemItNames() {
    let location = ListItemLocation<String, Int>(.section("A"), index: 0)
    let cases: [(Event, Int?)] = [
      (.insertItems(ListOutline(items: [7, 8]), at: location), 7),
      (.deleteItems(ListOutline(items: [9]), from: location), 9),
      (.moveItem(11, from: location, to: location), 11),
      (.updateItem(old: 12, new: 12), 12),
      (.replaceItem(old: 13, new: 14), 13),
      (.expand(15, wasExpanded: false), 15),
      (.collapse(16, wasExpanded: true), 16),
      (.reloadItems([17]), nil),
      (.insertSection("C", items: ListOutline(items: [18]), at: 0), nil),
      (.moveSection("C", from: 0, to: 1), nil),
    ]
    for (event, item) in cases {
      var event = event
      #expect(event._foldedItemHash() == (item?.hashValue ?? 0), "\(event)")
    }
  }

  /// Over a random run of updates, expansions and inserts on a 2,000-item fold (every apply checks the fold's invariants in a test build), the record each event's hint leads to is
  /// the record of the item the event names (no two of these identifiers share 32 hash bits
  /// in practice), checked before the event is applied, as a replay's hint is issued.
  @Test func theHintedRecordIsTheOneTheFoldReads() throws {
    var fold = try makeFold(count: 2_000)
    var random = SeededRandom(seed: 12)
    var live = Array(0..<2_000)
    var next = 2_000
    var hinted = 0
    for _ in 0..<1_500 {
      let id = live[Int.random(in: 0..<live.count, using: &random)]
      var event: Event
      switch Int.random(in: 0..<3, using: &random) {
      case 0: event = .updateItem(old: id, new: id)
      case 1: event = .expand(id, wasExpanded: false)  // applied without verifying: its state is not tracked here
      default:
        event = .insertItems(ListOutline(items: [next]), at: .init(.section("B"), index: 0))
        live.append(next)
        next += 1
      }
      let hash = event._foldedItemHash()
      if case .insertItems = event {
        #expect(fold._firstSlot(matching: hash) == nil, "a new item has no record yet")
      } else {
        #expect(fold._firstSlot(matching: hash) == fold._slot(of: id), "\(event)")
        hinted += 1
      }
      try fold.apply(event, verifying: false)
    }
    #expect(hinted > 800)
  }
}
