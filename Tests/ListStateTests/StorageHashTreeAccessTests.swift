import Testing

@testable import ListState

/// Unit tests of the descent-saving entry points of `_HashTree` (`_HashTree.swift`): the
/// paired lookup, the value reached through a unique path, insertion unless present, and removal
/// without a separate existence check. Each is checked against `Dictionary`, with colliding
/// hashes (runs of equal hashes across leaf boundaries), and against copies taken along the way
/// (a shared path must be copied, never changed).
@Suite struct StorageHashTreeAccessTests {
  typealias Rng = StorageOrderedTreeTests.Rng
  typealias CollidingKey = StorageHashTreeTests.CollidingKey
  typealias Map = _HashTree<CollidingKey, Int>

  static func key(_ value: Int) -> CollidingKey { CollidingKey(value: value, bucket: value % 3 == 0 ? 7 : value) }

  /// The key stored next to the value at `value` (the entry points return values' addresses).
  static func key(ofValue value: UnsafeMutablePointer<Int>) -> CollidingKey {
    (UnsafeRawPointer(value) - _HashItem<CollidingKey, Int>.valueOffset).assumingMemoryBound(to: CollidingKey.self).pointee
  }

  @Test func accessPathsAgreeWithADictionary() {
    var map = Map()
    var model: [CollidingKey: Int] = [:]
    var rng = Rng(state: 29)
    var copies: [(Map, [CollidingKey: Int])] = []
    for step in 0..<12_000 {
      let k = Self.key(rng.int(2500))
      let hash = Map.hash(k)
      switch rng.int(6) {
      case 0, 1:
        let inserted = map.insertIfAbsent(step, forKey: k, hash: hash)
        #expect((inserted != nil) == (model[k] == nil))
        if let inserted {
          #expect(Self.key(ofValue: inserted) == k && inserted.pointee == step)
          // The address is where the value lives: a write through it is seen by lookups.
          inserted.pointee = step + 1
          model[k] = step + 1
        }
      case 2:
        #expect(map.takeValue(forKey: k, hash: hash) == model.removeValue(forKey: k))
      case 3:
        let entry = map.uniqueEntry(k, hash: hash)
        #expect((entry != nil) == (model[k] != nil))
        if let entry {
          #expect(Self.key(ofValue: entry) == k)
          entry.pointee += 1
          model[k]! += 1
        }
      default:
        let other = Self.key(rng.int(2500))
        let (a, b) = map.peekPair(k, hash: hash, other, hash: Map.hash(other))
        #expect(a?.pointee == model[k])
        #expect(b?.pointee == model[other])
        #expect(a.map(Self.key(ofValue:)) == (model[k] == nil ? nil : k))
        #expect(b.map(Self.key(ofValue:)) == (model[other] == nil ? nil : other))
      }
      if step % 1500 == 0 { copies.append((map, model)) }
    }
    StorageHashTreeTests.check(map, model)
    for (copy, copyModel) in copies { StorageHashTreeTests.check(copy, copyModel) }
    for k in Array(model.keys) {
      #expect(map.takeValue(forKey: k, hash: Map.hash(k)) == model.removeValue(forKey: k))
      if model.count % 400 == 0 { StorageHashTreeTests.check(map, model) }
    }
    #expect(map.isEmpty)
    #expect(map.takeValue(forKey: Self.key(1), hash: Map.hash(Self.key(1))) == nil)
    #expect(map.peekPair(Self.key(1), hash: 0, Self.key(2), hash: 0) == (nil, nil))
  }

  @Test func insertionsOfAbsentKeysSplitOnTheWayDown() {
    // `insertAbsent` splits full nodes before entering them: keys in random order, runs of
    // colliding hashes, and copies taken along the way (whose paths must be copied, not split).
    var map = Map()
    var model: [CollidingKey: Int] = [:]
    var rng = Rng(state: 41)
    var copies: [(Map, [CollidingKey: Int])] = []
    var candidates = Array(0..<6000)
    for i in stride(from: candidates.count - 1, to: 0, by: -1) { candidates.swapAt(i, rng.int(i + 1)) }
    for (step, value) in candidates.enumerated() {
      let k = Self.key(value)
      map.insertAbsent(k, hash: Map.hash(k)).initialize(to: step)
      model[k] = step
      if step % 700 == 0 {
        copies.append((map, model))
        StorageHashTreeTests.check(map, model)
      }
    }
    StorageHashTreeTests.check(map, model)
    for (copy, copyModel) in copies { StorageHashTreeTests.check(copy, copyModel) }
    // A run of equal hashes longer than a leaf.
    var run = _HashTree<StorageHashTreeTests.CollidingKey, Int>()
    var runModel: [StorageHashTreeTests.CollidingKey: Int] = [:]
    for i in 0..<200 {
      let k = StorageHashTreeTests.CollidingKey(value: i, bucket: i % 2)
      run.insertAbsent(k, hash: _HashTree<StorageHashTreeTests.CollidingKey, Int>.hash(k)).initialize(to: i)
      runModel[k] = i
    }
    StorageHashTreeTests.check(run, runModel)
  }

