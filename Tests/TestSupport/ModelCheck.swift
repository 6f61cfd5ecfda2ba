import ListState

/// Model-based checking of ``ListSnapshot`` against ``ReferenceList``: apply the same operation
/// to both and compare everything observable.
///
/// ```swift
/// let result = ModelCheck.run(seed: 1, steps: 1_000, generator: ListOperationGenerator<TestSection, TestItem>())
/// #expect(result.failure == nil, "\(result.failure ?? "")")
/// ```
public enum ModelCheck {
  /// What a run did: how many operations of each name were valid or invalid, and the first
  /// failure (with seed, step, the operation and the operations before it), if any.
  public struct RunResult: Sendable {
    public var failure: String?
    public var stepsRun = 0
    /// Operation name → (succeeded, refused).
    public var counts: [String: (valid: Int, invalid: Int)] = [:]
    public var maxItemCount = 0
    public var maxDepth = 0
  }

  /// Applies `operation` to both `snapshot` and `reference` and checks, in this order:
  /// the snapshot throws exactly when the reference says the operation is invalid, and then an
  /// acceptable error; a refused operation changed nothing (`==` with the copy taken before,
  /// and every query); afterwards both agree on every query
  /// (``ReferenceList/firstMismatch(with:probeItems:probeSections:)``); `_checkInvariants()`
  /// passes; the copy taken before is unaffected (value semantics); `==` with that copy holds
  /// exactly when no section, item, content or flag changed (markers are not part of `==`); and for
  /// `moveVisibleRow` the transaction holds the before and after states and the row lands at
  /// the destination.
  ///
  /// `sample`, when given, picks the items and rows whose per-item and per-row queries are
  /// compared (see ``ReferenceList/firstSampledMismatch(with:sampleItems:sampleRows:probeItems:probeSections:)``);
  /// without it every query of every item is compared.
  ///
  /// - Returns: a description of the first problem, or nil.
  public static func step<Section, Item>(
    _ operation: ListOperation<Section, Item>,
    snapshot: inout ListSnapshot<Section, Item>,
    reference: inout ReferenceList<Section, Item>,
    probeItems: [Item.ID] = [], probeSections: [Section.ID] = [],
    sample: ((ReferenceList<Section, Item>) -> (items: [Item.ID], rows: [ListIndexPath]))? = nil
  ) -> String? {
    func mismatch(_ model: ReferenceList<Section, Item>, _ snapshot: ListSnapshot<Section, Item>) -> String? {
      guard let sample else {
        return model.firstMismatch(with: snapshot, probeItems: probeItems, probeSections: probeSections)
      }
      let (items, rows) = sample(model)
      return model.firstSampledMismatch(
        with: snapshot, sampleItems: items, sampleRows: rows, probeItems: probeItems, probeSections: probeSections)
    }
    let expected = operation.expectedFailures(in: reference)
    let snapshotBefore = snapshot
    let referenceBefore = reference

    var referenceError: ListError<Section.ID, Item.ID>?
    do { try operation.apply(to: &reference) } catch { referenceError = error }
    if (referenceError == nil) != expected.isEmpty || (referenceError != nil && reference != referenceBefore) {
      return "reference model is inconsistent for \(operation): expected \(expected), threw \(String(describing: referenceError))"
    }

    var snapshotError: ListError<Section.ID, Item.ID>?
    var transaction: ListTransaction<Section, Item>?
    do { transaction = try operation.apply(to: &snapshot) } catch { snapshotError = error }

    if !expected.isEmpty {
      guard let snapshotError else {
        return "\(operation) succeeded, but it is invalid: expected \(expected.count == 1 ? "" : "one of ")\(list(expected))"
      }
      if !expected.contains(snapshotError) {
        return "\(operation) threw «\(snapshotError)», expected \(expected.count == 1 ? "" : "one of ")\(list(expected))"
      }
      if snapshot != snapshotBefore {
        return "\(operation) threw «\(snapshotError)» but the snapshot is no longer == the copy taken before"
      }
      if let mismatch = mismatch(referenceBefore, snapshot) {
        return "\(operation) threw «\(snapshotError)» but changed the snapshot: \(mismatch)"
      }
    } else if let snapshotError {
      return "\(operation) threw «\(snapshotError)», but it is valid"
    }

    // A refused operation was compared in full above (the states are the same).
    if expected.isEmpty, let mismatch = mismatch(reference, snapshot) {
      return "after \(operation): \(mismatch)"
    }
    snapshot._checkAllInvariants()

    if let mismatch = referenceBefore.firstStateMismatch(with: snapshotBefore) {
      return "\(operation) changed the copy taken before it (value semantics broken): \(mismatch)"
    }
    // `==` compares sections, items, nesting, contents and expansion, not the markers.
    let structureChanged = reference.entries != referenceBefore.entries
    if structureChanged, snapshot == snapshotBefore {
      return "\(operation) changed the list, but the snapshot is still == the copy taken before"
    }
    if !structureChanged, snapshot != snapshotBefore {
      return "\(operation) changed no section, item, content or flag, but the snapshot is no longer == the copy taken before"
    }

    if case .moveVisibleRow(_, let destination) = operation, expected.isEmpty {
      guard let transaction else { return "\(operation) returned no transaction" }
      if let mismatch = referenceBefore.firstStateMismatch(with: transaction.initialSnapshot) {
        return "\(operation): transaction.initialSnapshot is not the state before: \(mismatch)"
      }
      if let mismatch = reference.firstStateMismatch(with: transaction.finalSnapshot) {
        return "\(operation): transaction.finalSnapshot is not the state after: \(mismatch)"
      }
      // The end position given as the section's row count before the move lands on the last row
      // of the final layout, as the section's last root item.
      let sectionIDs = referenceBefore.entries.map(\.section.id)
      let isRowCountEnd =
        sectionIDs.indices.contains(destination.section)
        && destination.row == referenceBefore.visibleItems(inSection: sectionIDs[destination.section]).count
      if case .moveVisibleRow(let source, _) = operation, let moved = referenceBefore.visibleItem(at: source),
        snapshot.visibleIndexPath(ofItem: moved) != destination,
        !(isRowCountEnd && snapshot.rootItems(inSection: sectionIDs[destination.section]).last == moved)
      {
        return "\(operation): the moved row \(moved) is at \(String(describing: snapshot.visibleIndexPath(ofItem: moved))), not at \(destination)"
      }
    }
    return nil
  }

