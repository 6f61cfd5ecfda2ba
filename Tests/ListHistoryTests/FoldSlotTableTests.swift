@testable import ListHistory
import ListState
import TestSupport
import Testing

/// The identifier → slot table behind `ListFold`: lookups, insertions and backward-shift
/// removals against a `Dictionary`, with hashes that collide on purpose (long probe runs that
/// wrap around the end of the bucket array), and a whole fold whose identifiers all collide.
@Suite struct FoldSlotTableTests {
  @Test(arguments: [1, 3, 64, 1 << 40] as [Int])
  func tableMatchesADictionaryUnderCollidingHashes(hashSpread: Int) {
    // hash(key) = (key % hashSpread) * a large odd number: with a spread of 1 every key has the
    // same hash; with 3, runs of a third of the table each; 64 and 2^40 spread them out.
    func hash(_ key: Int) -> Int { (key % hashSpread) &* 0x1E37_79B9_7F4A_7C15 }
    var table = _FoldSlotTable()
    var keys: [Int] = []  // the key stored at each slot (-1: free)
    var reference: [Int: Int] = [:]
    var random = SeededRandom(seed: UInt64(hashSpread))
    for _ in 0..<3_000 {
      let key = Int.random(in: 0..<400, using: &random)
      if let slot = reference[key], Bool.random(using: &random) {
        table.remove(slot: slot, hash: hash(key))
        keys[slot] = -1
        reference[key] = nil
      } else if reference[key] == nil {
        let slot = keys.firstIndex(of: -1) ?? keys.count
        if slot == keys.count { keys.append(key) } else { keys[slot] = key }
        table.insert(slot: slot, hash: hash(key))
        reference[key] = slot
      }
      table._checkInvariants()
      let probe = Int.random(in: 0..<400, using: &random)
      #expect(table.find(hash: hash(probe)) { keys[$0] == probe } == reference[probe])
    }
    #expect(table.count == reference.count)
    for (key, slot) in reference { #expect(table.find(hash: hash(key)) { keys[$0] == key } == slot) }
  }

  /// An identifier whose hash is always the same: every lookup walks one long probe run.
  struct Colliding: ListElement, Hashable, CustomStringConvertible {
    var value: Int
    var id: Colliding { self }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
    var description: String { "c\(value)" }
  }

  @Test func aFoldWhoseIdentifiersAllCollideMatchesTheModel() throws {
    var both = FoldAndModel<String, Colliding>()
    func apply(_ event: ListEvent<String, Colliding>) throws { try both.apply(event) }
    try apply(.insertSection("S", items: ListOutline(), at: 0))
    var random = SeededRandom(seed: 9)
    var next = 0
    let location = { (index: Int) in ListItemLocation<String, Colliding>(.section("S"), index: index) }
    for _ in 0..<600 {
      let count = both.model.numberOfItems
      switch Int.random(in: 0..<4, using: &random) {
      case 0, 1:
        try apply(.insertItems(ListOutline(items: [Colliding(value: next)]), at: location(Int.random(in: 0...count, using: &random))))
        next += 1
      case 2 where count > 0:
        let from = Int.random(in: 0..<count, using: &random)
        try apply(.deleteItems(ListOutline(items: [both.model.rootItems(inSection: "S")[from]]), from: location(from)))
      case 3 where count > 0:
        let from = Int.random(in: 0..<count, using: &random)
        let old = both.model.rootItems(inSection: "S")[from]
        try apply(.replaceItem(old: old, new: Colliding(value: next)))
        next += 1
      default: break
      }
      // Deleted and replaced identifiers are gone; live ones are found.
      #expect(throws: HistoryError.self) { try both.fold.apply(.expand(Colliding(value: -1), wasExpanded: false)) }
    }
    #expect(both.fold.numberOfItems == both.model.numberOfItems)
    #expect(both.fold.snapshot() == both.model)
  }
}
