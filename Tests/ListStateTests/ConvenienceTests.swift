import ListState
import TestSupport
import Testing

/// `isEmpty`, `sectionIdentifier(for:)`, `replaceItems(inSection:with:)` and
/// `deleteItems(where:)`, against the reference model's compositions of the same effect.
@Suite struct ConvenienceTests {
  typealias Snapshot = ListSnapshot<TestSection, TestItem>
  typealias Reference = ReferenceList<TestSection, TestItem>

  @Test func emptinessAndSectionIdentifiersByIndex() throws {
    var snapshot = Snapshot()
    #expect(snapshot.isEmpty)
    try snapshot.appendSections([TestSection("A"), TestSection("B")])
    #expect(!snapshot.isEmpty && snapshot.numberOfItems == 0)
    #expect(snapshot.sectionIdentifier(for: 0) == "A" && snapshot.sectionIdentifier(for: 1) == "B")
    #expect(snapshot.sectionIdentifier(for: 2) == nil && snapshot.sectionIdentifier(for: -1) == nil)
  }

  @Test func replacingASectionsItemsRefusesItemsOfOtherSections() throws {
    var snapshot = Snapshot()
    try snapshot.appendSections([TestSection("A"), TestSection("B")])
    try snapshot.appendItems([TestItem("a"), TestItem("b")], toSection: "A")
    try snapshot.appendItems([TestItem("c")], toSection: "B")
    let before = snapshot
    #expect(throws: ListError<String, String>.itemsAlreadyExist(["c"])) {
      try snapshot.replaceItems(inSection: "A", with: [TestItem("c")])
    }
    #expect(throws: ListError<String, String>.sectionsNotFound(["Z"])) {
      try snapshot.replaceItems(inSection: "Z", with: [])
    }
    #expect(snapshot == before)
    try snapshot.replaceItems(inSection: "A", with: [TestItem("b"), TestItem("x")])
    #expect(snapshot.itemIdentifiers(inSection: "A") == ["b", "x"])
  }

  /// Random lists from the generator: each convenience equals its composition on the reference.
  @Test(arguments: 0..<3)
  func conveniencesMatchTheReferenceModel(seedOffset: Int) throws {
    var random = SeededRandom(seed: 0xC0_4E00 + UInt64(seedOffset))
    var generator = ListOperationGenerator<TestSection, TestItem>(invalidProbability: 0)
    var snapshot = Snapshot()
    var reference = Reference()
    var checked = 0
    for step in 0..<SeededRandom.propertySteps(default: 400) {
      let operation = generator.next(for: reference, using: &random)
      guard operation.expectedFailures(in: reference).isEmpty else { continue }  // the generator's own mistakes
      try operation.apply(to: &reference)
      try operation.apply(to: &snapshot)
      guard step % 5 == 0, let section = snapshot.sectionIdentifiers.randomElement(using: &random) else { continue }

      // replaceItems: the section's roots deleted, then the new items appended.
      let pool = snapshot.itemIdentifiers(inSection: section) + ["fresh\(step)", "new\(step)"]
      let chosen = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
      let items = chosen.map { TestItem($0, content: "v\(step)") }
      var replaced = snapshot
      var expected = reference
      try replaced.replaceItems(inSection: section, with: items)
      try expected.deleteItems(snapshot.rootItems(inSection: section))
      try expected.appendItems(items, toSection: section)
      if let mismatch = expected.firstMismatch(with: replaced) { Issue.record("step \(step) replaceItems: \(mismatch)") }

      // deleteItems(where:): the picked identifiers, in list order, deleted if still present.
      let cut = Int.random(in: 0..<4, using: &random)
      var pruned = snapshot
      var prunedReference = reference
      let picked = pruned.deleteItems(where: { Int($0.id.utf8.last ?? 0) % 4 == cut })
      #expect(picked == snapshot.itemIdentifiers.filter { Int($0.utf8.last ?? 0) % 4 == cut })
      prunedReference.deleteItemsIfPresent(picked)
      if let mismatch = prunedReference.firstMismatch(with: pruned) { Issue.record("step \(step) deleteItems(where:): \(mismatch)") }
      #expect(!pruned.itemIdentifiers.contains { Int($0.utf8.last ?? 0) % 4 == cut })
      checked += 1
    }
    #expect(checked > 20)
  }
}