  /// Runs `steps` random operations from `generator` (seeded with `seed`) on a snapshot and on
  /// the reference model, checking each with ``step(_:snapshot:reference:probeItems:probeSections:)``,
  /// and stops at the first failure.
  ///
  /// With `fullCheckEvery` > 1, only every `fullCheckEvery`-th step (and the last) compares
  /// every query of every item; the other steps compare the whole-list and per-section queries
  /// and a random sample of items and rows (for runs on large lists).
  public static func run<Section, Item>(
    seed: UInt64, steps: Int, generator: ListOperationGenerator<Section, Item>,
    start: ListSnapshot<Section, Item> = ListSnapshot(), fullCheckEvery: Int = 1
  ) -> RunResult {
    var generator = generator
    var rng = SeededRandom(seed: seed)
    var snapshot = start
    var reference = ReferenceList(start)
    var result = RunResult()
    var recent: [String] = []
    // Unknown-identifier probes: a few pool identifiers per step (most are absent at any time),
    // drawn from their own generator so that they do not change the operation sequence.
    var probeRandom = SeededRandom(seed: ~seed)
    let itemPool = (0..<(generator.itemPoolSize + 3)).map { Item.generated(index: $0, variant: 0).id }
    let sectionPool = (0..<(generator.sectionPoolSize + 2)).map { Section.generated(index: $0, variant: 0).id }
    if let mismatch = reference.firstMismatch(with: snapshot, probeItems: itemPool, probeSections: sectionPool) {
      result.failure = "seed \(seed), before any step: \(mismatch)"
      return result
    }
    for stepIndex in 0..<steps {
      let probeItems = (0..<6).map { _ in itemPool.randomElement(using: &probeRandom)! }
      let probeSections = (0..<2).map { _ in sectionPool.randomElement(using: &probeRandom)! }
      let operation = generator.next(for: reference, using: &rng)
      let valid = operation.expectedFailures(in: reference).isEmpty
      let before = reference
      let thorough = fullCheckEvery <= 1 || stepIndex % fullCheckEvery == 0 || stepIndex == steps - 1
      let failure: String?
      if thorough {
        failure = step(operation, snapshot: &snapshot, reference: &reference, probeItems: probeItems, probeSections: probeSections)
      } else {
        failure = step(
          operation, snapshot: &snapshot, reference: &reference, probeItems: probeItems, probeSections: probeSections
        ) { model in
          let ids = model.itemIdentifiers
          let items = ids.isEmpty ? [] : (0..<12).map { _ in ids.randomElement(using: &probeRandom)! }
          var rows: [ListIndexPath] = []
          for (sectionIndex, visible) in model.visibleItemsBySection().enumerated() {
            let count = visible.count
            if count > 0 { rows += (0..<3).map { _ in ListIndexPath(section: sectionIndex, row: Int.random(in: 0..<count, using: &probeRandom)) } }
          }
          return (items, rows)
        }
      }
      if let failure {
        result.failure = """
          seed \(seed), step \(stepIndex): \(failure)
          operation: \(operation)
          previous operations (oldest first, ✗ = refused):
            \(recent.joined(separator: "\n  "))
          reference before the operation:
          \(before.debugDrawing)
          """
        return result
      }
      result.stepsRun += 1
      result.counts[operation.name, default: (0, 0)].valid += valid ? 1 : 0
      result.counts[operation.name, default: (0, 0)].invalid += valid ? 0 : 1
      let rows = reference.rows()
      result.maxItemCount = max(result.maxItemCount, rows.count)
      result.maxDepth = max(result.maxDepth, rows.map { $0.level }.max() ?? 0)
      recent.append((valid ? "" : "✗ ") + operation.description)
      if recent.count > 12 { recent.removeFirst() }
    }
    return result
  }

  static func list<E>(_ errors: [E]) -> String { errors.map { "«\($0)»" }.joined(separator: " or ") }
}
