import ListDiff
import ListHistory
import ListReplica
import ListState
import TestSupport
import Testing

/// A receiver fed one commit at a time, as a sync client is: editors that lag one another make
/// commits concurrently, so arrivals often sort before commits the receiver holds (its own
/// among them), and the receiver edits, undoes and redoes between arrivals. After every
/// receive its list is the agreed order folded once from the base, the merge's `previous` is
/// the list before it, and at the end the naive model agrees.
@Suite struct ReplicaStreamTests {
  typealias Replica = ListReplica<TestSection, TestItem>

  static func run(seed: UInt64, editors count: Int, steps: Int, window: Int) throws {
    var random = SeededRandom(seed: seed)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 40, sectionPoolSize: 5, invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let configuration = ListReplicaConfiguration(rebaseWindow: window, clock: { 1_800_000_000 })
    let receiver = Replica(replica: ReplicaID(rawValue: 1), listID: 7, configuration: configuration)
    let editors = (0..<count).map {
      Replica(cloning: receiver, replica: ReplicaID(rawValue: UInt64($0 + 2)), configuration: configuration)
    }
    // Commits in the order a server relays them, and how far each editor has caught up.
    var relayed: [ReplicaCommit<TestSection, TestItem>] = []
    var seen = Array(repeating: 0, count: count)
    var delivered = 0
    var rebased = 0
    for step in 0..<steps {
      switch random.next() % 10 {
      case 0...4:
        // An editor catches up to a random lag behind the relay, then edits.
        let index = Int(random.next() % UInt64(count))
        let upTo = max(seen[index], relayed.count - Int(random.next() % UInt64(count + 1)))
        if upTo > seen[index] { try editors[index].receive(Array(relayed[seen[index]..<upTo])) }
        seen[index] = upTo
        let before = editors[index].commitCount
        let operation = generator.next(for: editors[index].snapshot, using: &random)
        _ = try? editors[index].transaction { tx in try operation.apply(to: &tx) }
        if editors[index].commitCount > before, let made = editors[index].commits.last(where: { $0.id.replica == editors[index].replicaID }) {
          relayed.append(made)
        }
      case 5...7:
        // The next relayed commit reaches the receiver alone (sometimes twice).
        guard delivered < relayed.count else { continue }
        let before = receiver.snapshot
        let commits = random.chance(0.1) ? [relayed[delivered], relayed[delivered]] : [relayed[delivered]]
        let merge = try receiver.receive(commits)
        delivered += 1
        rebased += merge.rebased
        #expect(merge.previous == before, "seed \(seed) step \(step): previous is not the list before the merge")
        #expect(merge.snapshot == receiver.snapshot)
        #expect(merge.received == [commits[0].id])
        #expect(merge.duplicates == commits.count - 1)
        try ReplicaConvergenceTests.checkMerge(merge)
        let folded = Replica(replica: ReplicaID(rawValue: 99), listID: 7, configuration: configuration)
        try folded.receive(receiver.commits)
        #expect(receiver.snapshot == folded.snapshot, "seed \(seed) step \(step): the receiver differs from one fold")
      case 8:
        let operation = generator.next(for: receiver.snapshot, using: &random)
        _ = try? receiver.transaction { tx in try operation.apply(to: &tx) }
      default:
        if random.chance(0.5) { _ = try receiver.undo() } else { _ = try receiver.redo() }
      }
    }
    // The rest arrives, one commit at a time.
    while delivered < relayed.count {
      try receiver.receive([relayed[delivered]])
      delivered += 1
    }
    #expect(rebased > 0, "seed \(seed): no arrival sorted before a held commit; the run tests nothing of the rebase")
    let folded = Replica(replica: ReplicaID(rawValue: 99), listID: 7, configuration: configuration)
    try folded.receive(receiver.commits.reversed())
    #expect(receiver.snapshot == folded.snapshot)
    try ReplicaConvergenceTests.checkAgainstModel([receiver, folded], seed: seed, window: window)
  }

  @Test(arguments: 0..<6)
  func oneCommitArrivalsMatchOneFold(seed: Int) throws {
    try Self.run(
      seed: UInt64(seed) &* 6_700_417 &+ 3, editors: [2, 5, 12][seed % 3], steps: SeededRandom.propertySteps(default: 400),
      window: seed % 2 == 0 ? 3 : 1 << 16)
  }
}
