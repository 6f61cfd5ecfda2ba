import ListDiff
import ListHistory
import ListReplica
import ListState
import TestSupport
import Testing

/// Replicas editing at random, exchanging partial, repeated and reordered deliveries, converge:
/// after a full exchange every replica holds the same commits in the same order and the same
/// list, equal to the agreed order folded once from the base and to the naive model of the
/// merge rules (`ReferenceReplicaFold`), with the same overrides; every merge's changeset passes
/// UIKit's batch rules.
@Suite struct ReplicaConvergenceTests {
  typealias Replica = ListReplica<TestSection, TestItem>

  static func expectedReloads(from old: TestSnapshot, to new: TestSnapshot)
    -> (sections: Set<String>, items: Set<String>)
  {
    var sections = Set<String>()
    for id in new.sectionIdentifiers where old.contains(section: id) && old.section(id) != new.section(id) {
      sections.insert(id)
    }
    let oldVisible = Set(old.visibleItems)
    var items = Set<String>()
    for id in new.visibleItems where oldVisible.contains(id) && old.item(id) != new.item(id) { items.insert(id) }
    return (sections, items)
  }

  static func checkMerge(_ merge: ReplicaMerge<TestSection, TestItem>) throws {
    let expected = expectedReloads(from: merge.previous, to: merge.snapshot)
    try ChangesetValidator().validate(
      merge.changeset, from: ListVisibleRows(merge.previous), to: ListVisibleRows(merge.snapshot),
      reloadedSections: expected.sections, reloadedItems: expected.items)
  }

  /// One random run: `count` replicas, `steps` steps of edits, undos, redos and deliveries.
  static func run(seed: UInt64, count: Int, steps: Int, window: Int) throws {
    var random = SeededRandom(seed: seed)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 40, sectionPoolSize: 5, invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let configuration = ListReplicaConfiguration(rebaseWindow: window, clock: { 1_800_000_000 })
    let first = Replica(replica: ReplicaID(rawValue: 1), listID: 7, configuration: configuration)
    var replicas = [first]
    for index in 1..<count {
      replicas.append(Replica(cloning: first, replica: ReplicaID(rawValue: UInt64(index + 1)), configuration: configuration))
    }
    for _ in 0..<steps {
      let actor = replicas[Int(random.next() % UInt64(count))]
      switch random.next() % 10 {
      case 0...5:
        let operation = generator.next(for: actor.snapshot, using: &random)
        _ = try? actor.transaction { tx in try operation.apply(to: &tx) }
      case 6:
        if random.chance(0.5) { _ = try actor.undo() } else { _ = try actor.redo() }
      default:
        // A partial, shuffled, sometimes repeated delivery from another replica.
        let source = replicas[Int(random.next() % UInt64(count))]
        var commits = source.changes(since: ReplicaVersionVector())
        commits.shuffle(using: &random)
        commits = Array(commits.prefix(Int(random.next() % UInt64(commits.count + 1))))
        if random.chance(0.3), let repeated = commits.first { commits.append(repeated) }
        let merge = try actor.receive(commits)
        try checkMerge(merge)
      }
    }
    // Full exchange until every replica holds everything.
    for _ in 0..<2 {
      for target in replicas {
        for source in replicas where source !== target {
          try checkMerge(try target.receive(source.changes(since: target.versionVector)))
        }
      }
    }
    let reference = replicas[0]
    let folded = Replica(replica: ReplicaID(rawValue: 99), listID: 7, configuration: configuration)
    try folded.receive(reference.commits.shuffled(using: &random))
    for replica in replicas {
      #expect(replica.versionVector == reference.versionVector)
      #expect(replica.commits == reference.commits)
      #expect(replica.snapshot == reference.snapshot, "seed \(seed): replica \(replica.replicaID) differs")
      #expect(replica.snapshot == folded.snapshot, "seed \(seed): the incremental merge differs from one fold")
    }
    try checkAgainstModel(replicas + [folded], seed: seed, window: window)
  }

  /// The model's fold of the agreed order gives every replica's list and, while the rebase
  /// window holds every commit, its overrides.
  static func checkAgainstModel(_ replicas: [Replica], seed: UInt64, window: Int) throws {
    let model = ReferenceReplicaFold(base: replicas[0].base, commits: replicas[0].commits)
    let expectedList = model.list
    let expectedOverrides = model.overrides.map(Self.override).sorted { $0.description < $1.description }
    for replica in replicas {
      let actual = ReferenceList(replica.snapshot)
      let sameList = actual == expectedList
      #expect(
        sameList,
        "seed \(seed): replica \(replica.replicaID) differs from the model\n\(actual.debugDrawing)\nmodel:\n\(expectedList.debugDrawing)")
      guard replica.commitCount <= window else { continue }
      let actualOverrides = replica.overrides().sorted { $0.description < $1.description }
      let sameOverrides = actualOverrides == expectedOverrides
      #expect(
        sameOverrides,
        "seed \(seed): overrides of \(replica.replicaID) differ; engine only: \(actualOverrides.filter { !expectedOverrides.contains($0) }), model only: \(expectedOverrides.filter { !actualOverrides.contains($0) })")
    }
  }

  /// The engine's override for the model's.
  static func override(_ model: ReferenceReplicaFold<TestSection, TestItem>.Override) -> ReplicaOverride<TestSection, TestItem> {
    let subject: ReplicaOverride<TestSection, TestItem>.Subject =
      switch model.subject {
      case .item(let id): .item(id)
      case .section(let id): .section(id)
      }
    let reason: ReplicaOverride<TestSection, TestItem>.Reason =
      switch model.reason {
      case .anchorDeleted: .anchorDeleted
      case .containerDeleted: .containerDeleted
      case .alreadyDeleted: .alreadyDeleted
      case .cycle: .cycle
      case .duplicateIdentifier: .duplicateIdentifier
      case .superseded(let by): .superseded(by: by)
      case .keptFromDeletion: .keptFromDeletion
      case .noPlace: .noPlace
      }
    return ReplicaOverride(commit: model.commit, operation: model.operation, subject: subject, reason: reason)
  }

  @Test(arguments: 0..<12)
  func randomReplicasConverge(seed: Int) throws {
    try Self.run(seed: UInt64(seed) &* 7919 &+ 1, count: 2 + seed % 4, steps: 300, window: seed % 3 == 0 ? 4 : 1 << 16)
  }

  /// Longer runs (`LISTJOURNAL_PROPERTY_STEPS` sets their length) against the model.
  @Test(arguments: 0..<4)
  func longRandomRunsMatchTheModel(seed: Int) throws {
    try Self.run(
      seed: UInt64(seed) &* 104_729 &+ 17, count: 2 + seed % 4, steps: SeededRandom.propertySteps(default: 1_500),
      window: 1 << 16)
  }
}
