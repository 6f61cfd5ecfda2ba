import TestSupport
import Testing

@testable import ListDiff
import ListState

/// An identifier whose hash depends only on `value % buckets`: with `buckets == 1` every key has
/// the same full hash (same bucket, same stored hash bits), the worst case for the table.
struct CollidingID: Hashable, Sendable, CustomStringConvertible {
  var value: Int
  var buckets: Int

  init(_ value: Int, buckets: Int = 1) {
    self.value = value
    self.buckets = buckets
  }

  static func == (a: CollidingID, b: CollidingID) -> Bool { a.value == b.value }
  func hash(into hasher: inout Hasher) { hasher.combine(value % buckets) }
  var description: String { "c\(value)" }
}

@Suite("Identifier table")
struct IdentifierTableTests {
  typealias Table<ID: Hashable> = _IdentifierTable<ID>

  /// Appends `keys` one by one, checking every lookup against a `Dictionary` after each growth
  /// step, and absent keys.
  func check<ID: Hashable>(_ keys: [ID], absent: [ID], minimumCapacity: Int = 0) {
    var table = Table<ID>(minimumCapacity: minimumCapacity)
    var reference: [ID: Int] = [:]
    for key in keys {
      let index = table.append(key, hash: Table<ID>.hash(key))
      #expect(index == reference.count)
      reference[key] = index
      #expect(table.count == reference.count)
    }
    #expect(table.keys == keys)
    for (key, index) in reference { #expect(table.firstIndex(of: key, hash: Table<ID>.hash(key)) == index) }
    for key in absent { #expect(table.firstIndex(of: key, hash: Table<ID>.hash(key)) == nil) }
  }

  @Test func documentationExample() {
    var table = _IdentifierTable<String>(minimumCapacity: 2)
    let hash = _IdentifierTable<String>.hash("b")
    #expect(table.append("a", hash: _IdentifierTable<String>.hash("a")) == 0)
    #expect(table.append("b", hash: hash) == 1)
    #expect(table.firstIndex(of: "b", hash: hash) == 1)
    #expect(table.firstIndex(of: "c", hash: _IdentifierTable<String>.hash("c")) == nil)
  }

  @Test func emptyTableFindsNothing() {
    let table = Table<Int>()
    #expect(table.count == 0)
    #expect(table.firstIndex(of: 0, hash: Table<Int>.hash(0)) == nil)
  }

  @Test func randomIntegersThroughManyGrowthSteps() {
    var generator = SeededRandom(seed: 0x7AB1_E001)
    var keys = Set<Int>()
    while keys.count < 5000 { keys.insert(Int.random(in: .min ... .max, using: &generator)) }
    let all = Array(keys)
    check(Array(all[..<4000]), absent: Array(all[4000...]))
    // Presized: no growth at all.
    check(Array(all[..<4000]), absent: Array(all[4000...]), minimumCapacity: 4000)
  }

  @Test func consecutiveIntegersAndStrings() {
    check(Array(0..<3000), absent: Array(3000..<3500))
    check((0..<2000).map { "row \($0)" }, absent: (2000..<2200).map { "row \($0)" } + ["", "row"])
  }

  @Test func everyKeyWithTheSameHash() {
    // One probe run holding every key: each lookup compares keys until it finds its own, and a
    // miss walks the whole run to the empty bucket after it.
    check((0..<600).map { CollidingID($0) }, absent: (600..<700).map { CollidingID($0) })
  }

  @Test func fewDistinctHashes() {
    // Clusters of equal hashes interleaved with each other, through growth.
    check((0..<3000).map { CollidingID($0, buckets: 7) }, absent: (3000..<3300).map { CollidingID($0, buckets: 7) })
  }

  @Test func duplicatesAreKeptAndOneIsFound() {
    var table = Table<Int>()
    for key in [5, 6, 5, 7, 5] { table.append(key, hash: Table<Int>.hash(key)) }
    #expect(table.count == 5)
    let found = table.firstIndex(of: 5, hash: Table<Int>.hash(5))
    #expect(found.map { [0, 2, 4].contains($0) } == true)
    #expect(table.firstIndex(of: 7, hash: Table<Int>.hash(7)) == 3)
  }
}