  @Test func entryAddressSurvivesInPlaceChangesOfOtherKeys() {
    // What the snapshot relies on: an address from `uniqueEntry`/`insertIfAbsent` stays valid
    // while other keys change in place, even when those changes copy their shared paths.
    var map = Map()
    for i in 0..<3000 { map.updateValue(i, forKey: Self.key(i)) }
    let copy = map
    let k = Self.key(1234)
    let entry = map.uniqueEntry(k, hash: Map.hash(k))!
    for i in stride(from: 0, to: 3000, by: 7) where i != 1234 {
      map.modify(Self.key(i), hash: Map.hash(Self.key(i))) { $0 += 10_000 }
    }
    entry.pointee = -1
    #expect(map[k] == -1)
    #expect(copy[k] == 1234)
    let fresh = Self.key(5000)
    let inserted = map.insertIfAbsent(0, forKey: fresh, hash: Map.hash(fresh))!
    for i in stride(from: 1, to: 3000, by: 11) { map.modify(Self.key(i), hash: Map.hash(Self.key(i))) { $0 += 1 } }
    inserted.pointee = 42
    #expect(map[fresh] == 42)
    #expect(copy[fresh] == nil)
    map._checkInvariants()
    copy._checkInvariants()
  }

  @Test func failedInsertLeavesTheValueAndReleasesTheArgument() {
    final class Box: Sendable {}
    var map = _HashTree<Int, Box>()
    let kept = Box()
    map.updateValue(kept, forKey: 1)
    weak var refused: Box?
    do {
      let box = Box()
      refused = box
      #expect(map.insertIfAbsent(box, forKey: 1, hash: _HashTree<Int, Box>.hash(1)) == nil)
    }
    #expect(refused == nil)
    #expect(map[1] === kept)
  }

  @Test func pathCopiesOwnTheElementsTheyCopy() {
    // Path copies copy elements one by one (`_copyElements`): a copied node must hold its own
    // references (heap strings, arrays, child nodes), so the copy outlives the original.
    func key(_ i: Int) -> String { "a key long enough to live on the heap \(i)" }
    var map = _HashTree<String, [Int]>()
    for i in 0..<2000 { map.updateValue([i], forKey: key(i)) }
    var copy = map
    for i in stride(from: 0, to: 2000, by: 3) { copy.modify(key(i)) { $0.append(-1) } }
    map = _HashTree()
    for i in 0..<2000 { #expect(copy[key(i)] == (i % 3 == 0 ? [i, -1] : [i])) }
    copy._checkInvariants()

    var tree = _OrderedTree<String>()
    var relabeled: [(String, UInt64)] = []
    for i in 0..<600 { tree.insert(key(i), w1: 1, w2: 1, at: i, relabeled: &relabeled) }
    var treeCopy = tree
    let label = treeCopy.label(at: 300)!
    treeCopy.adjustWeights(label: label, w1: 4, w2: 0)
    tree = _OrderedTree()
    #expect(treeCopy.ids == (0..<600).map(key))
    #expect(treeCopy.w1 == 604)
    #expect(copyElementsMatchesTheSource())
  }

  /// Trivial elements keep the bulk copy; others are copied one at a time with the same result.
  func copyElementsMatchesTheSource() -> Bool {
    var ints = [1, 2, 3]
    var strings = ["x", "a string long enough to live on the heap", "z"]
    let intTarget = UnsafeMutablePointer<Int>.allocate(capacity: 3)
    let stringTarget = UnsafeMutablePointer<String>.allocate(capacity: 3)
    defer {
      intTarget.deallocate()
      stringTarget.deinitialize(count: 3)
      stringTarget.deallocate()
    }
    ints.withUnsafeMutableBufferPointer { _copyElements(from: $0.baseAddress!, to: intTarget, count: 3) }
    strings.withUnsafeMutableBufferPointer { _copyElements(from: $0.baseAddress!, to: stringTarget, count: 3) }
    strings = []
    return Array(UnsafeBufferPointer(start: intTarget, count: 3)) == ints
      && Array(UnsafeBufferPointer(start: stringTarget, count: 3)) == ["x", "a string long enough to live on the heap", "z"]
  }
}
