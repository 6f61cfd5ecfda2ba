import Testing

@testable import ListState

/// Unit tests of the persistent B+tree (`_OrderedTree`) against a plain array, with invariants
/// checked after every step.
@Suite struct StorageOrderedTreeTests {
  typealias Tree = _OrderedTree<Int>

  /// A deterministic generator so that failures reproduce.
  struct Rng {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      var z = state
      z = (z ^ (z >> 33)) &* 0xff51afd7ed558ccd
      return z ^ (z >> 33)
    }
    mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }

  /// Inserts one entry at `index` in both the tree and the model, applying relabels.
  static func insert(_ id: Int, w1: Int, w2: Int, at index: Int, tree: inout Tree, model: inout [(id: Int, w1: Int, w2: Int)]) {
    var relabeled: [(Int, UInt64)] = []
    tree.insert(contentsOf: [.init(id: id, w1: w1, w2: w2)], at: index, relabeled: &relabeled)
    model.insert((id, w1, w2), at: index)
  }

  static func check(_ tree: Tree, _ model: [(id: Int, w1: Int, w2: Int)]) {
    tree._checkInvariants()
    #expect(tree.count == model.count)
    #expect(tree.ids == model.map(\.id))
    #expect(tree.w1 == model.reduce(0) { $0 + $1.w1 })
    #expect(tree.w2 == model.reduce(0) { $0 + $1.w2 })
  }

  @Test func randomInsertRemoveAdjustMatchesArray() {
    var rng = Rng(state: 42)
    var tree = Tree()
    var model: [(id: Int, w1: Int, w2: Int)] = []
    var nextID = 0
    for step in 0..<4000 {
      let action = rng.int(10)
      if action < 6 || model.isEmpty {
        Self.insert(nextID, w1: 1 + rng.int(3), w2: rng.int(3), at: rng.int(model.count + 1), tree: &tree, model: &model)
        nextID += 1
      } else if action < 9 {
        let index = rng.int(model.count)
        let label = tree.entry(at: index).label
        let removed = tree.remove(label: label)
        #expect(removed?.id == model[index].id)
        model.remove(at: index)
      } else {
        let index = rng.int(model.count)
        let label = tree.entry(at: index).label
        tree.adjustWeights(label: label, w1: 2, w2: 1)
        model[index].w1 += 2
        model[index].w2 += 1
      }
      if step % 97 == 0 { Self.check(tree, model) }
    }
    Self.check(tree, model)
    // rank, entry(at:) and weight selection agree with the array.
    var prefix1 = 0
    var prefix2 = 0
    for (index, element) in model.enumerated() {
      let entry = tree.entry(at: index)
      #expect(entry.id == element.id)
      let rank = tree.rank(ofLabel: entry.label)
      #expect(rank?.index == index && rank?.w1 == prefix1 && rank?.w2 == prefix2)
      let byW1 = tree.entry(atW1Offset: prefix1)
      #expect(byW1.entry.id == element.id && byW1.remainder == 0)
      if element.w2 > 0 {
        let byW2 = tree.entry(atW2Offset: prefix2 + element.w2 - 1)
        #expect(byW2.entry.id == element.id && byW2.remainder == element.w2 - 1)
      }
      prefix1 += element.w1
      prefix2 += element.w2
    }
  }

  @Test func copiesAreIndependent() {
    var tree = Tree()
    var model: [(id: Int, w1: Int, w2: Int)] = []
    for i in 0..<1000 { Self.insert(i, w1: 1, w2: 1, at: i, tree: &tree, model: &model) }
    let frozen = tree
    let frozenModel = model
    var rng = Rng(state: 7)
    for i in 1000..<1500 { Self.insert(i, w1: 1, w2: 1, at: rng.int(model.count + 1), tree: &tree, model: &model) }
    for _ in 0..<300 {
      let index = rng.int(model.count)
      tree.remove(label: tree.entry(at: index).label)
      model.remove(at: index)
    }
    Self.check(tree, model)
    Self.check(frozen, frozenModel)
  }

  /// Adversarial label patterns: always at the front, always at the same spot, always at the
  /// back; labels must stay strictly increasing and relabels must be reported for every moved
  /// label.
  @Test(arguments: ["front", "sameSpot", "back", "middle"])
  func adversarialInsertionsRelabelCorrectly(pattern: String) {
    var tree = Tree()
    var model: [(id: Int, w1: Int, w2: Int)] = []
    var labels: [Int: UInt64] = [:]
    let count = 3000
    for id in 0..<count {
      let index: Int
      switch pattern {
      case "front": index = 0
      case "sameSpot": index = min(model.count, 1)
      case "back": index = model.count
      default: index = model.count / 2
      }
      var relabeled: [(Int, UInt64)] = []
      let new = tree.insert(contentsOf: [.init(id: id, w1: 1, w2: 1)], at: index, relabeled: &relabeled)
      model.insert((id, 1, 1), at: index)
      labels[id] = new[0]
      for (relabeledID, label) in relabeled { labels[relabeledID] = label }
    }
    Self.check(tree, model)
    tree.forEach { entry in #expect(labels[entry.id] == entry.label) }
  }

  @Test func bulkRunsAndBulkBuild() {
    var tree = Tree()
    var model: [(id: Int, w1: Int, w2: Int)] = []
    var relabeled: [(Int, UInt64)] = []
    tree.insert(contentsOf: (0..<500).map { .init(id: $0, w1: 1, w2: 1) }, at: 0, relabeled: &relabeled)
    model.append(contentsOf: (0..<500).map { ($0, 1, 1) })
    Self.check(tree, model)
    // A large run in the middle, then again at the same spot until labels run out of room.
    for round in 0..<80 {
      let run = (0..<50).map { 1000 + round * 50 + $0 }
      tree.insert(contentsOf: run.map { .init(id: $0, w1: 1, w2: 1) }, at: 250, relabeled: &relabeled)
      model.insert(contentsOf: run.map { ($0, 1, 1) }, at: 250)
    }
    Self.check(tree, model)
    let built = Tree(sortedEntries: (0..<10_000).map { .init(label: UInt64($0) * 8 + 1, id: $0, w1: 1, w2: 2) })
    built._checkInvariants()
    #expect(built.count == 10_000 && built.w2 == 20_000)
    #expect(built.rank(ofLabel: 8 * 5000 + 1)?.index == 5000)
    #expect(built.lowerBound(ofLabel: 8 * 5000) == 5000)
  }

  @Test func removingEverythingEmptiesTheTree() {
    var tree = Tree()
    var model: [(id: Int, w1: Int, w2: Int)] = []
    for i in 0..<2000 { Self.insert(i, w1: 1, w2: 1, at: i, tree: &tree, model: &model) }
    var rng = Rng(state: 3)
    while !model.isEmpty {
      let index = rng.int(model.count)
      tree.remove(label: tree.entry(at: index).label)
      model.remove(at: index)
      if model.count % 250 == 0 { Self.check(tree, model) }
    }
    #expect(tree.isEmpty)
    #expect(tree.remove(label: 5) == nil)
  }
}

