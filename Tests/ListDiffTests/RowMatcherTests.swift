import TestSupport
import Testing

@testable import ListDiff

@Suite("Row matcher")
struct RowMatcherTests {
  /// Runs the matcher over consecutive stretch pairs (global numbering end to end).
  func match<ID: Hashable>(_ pairs: [(old: [ID], new: [ID])], minimumCapacity: Int = 0) -> (newToOld: [Int], oldMatched: [Bool]) {
    let oldTotal = pairs.reduce(0) { $0 + $1.old.count }
    let newTotal = pairs.reduce(0) { $0 + $1.new.count }
    var newToOld = [Int](repeating: -1, count: newTotal)
    var oldMatched = [Bool](repeating: false, count: oldTotal)
    var matcher = _RowMatcher<ID>(minimumCapacity: minimumCapacity)
    var oldBase = 0, newBase = 0
    newToOld.withUnsafeMutableBufferPointer { newToOld in
      oldMatched.withUnsafeMutableBufferPointer { oldMatched in
        for pair in pairs {
          pair.old.withUnsafeBufferPointer { old in
            pair.new.withUnsafeBufferPointer { new in
              matcher.match(
                old: old, oldBase: oldBase, new: new, newBase: newBase, newToOld: newToOld, oldMatched: oldMatched)
            }
          }
          oldBase += pair.old.count
          newBase += pair.new.count
        }
      }
    }
    return (newToOld, oldMatched)
  }

  /// The matching by identifier, through a `Dictionary` (identifiers unique per side).
  func expected<ID: Hashable>(_ pairs: [(old: [ID], new: [ID])]) -> (newToOld: [Int], oldMatched: [Bool]) {
    let old = pairs.flatMap(\.old), new = pairs.flatMap(\.new)
    var position: [ID: Int] = [:]
    for (index, id) in old.enumerated() { position[id] = index }
    let newToOld = new.map { position[$0] ?? -1 }
    var oldMatched = [Bool](repeating: false, count: old.count)
    for source in newToOld where source >= 0 { oldMatched[source] = true }
    return (newToOld, oldMatched)
  }

  func expectExactMatching<ID: Hashable>(
    _ pairs: [(old: [ID], new: [ID])], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let result = match(pairs)
    let reference = expected(pairs)
    #expect(result.newToOld == reference.newToOld, comment, sourceLocation: sourceLocation)
    #expect(result.oldMatched == reference.oldMatched, comment, sourceLocation: sourceLocation)
  }

  @Test func documentationExample() {
    let result = match([(old: [1, 2, 3, 4], new: [4, 1, 3, 5])])
    #expect(result.newToOld == [3, 0, 2, -1])
    #expect(result.oldMatched == [true, false, true, true])
  }

  @Test func wholeSequences() {
    let result = _RowMatcher.match([1, 2, 3, 4], [4, 1, 3, 5])
    #expect(result.newToOld == [3, 0, 2, -1])
    #expect(result.oldMatched == [true, false, true, true])
    let empty = _RowMatcher<String>.match([], ["a"])
    #expect(empty.newToOld == [-1] && empty.oldMatched.isEmpty)
  }

  @Test func edgeShapes() {
    let ids = Array(0..<500)
    expectExactMatching([(old: [Int](), new: [Int]())])
    expectExactMatching([(old: ids, new: [])])
    expectExactMatching([(old: [], new: ids)])
    expectExactMatching([(old: ids, new: ids)])
    expectExactMatching([(old: ids, new: Array(ids.reversed()))], "reversed")
    expectExactMatching([(old: ids, new: Array(1000..<1500))], "disjoint")
    expectExactMatching([(old: ids, new: Array(1000..<1700) + ids)], "a long run prepended")
    expectExactMatching([(old: ids, new: ids + Array(1000..<1700))], "a long run appended")
    expectExactMatching([(old: Array(1000..<1700) + ids, new: ids)], "a long run deleted at the start")
    expectExactMatching([(old: ids, new: Array(ids[300...]) + Array(ids[..<300]))], "a block moved to the end")
    expectExactMatching([(old: ids, new: Array(ids[..<100]) + Array(ids[400...]) + Array(ids[100..<400]))], "a block moved")
    expectExactMatching([(old: ids, new: ids.enumerated().map { $0.offset % 2 == 0 ? $0.element : $0.element + 1000 })], "every other replaced")
    expectExactMatching([(old: ids.filter { $0 % 5 != 0 }, new: ids.filter { $0 % 7 != 0 })], "regular gaps both sides")
  }

  @Test func randomEditsShufflesAndCrossStretchMoves() {
    var generator = SeededRandom(seed: 0x0A7C_0001)
    for round in 0..<SeededRandom.propertySteps(default: 300) {
      let pairCount = Int.random(in: 1...4, using: &generator)
      var nextID = 0
      var pairs: [(old: [Int], new: [Int])] = []
      for _ in 0..<pairCount {
        let count = Int.random(in: 0...200, using: &generator)
        pairs.append((old: Array(nextID..<(nextID + count)), new: []))
        nextID += count
      }
      // New stretches: per old row keep in place / drop / send to another stretch, plus inserts,
      // runs, and sometimes a shuffle or a reversal.
      var moving: [Int] = []
      for index in pairs.indices {
        var rows: [Int] = []
        for id in pairs[index].old {
          switch Int.random(in: 0..<20, using: &generator) {
          case 0, 1: continue  // deleted
          case 2: moving.append(id)  // moved, maybe to another stretch
          case 3:
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
              rows.append(nextID)
              nextID += 1
            }
            rows.append(id)
          default: rows.append(id)
          }
        }
        pairs[index].new = rows
      }
      moving.shuffle(using: &generator)
      for id in moving {
        let index = Int.random(in: pairs.indices, using: &generator)
        pairs[index].new.insert(id, at: Int.random(in: 0...pairs[index].new.count, using: &generator))
      }
      for index in pairs.indices {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: pairs[index].new.shuffle(using: &generator)
        case 1: pairs[index].new.reverse()
        default: break
        }
      }
      expectExactMatching(pairs, "round \(round)")
    }
  }

  @Test func collidingIdentifiers() {
    var generator = SeededRandom(seed: 0x0A7C_0002)
    for buckets in [1, 3, 1000] {
      let old = (0..<300).map { CollidingID($0, buckets: buckets) }
      var new = old.filter { _ in Int.random(in: 0..<5, using: &generator) > 0 }
      new.insert(contentsOf: (300..<340).map { CollidingID($0, buckets: buckets) }, at: new.count / 2)
      new.swapAt(3, new.count - 4)
      expectExactMatching([(old: old, new: new)], "buckets \(buckets)")
      expectExactMatching([(old: old, new: new.shuffled(using: &generator))], "shuffled, buckets \(buckets)")
    }
  }

  @Test func duplicateIdentifiersMatchEachRowAtMostOnce() {
    // Not valid input for a diff, but it must not trap, and what it matches must be equal.
    var generator = SeededRandom(seed: 0x0A7C_0003)
    for _ in 0..<200 {
      let old = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0..<8, using: &generator) }
      let new = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0..<8, using: &generator) }
      let result = match([(old: old, new: new)])
      var used = Set<Int>()
      for (newIndex, source) in result.newToOld.enumerated() where source >= 0 {
        #expect(old[source] == new[newIndex])
        #expect(used.insert(source).inserted, "old row \(source) matched twice")
      }
      #expect(Set(result.oldMatched.indices.filter { result.oldMatched[$0] }) == used)
    }
  }
}
