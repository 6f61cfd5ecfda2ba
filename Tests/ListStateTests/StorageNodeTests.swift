import Testing

@testable import ListState

/// Unit tests of the single-allocation storage nodes and the paths built on them: the searches
/// from an interpolated guess, the one-descent insertion at an index (with adversarial
/// relabelling), leaf growth and merging, hash leaves with unordered entries (with colliding
/// hashes across leaf boundaries), the small-map search by key bytes, and the reload stamps.
@Suite struct StorageNodeTests {
  typealias Rng = StorageOrderedTreeTests.Rng

  // MARK: - Searching from a guess

  @Test func searchFromAnyGuessAgreesWithLinearScan() {
    var rng = Rng(state: 11)
    for stride in [1, 2, 3] {
      for count in [0, 1, 2, 5, 16, 33, 64] {
        // Strided keys, with runs of equal keys and a skewed tail.
        var keys: [UInt64] = []
        var key: UInt64 = 0
        for i in 0..<count {
          key &+= i % 5 == 0 ? 0 : (i > count / 2 ? 1 << 40 : UInt64(1 + rng.int(1000)))
          keys.append(key)
        }
        var memory = [UInt64](repeating: .max, count: max(count * stride, 1))
        for (i, key) in keys.enumerated() { memory[i * stride] = key }
        var probes: [UInt64] = [0, .max, 1]
        for key in keys { probes += [key, key &- 1, key &+ 1] }
        memory.withUnsafeBufferPointer { buffer in
          for probe in probes {
            let expected = keys.firstIndex { $0 >= probe } ?? count
            let last = keys.lastIndex { $0 <= probe } ?? 0
            for guess in [-3, 0, count / 2, count - 1, count, count + 7, rng.int(count + 1)] {
              #expect(
                _SortedSearch.lowerBound(buffer.baseAddress!, stride: stride, count: count, probe, guess: guess)
                  == expected)
              if count > 0 {
                #expect(
                  _SortedSearch.lastNotAbove(buffer.baseAddress!, stride: stride, count: count, probe, guess: guess)
                    == last)
              }
            }
          }
        }
      }
    }
  }

  @Test func nodeSearchesAgreeWithLinearScan() {
    // Each tree's descents search with their own inlinable copy of the interpolated search.
    var rng = Rng(state: 13)
    for stride in [2, 3] {
      for count in [0, 1, 2, 5, 16, 33] {
        var keys: [UInt64] = []
        var key: UInt64 = UInt64(rng.int(100))
        for i in 0..<count {
          key &+= i % 4 == 0 ? 0 : UInt64(1 + rng.int(1 << 20))
          keys.append(key)
        }
        var memory = [UInt64](repeating: .max, count: max(count * stride, 1))
        for (i, key) in keys.enumerated() { memory[i * stride] = key }
        var probes: [UInt64] = [0, .max, 1]
        for key in keys { probes += [key, key &- 1, key &+ 1] }
        memory.withUnsafeBufferPointer { buffer in
          let base = buffer.baseAddress!
          for probe in probes {
            let expected = keys.firstIndex { $0 >= probe } ?? count
            let last = keys.lastIndex { $0 <= probe } ?? 0
            for (low, high) in [(UInt64(0), UInt64.max), (keys.first ?? 0, keys.last ?? 0), (probe, probe &+ 9)] {
              #expect(_HashNodeAddress.lowerBound(base, stride: stride, count: count, probe, low: low, high: high) == expected)
              #expect(_OrderedNodeAddress.lowerBound(base, stride: stride, count: count, probe, low: low, high: high) == expected)
              if count > 0 {
                #expect(_HashNodeAddress.lastNotAbove(base, stride: stride, count: count, probe, low: low, high: high) == last)
                #expect(_OrderedNodeAddress.lastNotAbove(base, stride: stride, count: count, probe, low: low, high: high) == last)
              }
            }
          }
        }
      }
    }
  }

  @Test func interpolatedGuessStaysInRange() {
    for count in [1, 2, 31] {
      for (key, low, high) in [(0, 0, 0), (5, 10, 20), (25, 10, 20), (15, 10, 20), (UInt64.max, 0, UInt64.max)]
        as [(UInt64, UInt64, UInt64)]
      {
        let guess = _SortedSearch.guess(key, low: low, high: high, count: count)
        #expect(guess >= 0 && guess < count)
      }
    }
  }

  // MARK: - Ordered tree

  typealias Tree = _OrderedTree<Int>

  /// Inserts at `index` through the one-descent path, tracking every label handed out or
  /// changed, and checks the tree against the array after each step.
  static func insertOne(
    _ id: Int, at index: Int, tree: inout Tree, model: inout [Int], labels: inout [Int: UInt64]
  ) {
    var relabeled: [(Int, UInt64)] = []
    labels[id] = tree.insert(id, w1: 1 + id % 3, w2: id % 2, at: index, relabeled: &relabeled)
    for (other, label) in relabeled { labels[other] = label }
    model.insert(id, at: index)
  }

  static func check(_ tree: Tree, _ model: [Int], _ labels: [Int: UInt64]) {
    tree._checkInvariants()
    #expect(tree.ids == model)
    #expect(tree.w1 == model.reduce(0) { $0 + 1 + $1 % 3 })
    tree.forEach { entry in #expect(labels[entry.id] == entry.label) }
  }

  @Test(arguments: ["front", "sameSpot", "back", "middle", "alternating", "random"])
  func insertAtIndexRelabelsAdversarialPatterns(pattern: String) {
    var rng = Rng(state: 21)
    var tree = Tree()
    var model: [Int] = []
    var labels: [Int: UInt64] = [:]
    for id in 0..<3000 {
      let index: Int
      switch pattern {
      case "front": index = 0
      case "sameSpot": index = min(model.count, 7)
      case "back": index = model.count
      case "middle": index = model.count / 2
      case "alternating": index = id % 2 == 0 ? 0 : model.count
      default: index = rng.int(model.count + 1)
      }
      Self.insertOne(id, at: index, tree: &tree, model: &model, labels: &labels)
      if id % 499 == 0 { Self.check(tree, model, labels) }
    }
    Self.check(tree, model, labels)
    // Ranks agree with positions.
    for (index, id) in model.enumerated() where index % 37 == 0 {
      #expect(tree.rank(ofLabel: labels[id]!)?.index == index)
      #expect(tree.neighbourLabels(at: index).after == labels[id])
    }
  }

  @Test func smallLeavesGrowMergeAndEmpty() {
    // Many small sibling sequences (an item's children): a leaf starts at two slots and grows.
    var trees = [Tree](repeating: Tree(), count: 50)
    var models = [[Int]](repeating: [], count: 50)
    var labels: [Int: UInt64] = [:]
    var rng = Rng(state: 5)
    var id = 0
    for _ in 0..<4000 {
      let t = rng.int(trees.count)
      if rng.int(3) > 0 || models[t].isEmpty {
        Self.insertOne(id, at: rng.int(models[t].count + 1), tree: &trees[t], model: &models[t], labels: &labels)
        id += 1
      } else {
        let index = rng.int(models[t].count)
        let removed = trees[t].remove(label: labels[models[t][index]]!)
        #expect(removed?.id == models[t][index])
        models[t].remove(at: index)
      }
    }
    for t in trees.indices { Self.check(trees[t], models[t], labels) }
    // Emptying one completely, through merges of underfull leaves.
    var tree = trees.max { $0.count < $1.count }!
    var model = models[trees.firstIndex { $0.isIdentical(to: tree) }!]
    let frozen = tree
    let frozenModel = model
    while let last = model.popLast() {
      tree.remove(label: labels[last]!)
      if model.count % 17 == 0 { Self.check(tree, model, labels) }
    }
    #expect(tree.isEmpty)
    Self.check(frozen, frozenModel, labels)  // the shared nodes were copied, not changed
  }

  @Test func readOnlyDescentsMatchTheArrayOnDeepTrees() {
    // Deep enough for several internal levels (slot counts in parents, heights).
    var rng = Rng(state: 8)
    var tree = Tree()
    var model: [Int] = []
    var labels: [Int: UInt64] = [:]
    for id in 0..<20_000 { Self.insertOne(id, at: rng.int(model.count + 1), tree: &tree, model: &model, labels: &labels) }
    Self.check(tree, model, labels)
    var w1 = 0
    for (index, id) in model.enumerated() {
      if index % 53 == 0 {
        #expect(tree.entry(at: index).id == id)
        #expect(tree.label(at: index) == labels[id])
        #expect(tree.lowerBound(ofLabel: labels[id]!) == index)
        let rank = tree.rank(ofLabel: labels[id]!)
        #expect(rank?.index == index && rank?.w1 == w1)
        let covering = tree.entry(atW1Offset: w1)
        #expect(covering.entry.id == id && covering.remainder == 0 && covering.index == index)
      }
      w1 += 1 + id % 3
    }
    #expect(tree.rank(ofLabel: 3) == nil)
  }

  // MARK: - Hash tree

  /// A key whose hash is only `bucket`: many keys share a hash.
  typealias CollidingKey = StorageHashTreeTests.CollidingKey

  @Test func collisionRunsAcrossLeavesWithUnorderedEntries() {
    // Runs of equal hashes longer than a leaf, next to ordinary keys; insert, modify through a
    // precomputed hash, remove down to nothing (merges and redistribution between leaves).
    var map = _HashTree<CollidingKey, Int>()
    var model: [CollidingKey: Int] = [:]
    var rng = Rng(state: 13)
    var snapshots: [(_HashTree<CollidingKey, Int>, [CollidingKey: Int])] = []
    for step in 0..<8000 {
      let value = rng.int(3000)
      let key = CollidingKey(value: value, bucket: value % 3 == 0 ? 7 : value)
      switch rng.int(5) {
      case 0, 1, 2:
        #expect(map.updateValue(step, forKey: key) == model.updateValue(step, forKey: key))
      case 3:
        #expect(map.removeValue(forKey: key) == model.removeValue(forKey: key))
      default:
        let hash = _HashTree<CollidingKey, Int>.hash(key)
        let changed = map.modifyIfPresent(key, hash: hash) { $0 += 1 }
        #expect((changed != nil) == (model[key] != nil))
        if model[key] != nil { model[key]! += 1 }
        #expect(map.peek(key, hash: hash) { $0 } == model[key])
      }
      if step % 1000 == 0 { snapshots.append((map, model)) }
    }
    StorageHashTreeTests.check(map, model)
    for (old, oldModel) in snapshots { StorageHashTreeTests.check(old, oldModel) }
    for key in Array(model.keys) {
      map.removeValue(forKey: key)
      model[key] = nil
      if model.count % 500 == 0 { StorageHashTreeTests.check(map, model) }
    }
    #expect(map.isEmpty)
  }

  @Test func smallMapsFindEqualKeysWithDifferentBytes() {
    // The small-map search compares key bytes first; equal keys with different bytes (a
    // precomposed and a decomposed "é", a small and a heap string) must still be found.
    var map = _HashTree<String, Int>()
    map.updateValue(1, forKey: "caf\u{E9}")
    map.updateValue(2, forKey: "a string long enough to live on the heap")
    #expect(map.peek("cafe\u{301}") { $0 } == 1)
    #expect(map.modifyIfPresent("cafe\u{301}") { $0 += 10 } != nil)
    #expect(map["caf\u{E9}"] == 11)
    let heap = String(["a string long enough", "to live on the heap"].joined(separator: " "))
    #expect(map.peek(heap) { $0 } == 2)
    #expect(map.contains("missing") == false)
    map._checkInvariants()
  }

  @Test func hashSetKeepsItsElements() {
    var set = _HashSet<Int>()
    for i in 0..<500 { set.insert(i * 3) }
    for i in 0..<100 { set.remove(i * 6) }
    #expect(set.count == 400)
    #expect(Set(set) == Set((0..<500).map { $0 * 3 }).subtracting((0..<100).map { $0 * 6 }))
    set.tree._checkInvariants()
  }

  // MARK: - Reload stamps

  @Test func reloadStampsFollowTheMarkers() throws {
    var snapshot = try ListSnapshot<String, Int>(section: "A", items: Array(0..<200))
    try snapshot.updateItem(5)
    try snapshot.updateItem(5)  // already stamped: the set is not touched again
    try snapshot.reloadItems([6, 7])
    #expect(snapshot.reloadedItemIdentifiers == [5, 6, 7])
    try snapshot.deleteItems([6])
    try snapshot.deleteItems([8])  // unmarked
    #expect(snapshot.reloadedItemIdentifiers == [5, 7])
    let markers = snapshot._markers
    snapshot.clearMarkers()
    #expect(snapshot.reloadedItemIdentifiers.isEmpty)
    try snapshot.updateItem(7)  // stale stamp from before the clear: marked again
    #expect(snapshot.reloadedItemIdentifiers == [7])
    snapshot._checkAllInvariants()
    snapshot._markers = markers
    #expect(snapshot.reloadedItemIdentifiers == [5, 7])
    try snapshot.replaceItem(5, with: 500)
    #expect(snapshot.reloadedItemIdentifiers == [500, 7])
    snapshot._checkAllInvariants()
    #expect(ListSnapshot<String, Int>._nextMarkerEpoch(after: (1 << 48) - 1) == 0)
    #expect(ListSnapshot<String, Int>._nextMarkerEpoch(after: 0) == 0)
  }

  // MARK: - Layouts computed by hand

  /// The entry layout computed from the key's and value's layouts (what the hash map's
  /// unspecialized code uses instead of the entry type's metadata) is the compiler's.
  static func expectEntryLayout<K: Hashable & Sendable, V: Sendable>(_: K.Type, _: V.Type) {
    typealias Item = _HashItem<K, V>
    #expect(Item.valueOffset == MemoryLayout<Item>.offset(of: \Item.value))
    #expect(MemoryLayout<Item>.offset(of: \Item.key) == 0)
    #expect(Item.entryStride == MemoryLayout<Item>.stride)
    #expect(Item.alignment == MemoryLayout<Item>.alignment)
  }

  struct Wide: Hashable, Sendable {
    var a: (UInt8, UInt64, UInt8) = (1, 2, 3)
    static func == (x: Self, y: Self) -> Bool { x.a == y.a }
    func hash(into hasher: inout Hasher) { hasher.combine(a.1) }
  }

  @Test func handComputedLayoutsMatchTheCompilers() {
    Self.expectEntryLayout(Int.self, Int.self)
    Self.expectEntryLayout(UInt8.self, Int.self)
    Self.expectEntryLayout(UInt8.self, UInt8.self)
    Self.expectEntryLayout(Int32.self, Void.self)
    Self.expectEntryLayout(String.self, _ItemRecord<String, String>.self)
    Self.expectEntryLayout(UInt8.self, _ItemRecord<Int, UInt8>.self)
    Self.expectEntryLayout(Wide.self, UInt8.self)
    Self.expectEntryLayout(UInt16.self, _SectionRecord<String, Int>.self)
    // Branch slots are read as words whatever their generic parameters: child, smallest hash,
    // slot count.
    typealias Slot = _HashBranchSlot<String, Int>
    #expect(MemoryLayout<Slot>.offset(of: \Slot.minHash) == 8)
    #expect(MemoryLayout<Slot>.offset(of: \Slot.count) == 16)
    #expect(MemoryLayout<Slot>.stride == _HashNodeAddress.branchSlotStride)
    // Nodes are reached by address with `ManagedBuffer`'s offsets.
    let hashNode = _HashNode<String, Int>.make(height: 0, capacity: 4)
    hashNode.withUnsafeMutablePointers { header, elements in
      #expect(UnsafeMutableRawPointer(header) == UnsafeMutableRawPointer(hashNode.address.header))
      #expect(UnsafeMutableRawPointer(elements) == hashNode.address.base)
    }
    let orderedNode = _OrderedNode<String>.make(height: 1, capacity: 4)
    orderedNode.withUnsafeMutablePointers { header, elements in
      #expect(UnsafeMutableRawPointer(header) == UnsafeMutableRawPointer(orderedNode.address.shape))
      #expect(UnsafeMutableRawPointer(elements) == orderedNode.base)
    }
  }

  /// The record field offsets the bulk insertions write through are the compiler's.
  static func expectRecordLayout<I: ListElement, S: Hashable & Sendable>(_: I.Type, _: S.Type) {
    typealias Record = _ItemRecord<I, S>
    let offsets = Record.fieldOffsets
    #expect(MemoryLayout<Record>.offset(of: \Record.value) == 0)
    #expect(MemoryLayout<Record>.offset(of: \Record.label) == offsets.label)
    #expect(MemoryLayout<Record>.offset(of: \Record.children) == offsets.children)
    #expect(MemoryLayout<Record>.offset(of: \Record.container) == offsets.container)
    #expect(MemoryLayout<Record>.offset(of: \Record.isExpanded) == offsets.isExpanded)
    #expect(MemoryLayout<Record>.offset(of: \Record._stampHigh) == offsets.stampHigh)
    #expect(MemoryLayout<Record>.offset(of: \Record._stampLow) == offsets.stampLow)
  }

  /// An item of odd size and alignment (3 bytes, aligned to 2).
  struct Odd: ListElement {
    var id: Int16
    var flag: Bool
  }

  @Test func recordFieldOffsetsMatchTheCompilers() {
    Self.expectRecordLayout(Int.self, Int.self)
    Self.expectRecordLayout(String.self, String.self)
    Self.expectRecordLayout(Int32.self, UInt8.self)
    Self.expectRecordLayout(Odd.self, String.self)
    Self.expectRecordLayout(Odd.self, Int8.self)
    Self.expectRecordLayout(Int.self, Int8.self)
  }

  @Test func recordStampsFitInTheRecordsPadding() {
    #if arch(x86_64) || arch(arm64)
    // value, label, children and container take 34 bytes; the stamp uses the tail padding.
    #expect(MemoryLayout<_ItemRecord<Int, Int>>.stride == 40)
    #endif
  }
}
