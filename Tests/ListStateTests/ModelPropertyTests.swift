import ListState
import Testing
import TestSupport

/// Model-based property tests: long random sequences of valid and invalid operations applied to
/// a `ListSnapshot` and to the naive `ReferenceList`. After every step the two agree on every
/// query, `_checkInvariants()` passes, a refused operation changed nothing, and the copy taken
/// before the step is unaffected (see `ModelCheck.step`).
///
/// Each seeded run is `LISTJOURNAL_PROPERTY_STEPS` steps long (default below); a failure prints
/// the seed, the step, the operation, the operations before it and the state, so it can be
/// replayed exactly.
@Suite("ListSnapshot agrees with the reference model")
struct ModelPropertyTests {
  typealias Generator = ListOperationGenerator<TestSection, TestItem>

  static let steps = SeededRandom.propertySteps(default: 600)
  static let seeds: [UInt64] = [1, 2, 3, 4]

  static func expectPasses(_ result: ModelCheck.RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.failure == nil, "\(result.failure ?? "")", sourceLocation: sourceLocation)
  }

  @Test("mixed operations, valid and invalid", arguments: seeds)
  func mixedOperations(seed: UInt64) {
    let result = ModelCheck.run(seed: seed, steps: Self.steps, generator: Generator())
    Self.expectPasses(result)
    if result.failure == nil {
      // The run exercised what it claims to: many kinds, refusals, nesting.
      #expect(result.counts.count >= 30, "only \(result.counts.count) operation kinds ran")
      #expect(result.counts.values.reduce(0) { $0 + $1.invalid } > Self.steps / 20)
      #expect(result.maxDepth >= 2)
    }
  }

  @Test("deep outlines: outline, move and drag operations dominate", arguments: [UInt64(21), 22])
  func deepOutlines(seed: UInt64) {
    var weights = Generator.defaultWeights
    for name in ["appendItemsUnderParent", "appendOutlineUnderParent", "moveItemUnderParent", "moveItemToLocation",
      "replaceChildren", "insertOutlineAt", "expand", "moveVisibleRow", "replaceItem", "collapse"]
    {
      weights[name, default: 0] *= 3
    }
    for name in ["deleteSections", "insertSectionsAt", "insertSectionsBefore", "insertSectionsAfter"] { weights[name] = 1 }
    let result = ModelCheck.run(
      seed: seed, steps: Self.steps, generator: Generator(invalidProbability: 0.1, targetItemCount: 50, weights: weights))
    Self.expectPasses(result)
    if result.failure == nil { #expect(result.maxDepth >= 4) }
  }

  @Test("mostly invalid operations change nothing", arguments: [UInt64(31)])
  func mostlyInvalid(seed: UInt64) {
    let result = ModelCheck.run(seed: seed, steps: Self.steps, generator: Generator(invalidProbability: 0.6))
    Self.expectPasses(result)
  }

  @Test("plain Int identifiers", arguments: [UInt64(41)])
  func plainIntElements(seed: UInt64) {
    let result = ModelCheck.run(seed: seed, steps: Self.steps, generator: ListOperationGenerator<Int, Int>())
    Self.expectPasses(result)
  }

  @Test("plain String identifiers with a small pool (many collisions)", arguments: [UInt64(51)])
  func plainStringElements(seed: UInt64) {
    let result = ModelCheck.run(
      seed: seed, steps: Self.steps, generator: ListOperationGenerator<String, String>(itemPoolSize: 15, sectionPoolSize: 3))
    Self.expectPasses(result)
  }

  /// Lists large enough that sibling sequences and the section order outgrow one storage node
  /// (so node splits and merges happen), checked with sampled per-item queries each step and
  /// every query every 25 steps.
  static let largeSteps = SeededRandom.propertySteps(default: 200)

  @Test("large containers: hundreds of siblings under one parent and in one section", arguments: [UInt64(81)])
  func largeContainers(seed: UInt64) throws {
    var start = TestSnapshot()
    try start.appendSections((0..<3).map { TestSection("s\($0)") })
    try start.appendItems((0..<150).map { TestItem("i\($0)") }, toSection: "s0")
    try start.appendItems([TestItem("i150")], toSection: "s1")
    try start.appendItems((151..<290).map { TestItem("i\($0)") }, underParent: "i150")
    try start.appendItems((290..<320).map { TestItem("i\($0)") }, toSection: "s2")
    try start.expand(["i150"])
    var weights = Generator.defaultWeights
    for name in ["deleteSections", "deleteAllItems"] { weights[name] = 0 }
    let generator = Generator(itemPoolSize: 450, sectionPoolSize: 4, targetItemCount: 360, deleteAllProbability: 0, weights: weights)
    let result = ModelCheck.run(seed: seed, steps: Self.largeSteps, generator: generator, start: start, fullCheckEvery: 25)
    Self.expectPasses(result)
    if result.failure == nil { #expect(result.maxItemCount > 300) }
  }

  @Test("many sections: the section order outgrows one storage node", arguments: [UInt64(91)])
  func manySections(seed: UInt64) throws {
    var start = TestSnapshot()
    try start.appendSections((0..<100).map { TestSection("s\($0)") })
    for index in 0..<100 { try start.appendItems([TestItem("i\(index)")], toSection: "s\(index)") }
    var weights = Generator.defaultWeights
    for name in ["insertSectionsBefore", "insertSectionsAfter", "insertSectionsAt", "moveSectionBefore", "moveSectionAfter",
      "moveSectionToIndex", "moveItemToSection", "moveVisibleRow", "appendSections"]
    {
      weights[name, default: 0] *= 4
    }
    weights["deleteAllItems"] = 0
    let generator = Generator(itemPoolSize: 200, sectionPoolSize: 140, targetItemCount: 150, deleteAllProbability: 0, weights: weights)
    let result = ModelCheck.run(seed: seed, steps: Self.largeSteps, generator: generator, start: start, fullCheckEvery: 25)
    Self.expectPasses(result)
  }

  /// Copies taken at many points of a random run keep their state while the original goes on
  /// mutating (and while other copies mutate too).
  @Test("value semantics: earlier copies are unaffected by later mutations")
  func valueSemantics() throws {
    var generator = Generator()
    var rng = SeededRandom(seed: 61)
    var snapshot = TestSnapshot()
    var reference = ReferenceList<TestSection, TestItem>()
    var saved: [(snapshot: TestSnapshot, reference: ReferenceList<TestSection, TestItem>)] = []
    for step in 0..<min(Self.steps, 400) {
      let operation = generator.next(for: reference, using: &rng)
      if let failure = ModelCheck.step(operation, snapshot: &snapshot, reference: &reference) {
        Issue.record("step \(step): \(failure)")
        return
      }
      if step % 25 == 0 { saved.append((snapshot, reference)) }
      if step % 50 == 25, var branch = saved.last?.snapshot, var branchReference = saved.last?.reference {
        // Mutate a copy of a saved state: neither the saved state nor the main line may change.
        let branchOperation = generator.next(for: branchReference, using: &rng)
        if let failure = ModelCheck.step(branchOperation, snapshot: &branch, reference: &branchReference) {
          Issue.record("branch at step \(step): \(failure)")
          return
        }
      }
    }
    for (index, copy) in saved.enumerated() {
      if let mismatch = copy.reference.firstMismatch(with: copy.snapshot) {
        Issue.record("copy \(index) changed: \(mismatch)")
      }
    }
    #expect(saved.count >= 4)
  }

  /// Starting a run from a snapshot built elsewhere (the history tests do this).
  @Test("a run can start from an existing snapshot")
  func startFromExistingSnapshot() throws {
    var start = TestSnapshot()
    try start.appendSections([TestSection("s0"), TestSection("s1")])
    try start.appendItems([TestItem("i0"), TestItem("i1")], toSection: "s0")
    try start.appendItems([TestItem("i2")], underParent: "i0")
    try start.expand(["i0"])
    try start.reloadItems(["i1"])
    let reference = ReferenceList(start)
    #expect(reference.itemIdentifiers == ["i0", "i2", "i1"])
    #expect(reference.reloadedItems == ["i1"])
    let result = ModelCheck.run(seed: 71, steps: min(Self.steps, 200), generator: Generator(), start: start)
    Self.expectPasses(result)
  }
}
