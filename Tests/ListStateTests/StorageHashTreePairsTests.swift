import Testing

@testable import ListState

/// `_HashTree.forEachCommonKey(with:_:)` and `ListSnapshot._forEachChangedItem(comparedTo:_:)`
/// against dictionaries: maps that share storage (an edited copy) and maps built apart, with
/// colliding hashes.
@Suite struct StorageHashTreePairsTests {
  typealias CollidingKey = StorageHashTreeTests.CollidingKey

  /// Every reported pair is a common key's two values, each key at most once; every common key
  /// whose values differ is reported; with `expectAll`, every common key is.
  static func check<K: Hashable & Sendable>(
    _ a: _HashTree<K, Int>, _ modelA: [K: Int], _ b: _HashTree<K, Int>, _ modelB: [K: Int], expectAll: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    // Values carry their key (value = key number * 1000 + version) so a pair names its key.
    var reported: [Int: (Int, Int)] = [:]
    a.forEachCommonKey(with: b) { x, y in
      #expect(x / 1000 == y / 1000, sourceLocation: sourceLocation)
      #expect(reported.updateValue((x, y), forKey: x / 1000) == nil, "reported twice", sourceLocation: sourceLocation)
    }
    var common = 0
    for (key, x) in modelA {
      guard let y = modelB[key] else { continue }
      common += 1
      let pair = reported[x / 1000]
      if let pair { #expect(pair == (x, y), sourceLocation: sourceLocation) }
      if x != y || expectAll { #expect(pair != nil, "\(key) missing", sourceLocation: sourceLocation) }
    }
    #expect(reported.count <= common, sourceLocation: sourceLocation)
  }

  static func run<K: Hashable & Sendable>(seed: UInt64, sizes: [Int] = [0, 1, 50, 700, 3000], key: (Int) -> K) {
    var rng = StorageOrderedTreeTests.Rng(state: seed)
    for round in 0..<30 {
      var map = _HashTree<K, Int>()
      var model: [K: Int] = [:]
      let size = sizes[round % sizes.count]
      for _ in 0..<size {
        let n = rng.int(size * 2 + 1)
        map.updateValue(n * 1000, forKey: key(n))
        model[key(n)] = n * 1000
      }
      // An edited copy (shares every leaf it does not touch).
      var edited = map, editedModel = model
      for _ in 0..<rng.int(40) {
        let n = rng.int(size * 2 + 20)
        switch rng.int(3) {
        case 0:
          let version = n * 1000 + 1 + rng.int(9)
          edited.updateValue(version, forKey: key(n))
          editedModel[key(n)] = version
        case 1:
          edited.removeValue(forKey: key(n))
          editedModel[key(n)] = nil
        default:
          // Same value written back: a copied leaf with equal values is still compared.
          if let value = editedModel[key(n)] { edited.updateValue(value, forKey: key(n)) }
        }
      }
      check(map, model, edited, editedModel, expectAll: false)
      check(edited, editedModel, map, model, expectAll: false)
      // The same contents built apart: nothing shared, every common key reported.
      var rebuilt = _HashTree<K, Int>()
      for (k, v) in editedModel.shuffled() { rebuilt.updateValue(v, forKey: k) }
      check(map, model, rebuilt, editedModel, expectAll: true)
      check(map, model, map, model, expectAll: false)
    }
  }

  @Test func commonKeysOfEditedCopiesAndRebuiltMaps() {
    Self.run(seed: 11) { $0 }
  }

  @Test func commonKeysWithCollidingHashes() {
    Self.run(seed: 12) { CollidingKey(value: $0, bucket: $0 % 5) }
    // One hash for all: every key in one oversized leaf (quadratic to build, so smaller).
    Self.run(seed: 13, sizes: [0, 1, 50, 200]) { CollidingKey(value: $0, bucket: 0) }
  }

  struct Row: ListElement {
    var id: Int
    var content: Int
  }

  @Test func changedItemsOfSnapshots() throws {
    var rng = StorageOrderedTreeTests.Rng(state: 14)
    for _ in 0..<40 {
      var old = ListSnapshot<String, Row>()
      try old.appendSections(["a", "b"])
      let count = rng.int(400)
      try old.appendItems((0..<count).map { Row(id: $0, content: 0) }, toSection: "a")
      for id in 0..<count where id > 0 && rng.int(4) == 0 {
        try old.moveItem(id, underParent: rng.int(id))
      }
      var new = old
      var expected: [Int: (Row, Bool, Row, Bool)] = [:]
      for _ in 0..<rng.int(30) where count > 0 {
        let id = rng.int(count)
        guard new.contains(item: id) else { continue }
        switch rng.int(5) {
        case 0: try new.updateItem(Row(id: id, content: rng.int(3)))
        case 1: try new.expand([id])
        case 2: try new.collapse([id])
        case 3: try new.moveItem(id, toSection: "b")  // position only: not a change
        default: try new.deleteItems([id])
        }
      }
      try new.appendItems([Row(id: 10_000, content: 0)], toSection: "b")
      for id in 0..<count {
        guard let a = old.item(id), let b = new.item(id) else { continue }
        if a != b || old.isExpanded(id) != new.isExpanded(id) {
          expected[id] = (a, old.isExpanded(id), b, new.isExpanded(id))
        }
      }
      // Shared storage (an edited copy) and storage built apart must give the same answer.
      var rebuilt = ListSnapshot<String, Row>()
      try rebuilt.appendSections(["a", "b"])
      for section in ["a", "b"] {
        if let outline = new.outline(ofSection: section) { try rebuilt.append(outline, toSection: section) }
      }
      for other in [new, rebuilt] {
        var seen: [Int: (Row, Bool, Row, Bool)] = [:]
        old._forEachChangedItem(comparedTo: other) { a, aExpanded, b, bExpanded in
          #expect(seen.updateValue((a, aExpanded, b, bExpanded), forKey: a.id) == nil)
        }
        #expect(seen.keys.sorted() == expected.keys.sorted())
        for (id, change) in expected {
          #expect(seen[id].map { $0 == change } == true)
        }
      }
    }
  }
}