/// The node search must agree with a linear scan on even, skewed and clustered keys.
@Suite struct StorageSortedSearchTests {
  @Test func agreesWithLinearScan() {
    var rng = StorageOrderedTreeTests.Rng(state: 5)
    let shapes: [(Int) -> UInt64] = [
      { UInt64($0) * 1000 },
      { UInt64(1) << UInt64(min($0, 63)) },
      { $0 < 40 ? UInt64($0) : UInt64.max - UInt64(200 - $0) },
      { _ in 0 },
    ]
    for shape in shapes {
      for count in [0, 1, 2, 7, 9, 33, 64, 200] {
        let keys = (0..<count).map(shape).sorted()
        var probes: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1]
        for key in keys { probes += [key, key &- 1, key &+ 1] }
        for _ in 0..<50 { probes.append(rng.next()) }
        keys.withUnsafeBufferPointer { buffer in
          for probe in probes {
            let expected = keys.firstIndex { $0 >= probe } ?? keys.count
            #expect(_SortedSearch.lowerBound(buffer, probe) == expected)
            let last = (keys.lastIndex { $0 <= probe }) ?? 0
            if !keys.isEmpty { #expect(_SortedSearch.lastNotAbove(buffer, probe) == last) }
          }
        }
      }
    }
  }
}
