import Testing

@testable import ListState

/// Unit tests of the persistent hash map (`_HashTree`) against `Dictionary`, including keys whose
/// hashes collide (runs of equal hashes must stay within one leaf).
@Suite struct StorageHashTreeTests {
  /// A key whose hash is only `bucket`: many keys share a hash.
  struct CollidingKey: Hashable, Sendable {
    var value: Int
    var bucket: Int
    static func == (a: Self, b: Self) -> Bool { a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(bucket) }
  }

  static func check<K: Hashable & Sendable>(_ map: _HashTree<K, Int>, _ model: [K: Int]) {
    map._checkInvariants()
    #expect(map.count == model.count)
    var seen = 0
    map.forEach { key, value in
      #expect(model[key] == value)
      seen += 1
    }
    #expect(seen == model.count)
  }

  static func run<K: Hashable & Sendable>(seed: UInt64, steps: Int, key: (Int) -> K) {
    var rng = StorageOrderedTreeTests.Rng(state: seed)
    var map = _HashTree<K, Int>()
    var model: [K: Int] = [:]
    var snapshots: [(_HashTree<K, Int>, [K: Int])] = []
    for step in 0..<steps {
      let k = key(rng.int(600))
      switch rng.int(4) {
      case 0, 1:
        let value = rng.int(1000)
        #expect(map.updateValue(value, forKey: k) == model.updateValue(value, forKey: k))
      case 2:
        #expect(map.removeValue(forKey: k) == model.removeValue(forKey: k))
      default:
        if model[k] != nil {
          map.modify(k) { $0 += 1 }
          model[k]! += 1
        }
        #expect(map[k] == model[k])
      }
      if step % 500 == 0 { snapshots.append((map, model)) }
    }
    check(map, model)
    for (old, oldModel) in snapshots { check(old, oldModel) }
  }

  @Test func randomOperationsMatchDictionary() {
    Self.run(seed: 1, steps: 6000) { $0 }
  }

  /// Removals move the last entry of a leaf into the hole, key and value apart: values of
  /// every size (a set's empty `()` included, whose stride is not its size) keep their entries.
  static func removeEveryThird<V: Sendable & Equatable>(_ value: V) {
    var map = _HashTree<Int, V>()
    for i in 0..<400 { map.updateValue(value, forKey: i) }
    for i in 0..<400 where i % 3 != 0 {
      #expect(map.removeValue(forKey: i) == value)
      if i % 7 == 0 { map._checkInvariants() }
    }
    map._checkInvariants()
    #expect(map.count == 134)
    for i in 0..<400 { #expect(map.contains(i) == (i % 3 == 0)) }
  }

  @Test func removalsKeepEntriesOfEverySize() {
    Self.removeEveryThird(0 as UInt8)
    Self.removeEveryThird(7 as Int)
    Self.removeEveryThird("a string long enough to live on the heap")
    var set = _HashSet<Int>()
    for i in 0..<400 { set.insert(i) }
    for i in 0..<400 where i % 3 != 0 {
      set.remove(i)
      if i % 7 == 0 { set.tree._checkInvariants() }
    }
    set.tree._checkInvariants()
    #expect(Set(set) == Set(stride(from: 0, to: 400, by: 3)))
  }

  /// The hash order of a bulk insertion is a stable sort by hash, whatever the sizes (merge
  /// sort, bucket sort) and however the hashes cluster (buckets of equal top bits fall back to
  /// a radix sort).
  @Test func hashOrderIsAStableSortByHash() {
    var rng = StorageOrderedTreeTests.Rng(state: 5)
    for count in [0, 1, 2, 7, 255, 256, 1000, 5000] {
      for spread in 0..<3 {
        var pairs: [(hash: UInt64, index: Int)] = (0..<count).map { index in
          let random = UInt64(rng.int(Int.max)) &* 0x9E37_79B9_7F4A_7C15
          switch spread {
          case 0: return (random, index)  // spread as Hasher spreads them
          case 1: return (random & 0xFFFF, index)  // one bucket: equal top bits
          default: return (UInt64(rng.int(5)), index)  // runs of equal hashes
          }
        }
        let expected = pairs.enumerated().sorted { a, b in
          a.element.hash != b.element.hash ? a.element.hash < b.element.hash : a.offset < b.offset
        }.map(\.element.index)
        _HashOrder.sort(&pairs)
        #expect(pairs.map(\.index) == expected)
      }
    }
  }

  @Test func collidingHashesStayCorrect() {
    Self.run(seed: 2, steps: 6000) { CollidingKey(value: $0, bucket: $0 % 7) }
    // A run of equal hashes longer than a leaf.
    Self.run(seed: 3, steps: 3000) { CollidingKey(value: $0, bucket: $0 % 2) }
  }

  @Test func bulkInsertIntoEmptyAndNonEmptyMaps() {
    var map = _HashTree<Int, Int>()
    var model: [Int: Int] = [:]
    let first = Array(0..<5000)
    map.insertNew(keys: first, sortedHashes: _HashTree<Int, Int>.sortedHashes(of: first)) { first[$0] * 2 }
    for key in first { model[key] = key * 2 }
    Self.check(map, model)
    let copy = map
    // Large relative to the map: merged rebuild.
    let second = Array(5000..<9000)
    map.insertNew(keys: second, sortedHashes: _HashTree<Int, Int>.sortedHashes(of: second)) { second[$0] }
    for key in second { model[key] = key }
    // Small: one by one.
    let third = Array(9000..<9100)
    map.insertNew(keys: third, sortedHashes: _HashTree<Int, Int>.sortedHashes(of: third)) { third[$0] }
    for key in third { model[key] = key }
    Self.check(map, model)
    #expect(copy.count == 5000 && copy[4999] == 9998 && copy[5000] == nil)
    let keys = [3, 9, 3, 12, 9, 9]
    let duplicates = _HashTree<Int, Int>.duplicateKeys(keys, sortedHashes: _HashTree<Int, Int>.sortedHashes(of: keys))
    #expect(duplicates == [3, 9])
  }
}
