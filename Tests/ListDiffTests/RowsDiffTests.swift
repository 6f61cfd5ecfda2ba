import ListDiff
import ListState
import TestSupport
import Testing

@Suite("Full diff over visible rows")
struct RowsDiffTests {
  typealias Rows = ListVisibleRows<Int, Int>
  let validator = ChangesetValidator()

  @Test func identicalRowsGiveNoStages() throws {
    let rows = Rows(sections: [0, 1], rows: [[10, 11], [12]])
    let changeset = ListChangeset(from: rows, to: rows)
    #expect(changeset.isEmpty)
    #expect(changeset.jsonDescription == #"{"stages":[]}"#)
  }

  @Test func moveInsertDeleteInOneSection() throws {
    let old = Rows(sections: [0], rows: [[1, 2, 3, 4]])
    let new = Rows(sections: [0], rows: [[4, 1, 2, 5]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    let stage = try #require(changeset.first)
    #expect(stage.itemDeletes == [ListIndexPath(section: 0, row: 2)])
    #expect(stage.itemInserts == [ListIndexPath(section: 0, row: 3)])
    #expect(stage.itemMoves == [ListMove(from: ListIndexPath(section: 0, row: 3), to: ListIndexPath(section: 0, row: 0))])
    #expect(stage.itemReloads.isEmpty)
    try validator.validate(changeset, from: old, to: new)
    #expect(changeset.lines == ["- deleted 3", "+ inserted 5", "→ moved 4"])
  }

  @Test func twoMovesInALongListAreTwoMoves() throws {
    let ids = Array(0..<1000)
    var moved = ids
    moved.swapAt(10, 900)
    let old = Rows(sections: [0], rows: [ids]), new = Rows(sections: [0], rows: [moved])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.numberOfItemMoves == 2)
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func movedRowWithNewContentIsReloadedInATrailingStage() throws {
    let old = Rows(sections: [0], rows: [[1, 2, 3]])
    let new = Rows(sections: [0], rows: [[3, 1, 2]])
    let changeset = ListChangeset(from: old, to: new, itemNeedsReload: { $0 == 3 || $0 == 1 })
    #expect(changeset.count == 2)
    #expect(changeset[0].itemMoves.count == 1)
    #expect(changeset[0].itemReloads == [ListIndexPath(section: 0, row: 0)])  // 1, not moved
    #expect(changeset[1].itemReloads == [ListIndexPath(section: 0, row: 0)])  // 3, at its final row
    try validator.validate(changeset, from: old, to: new, reloadedItems: [1, 3])
  }

  @Test func crossSectionMoveIsOneMove() throws {
    let old = Rows(sections: [0, 1], rows: [[1, 2], [3]])
    let new = Rows(sections: [0, 1], rows: [[2], [3, 1]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    #expect(changeset[0].itemMoves == [ListMove(from: ListIndexPath(section: 0, row: 0), to: ListIndexPath(section: 1, row: 1))])
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func sectionMoveAloneIsOneStage() throws {
    let old = Rows(sections: [0, 1, 2], rows: [[1], [2], [3]])
    let new = Rows(sections: [2, 0, 1], rows: [[3], [1], [2]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 1)
    #expect(changeset[0].sectionMoves == [ListMove(from: 2, to: 0)])
    #expect(changeset.jsonDescription == #"{"stages":[{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[{"from":2,"to":0}],"sectionReloads":[],"itemDeletes":[],"itemInserts":[],"itemMoves":[],"itemReloads":[],"itemReconfigures":[]}]}"#)
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func rowChangesInAMovedSectionSplitIntoRowsThenSections() throws {
    let old = Rows(sections: [0, 1], rows: [[1, 2], [3]])
    let new = Rows(sections: [1, 0], rows: [[3, 2], [1]])
    let changeset = ListChangeset(from: old, to: new)
    #expect(changeset.count == 2)
    #expect(changeset[0].sectionMoves.isEmpty && changeset[0].itemMoves.count == 1)
    #expect(changeset[1].sectionMoves.count == 1 && changeset[1].itemMoves.isEmpty)
    try validator.validate(changeset, from: old, to: new)
  }

  @Test func reloadedSectionTakesItsRowsWholesale() throws {
    let old = Rows(sections: [0, 1], rows: [[1, 2], [3]])
    let new = Rows(sections: [0, 1], rows: [[2, 1, 4], [3]])
    let changeset = ListChangeset(from: old, to: new, sectionNeedsReload: { $0 == 0 })
    #expect(changeset.count == 1)
    #expect(changeset[0].sectionReloads == [0])
    #expect(changeset[0].itemMoves.isEmpty && changeset[0].itemInserts.isEmpty)
    try validator.validate(changeset, from: old, to: new, reloadedSections: [0])
  }

  @Test func movedAndChangedSectionIsDeletedAndInserted() throws {
    let old = Rows(sections: [0, 1], rows: [[1], [2]])
    let new = Rows(sections: [1, 0], rows: [[2], [1]])
    let changeset = ListChangeset(from: old, to: new, sectionNeedsReload: { $0 == 1 })
    #expect(changeset[0].sectionDeletes == [1] && changeset[0].sectionInserts == [0])
    try validator.validate(changeset, from: old, to: new, reloadedSections: [1])
  }

  @Test(arguments: 0..<4)
  func randomPairsPassTheValidator(seedOffset: Int) throws {
    var generator = SeededRandom(seed: 0xD1FF_0000 + UInt64(seedOffset))
    for _ in 0..<SeededRandom.propertySteps(default: 600) {
      var nextID = 0
      let old = PlainModel.random(using: &generator, nextID: &nextID)
      var new = old
      for _ in 0..<Int.random(in: 1...3, using: &generator) { new = new.mutated(using: &generator, nextID: &nextID) }
      let changeset = old.changeset(to: new)
      let expected = old.expectedReloads(to: new)
      do {
        try validator.validate(
          changeset, from: old.visibleRows, to: new.visibleRows,
          reloadedSections: expected.sections, reloadedItems: expected.items)
      } catch {
        Issue.record("\(error)\nold: \(old.visibleRows)\nnew: \(new.visibleRows)\n\(changeset.jsonDescription)")
        return
      }
      #expect(changeset.count <= 3)
    }
  }

  @Test func rowMovesAreMinimal() throws {
    var generator = SeededRandom(seed: 0x5EED_0001)
    for _ in 0..<SeededRandom.propertySteps(default: 1500) {
      var nextID = 0
      let old = PlainModel.random(using: &generator, nextID: &nextID, maxRows: 12)
      let new = old.mutated(
        using: &generator, nextID: &nextID, options: .init(sectionChanges: false, contentChanges: false))
      let changeset = old.changeset(to: new)
      // Minimum: per section, common rows outside a longest increasing run; plus rows that changed section.
      var oldPlace = [Int: (section: Int, row: Int)]()
      for (section, rows) in old.rows.enumerated() {
        for (row, element) in rows.enumerated() { oldPlace[element.id] = (section, row) }
      }
      var minimum = 0
      for (section, rows) in new.rows.enumerated() {
        var sameSection: [Int] = []
        for element in rows {
          guard let place = oldPlace[element.id] else { continue }
          if place.section == section { sameSection.append(place.row) } else { minimum += 1 }
        }
        minimum += sameSection.count - naiveLISLength(sameSection)
      }
      #expect(changeset.numberOfItemMoves == minimum)
      #expect(changeset.count <= 1)
    }
  }

  @Test func sectionMovesAreMinimal() throws {
    var generator = SeededRandom(seed: 0x5EED_0002)
    for _ in 0..<SeededRandom.propertySteps(default: 1500) {
      let count = Int.random(in: 0...12, using: &generator)
      let old = Array(0..<count)
      var new = old.shuffled(using: &generator).filter { _ in Int.random(in: 0..<5, using: &generator) > 0 }
      new.insert(contentsOf: [100, 101].prefix(Int.random(in: 0...2, using: &generator)), at: new.isEmpty ? 0 : 1)
      let oldRows = Rows(sections: old, rows: old.map { [$0 + 1000] })
      let newRows = Rows(sections: new, rows: new.map { [$0 + 1000] })
      let changeset = ListChangeset(from: oldRows, to: newRows)
      let survivors = new.filter { $0 < 100 }
      #expect(changeset.numberOfSectionMoves == survivors.count - naiveLISLength(survivors))
      try validator.validate(changeset, from: oldRows, to: newRows)
    }
  }

  /// Long sections, where the matcher mostly pairs rows in place and hashes the rest: the bench's
  /// edit mix, long runs, block moves, shuffles, reversals and moves between sections. Each
  /// changeset passes the validator and its moves are the minimum.
  @Test func longSectionsPassTheValidatorWithMinimalMoves() throws {
    var generator = SeededRandom(seed: 0x5EED_0003)
    for round in 0..<SeededRandom.propertySteps(default: 40) {
      let sectionCount = Int.random(in: 1...4, using: &generator)
      var nextID = 0
      var old: [[Int]] = []
      for _ in 0..<sectionCount {
        let count = Int.random(in: 0...1500, using: &generator)
        old.append(Array(nextID..<(nextID + count)))
        nextID += count
      }
      var new = old
      var updated = Set<Int>()
      for section in new.indices {
        let count = new[section].count
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:  // a long run inserted
          let run = Array(nextID..<(nextID + Int.random(in: 1...400, using: &generator)))
          nextID += run.count
          new[section].insert(contentsOf: run, at: Int.random(in: 0...count, using: &generator))
        case 1:  // a block moved
          guard count > 2 else { break }
          let start = Int.random(in: 0..<count, using: &generator)
          let end = Int.random(in: start...count, using: &generator)
          let block = Array(new[section][start..<end])
          new[section].removeSubrange(start..<end)
          new[section].insert(contentsOf: block, at: Int.random(in: 0...new[section].count, using: &generator))
        case 2: new[section].shuffle(using: &generator)
        case 3: new[section].reverse()
        default: break
        }
        // The bench's mix on top: 10% deleted, 10% inserted, 2% moved (anywhere), 1% updated.
        for _ in 0..<(count / 10) where !new[section].isEmpty {
          new[section].remove(at: Int.random(in: new[section].indices, using: &generator))
        }
        for _ in 0..<(count / 10) {
          new[section].insert(nextID, at: Int.random(in: 0...new[section].count, using: &generator))
          nextID += 1
        }
        for _ in 0..<(count / 50) where !new[section].isEmpty {
          let id = new[section].remove(at: Int.random(in: new[section].indices, using: &generator))
          let target = Int.random(in: new.indices, using: &generator)
          new[target].insert(id, at: Int.random(in: 0...new[target].count, using: &generator))
        }
        for _ in 0..<(count / 100) where !new[section].isEmpty { updated.insert(new[section].randomElement(using: &generator)!) }
      }
      let sections = Array(0..<sectionCount)
      let oldRows = Rows(sections: sections, rows: old), newRows = Rows(sections: sections, rows: new)
      let changeset = ListChangeset(from: oldRows, to: newRows, itemNeedsReload: { updated.contains($0) })
      let oldSet = Set(old.joined())
      do {
        try validator.validate(changeset, from: oldRows, to: newRows, reloadedItems: updated.intersection(oldSet))
      } catch {
        Issue.record("round \(round): \(error)")
        return
      }
      var oldPlace = [Int: (section: Int, row: Int)]()
      for (section, rows) in old.enumerated() {
        for (row, id) in rows.enumerated() { oldPlace[id] = (section, row) }
      }
      var minimum = 0
      for (section, rows) in new.enumerated() {
        var sameSection: [Int] = []
        for id in rows {
          guard let place = oldPlace[id] else { continue }
          if place.section == section { sameSection.append(place.row) } else { minimum += 1 }
        }
        minimum += sameSection.count - naiveLISLength(sameSection)
      }
      #expect(changeset.numberOfItemMoves == minimum, "round \(round)")
    }
  }

  @Test func collidingIdentifiersGiveTheSameChangeset() throws {
    // Every identifier hashes alike: slow, but the changeset is the one of well-hashed identifiers.
    var generator = SeededRandom(seed: 0x5EED_0004)
    for _ in 0..<SeededRandom.propertySteps(default: 20) {
      var nextID = 0
      let old = PlainModel.random(using: &generator, nextID: &nextID, maxSections: 3, maxRows: 60)
      var new = old
      for _ in 0..<Int.random(in: 1...6, using: &generator) { new = new.mutated(using: &generator, nextID: &nextID) }
      func colliding(_ rows: ListVisibleRows<Int, Int>) -> ListVisibleRows<Int, CollidingID> {
        ListVisibleRows(sections: rows.sectionIdentifiers, rows: rows.rows.map { $0.map { CollidingID($0) } })
      }
      let oldItems = old.itemContent, newItems = new.itemContent
      let oldSections = old.sectionContent, newSections = new.sectionContent
      let plain = old.changeset(to: new)
      let hard = ListChangeset(
        from: colliding(old.visibleRows), to: colliding(new.visibleRows),
        sectionNeedsReload: { oldSections[$0] != newSections[$0] },
        itemNeedsReload: { oldItems[$0.value] != newItems[$0.value] })
      #expect(hard.count == plain.count)
      #expect(hard.stages.map(\.sectionMoves) == plain.stages.map(\.sectionMoves))
      #expect(hard.stages.map(\.sectionDeletes) == plain.stages.map(\.sectionDeletes))
      #expect(hard.stages.map(\.sectionInserts) == plain.stages.map(\.sectionInserts))
      #expect(hard.stages.map(\.itemMoves) == plain.stages.map(\.itemMoves))
      #expect(hard.stages.map(\.itemInserts) == plain.stages.map(\.itemInserts))
      #expect(hard.stages.map(\.itemDeletes) == plain.stages.map(\.itemDeletes))
      #expect(hard.stages.map(\.itemReloads) == plain.stages.map(\.itemReloads))
      #expect(hard.stages.map(\.movedItems) == plain.stages.map { $0.movedItems.map { CollidingID($0) } })
      try validator.validate(hard, from: colliding(old.visibleRows), to: colliding(new.visibleRows),
        reloadedSections: old.expectedReloads(to: new).sections,
        reloadedItems: Set(old.expectedReloads(to: new).items.map { CollidingID($0) }))
    }
  }
}
