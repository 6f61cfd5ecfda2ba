import ListHistory
import ListState
import TestSupport

/// A random history driven against the naive reference model (``ReferenceList``): seeded steps
/// that are either a transaction of 1–4 generated operations (about 15% of them invalid) or an
/// undo, redo or checkout of a random version. The run keeps its own map version → reference
/// state (each built by applying the same operations to the reference of the parent version)
/// and its own undo tree (parents and redo memory), and after every step checks the store
/// against them:
///
/// - head, latest version, redo target and `canUndo` are the model's;
/// - the head snapshot equals the head's reference on every query (with the markers of the
///   last commit when a commit or a refused transaction was the last change; head moves have
///   unspecified markers, so those are compared with markers cleared);
/// - `state(at:)` of a few random versions equals their references;
/// - undo then redo is the identity;
/// - each change is reported once, with the right kind, heads and versions, and its events
///   fold the initial state to the final one; a refused transaction changes nothing, writes no
///   record and notifies nobody.
///
/// At the end ``checkReplay()`` rebuilds a store from the records and compares both stores with
/// the references on every version.
///
/// ```swift
/// var run = ReferenceHistoryRun(seed: 1, checkpointInterval: 4)
/// if let failure = run.run(steps: 300) { Issue.record("\(failure)") }
/// ```
struct ReferenceHistoryRun {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Reference = ReferenceList<TestSection, TestItem>
  typealias Operation = ListOperation<TestSection, TestItem>
  typealias Failure = ListError<String, String>
  typealias Snapshot = ListSnapshot<TestSection, TestItem>

  /// A disagreement between the store and the model.
  struct Divergence: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// What the run did, to check that it exercised real work.
  struct Statistics {
    var commits = 0
    var refusedTransactions = 0
    var emptyTransactions = 0
    var operations = 0
    var undos = 0
    var redos = 0
    var checkouts = 0
    var refusedHeadMoves = 0
    var reopens = 0
    var maxItemCount = 0
  }

  let seed: UInt64
  /// The store under test; a reopen step replaces it by one replayed from the records.
  private(set) var store: Store
  let sink: RecordingSink
  let changes: ChangeCollector<TestSection, TestItem>
  private var observation: ListStoreObservation
  private let clock = ClockBox()
  private let checkpointInterval: Int
  private let checkpointBudget: CheckpointBudget
  private var random: SeededRandom
  /// Identifier probes come from their own generator so they do not change the history.
  private var probeRandom: SeededRandom
  private var generator: ListOperationGenerator<TestSection, TestItem>

  /// The reference state of every committed version (markers cleared), by version number.
  private(set) var versions: [Reference] = [Reference()]
  /// The parent of every version (nil for version 0).
  private(set) var parents: [Int?] = [nil]
  /// The child redo goes to, per version: the child that was most recently the head.
  private(set) var redoChildren: [Int: Int] = [:]
  private(set) var head = 0
  /// The head state with the markers the store's head snapshot must carry, when they are
  /// specified: after a commit (the transaction's markers) until the next head move.
  private var headWithMarkers: Reference? = Reference()
  private(set) var statistics = Statistics()
  private var step = 0
  /// What the step in progress does (for failure messages).
  private var current = "start"
  private var recent: [String] = []

  init(seed: UInt64, checkpointInterval: Int, checkpointBudget: CheckpointBudget = .unbounded) {
    self.seed = seed
    random = SeededRandom(seed: seed)
    probeRandom = SeededRandom(seed: ~seed)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil  // no transaction counterpart: a transaction starts with cleared markers
    generator = ListOperationGenerator(weights: weights)
    self.checkpointInterval = checkpointInterval
    self.checkpointBudget = checkpointBudget
    let clock = clock
    let sink = RecordingSink()
    let changes = ChangeCollector<TestSection, TestItem>()
    self.sink = sink
    self.changes = changes
    store = Store(
      codec: HistoryCodec(), sink: sink, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
      journalCheckpointBytes: 1_024, clock: { clock.tick() })
    observation = store.observe { change in changes.append(change) }
  }

  // MARK: Running

  /// Runs `steps` steps and the final replay check; returns the first failure (with the seed,
  /// the step, what it did and the steps before it), or nil.
  mutating func run(steps: Int) -> String? {
    do {
      for index in 0..<steps {
        step = index
        try runStep()
        recent.append("\(index): \(current)")
        if recent.count > 10 { recent.removeFirst() }
      }
      step = steps
      current = "replay of \(sink.records.count) records"
      try checkReplay()
    } catch {
      return """
        seed \(seed), step \(step): \(error)
        step: \(current)
        previous steps (oldest first):
          \(recent.joined(separator: "\n  "))
        reference of the model's head v\(head):
        \(versions[head].debugDrawing)
        """
    }
    return nil
  }

  mutating func runStep() throws {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<12: try undoStep()
    case 12..<19: try redoStep()
    case 19..<25: try checkoutStep()
    case 25..<27: try reopenStep()
    default: try transactionStep()
    }
    try checkAfterStep()
  }

  // MARK: Steps

  mutating func transactionStep() throws {
    let base = versions[head]
    var working = base
    var operations: [Operation] = []
    var expectedErrors: [Failure] = []
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let operation = generator.next(for: working, using: &random)
      operations.append(operation)
      expectedErrors = operation.expectedFailures(in: working)
      if !expectedErrors.isEmpty { break }  // the store stops here too and commits nothing
      do { try operation.apply(to: &working) } catch {
        throw Divergence("the reference model refused \(operation), which it calls valid: \(error)")
      }
    }
    let label = "step \(step)"
    current = "transaction(label: \"\(label)\") { " + operations.map(\.description).joined(separator: "; ") + " }"
      + (expectedErrors.isEmpty ? "" : "  — the last operation is invalid")
    let recordsBefore = sink.records.count
    let latestBefore = versions.count - 1
    let snapshotBefore = store.snapshot
    var thrown: (any Error)?
    do {
      try store.transaction(label: label) { tx in
        for operation in operations { try operation.apply(to: &tx) }
      }
    } catch { thrown = error }
    let delivered = changes.take()

    if !expectedErrors.isEmpty {
      guard let thrown else {
        throw Divergence("the transaction committed, but \(operations.last!) is invalid: expected \(expectedErrors)")
      }
      guard let error = thrown as? Failure, expectedErrors.contains(error) else {
        throw Divergence("the transaction threw «\(thrown)», expected one of \(expectedErrors)")
      }
      try expectUnchanged(since: snapshotBefore, recordsBefore: recordsBefore, latestBefore: latestBefore, delivered, "a refused transaction")
      statistics.refusedTransactions += 1
      return
    }
    if let thrown { throw Divergence("a valid transaction threw «\(thrown)»") }

    let latest = store.latestVersion.rawValue
    if latest == latestBefore {
      // No event recorded, no version: the operations must have changed nothing.
      guard working.entries == base.entries else {
        throw Divergence("the transaction changed the list but created no version; expected:\n\(working.debugDrawing)")
      }
      try expectUnchanged(since: snapshotBefore, recordsBefore: recordsBefore, latestBefore: latestBefore, delivered, "an empty transaction")
      statistics.emptyTransactions += 1
      return
    }
    guard latest == latestBefore + 1, store.head.rawValue == latest else {
      throw Divergence("the commit made latest \(store.latestVersion) and head \(store.head), expected v\(latestBefore + 1)")
    }
    guard let info = store.info(for: Version(latest)), info.parent == Version(head), info.label == label else {
      throw Divergence("info(for: v\(latest)) is \(String(describing: store.info(for: Version(latest)))), expected parent v\(head) and label \(label)")
    }
    guard sink.records.count > recordsBefore else { throw Divergence("the commit wrote no record") }
    var cleared = working
    cleared.clearMarkers()
    try checkChange(delivered, kind: .commit, from: head, to: latest, reverted: [], applied: [latest], finalState: cleared)
    versions.append(cleared)
    parents.append(head)
    head = latest
    visit(latest)
    headWithMarkers = working
    statistics.commits += 1
    statistics.operations += operations.count
    statistics.maxItemCount = max(statistics.maxItemCount, working.numberOfItems)
  }

  mutating func undoStep() throws {
    current = "undo() at v\(head)"
    guard let parent = parents[head] else {
      try expectRefusedHeadMove(.nothingToUndo(at: Version(head))) { try $0.undo() }
      return
    }
    let change = try store.undo()
    try checkChange([change], kind: .undo, from: head, to: parent, reverted: [head], applied: [], finalState: versions[parent])
    try checkChange(changes.take(), kind: .undo, from: head, to: parent, reverted: [head], applied: [], finalState: versions[parent])
    moveHead(to: parent)
    statistics.undos += 1
  }

  mutating func redoStep() throws {
    current = "redo() at v\(head)"
    guard let child = redoChildren[head] else {
      try expectRefusedHeadMove(.nothingToRedo(at: Version(head))) { try $0.redo() }
      return
    }
    let change = try store.redo()
    try checkChange([change], kind: .redo, from: head, to: child, reverted: [], applied: [child], finalState: versions[child])
    try checkChange(changes.take(), kind: .redo, from: head, to: child, reverted: [], applied: [child], finalState: versions[child])
    moveHead(to: child)
    statistics.redos += 1
  }

  mutating func checkoutStep() throws {
    // Now and then a version that does not exist (yet).
    let target = Int.random(in: 0..<(versions.count + 2), using: &random)
    current = "checkout(v\(target)) at v\(head)"
    guard target < versions.count else {
      try expectRefusedHeadMove(.unknownVersion(Version(target))) { try $0.checkout(Version(target)) }
      return
    }
    let (reverted, applied) = path(from: head, to: target)
    let change = try store.checkout(Version(target))
    try checkChange([change], kind: .checkout, from: head, to: target, reverted: reverted, applied: applied, finalState: versions[target])
    try checkChange(changes.take(), kind: .checkout, from: head, to: target, reverted: reverted, applied: applied, finalState: versions[target])
    moveHead(to: target)
    statistics.checkouts += 1
  }

  /// Reopens the history: a store replayed from the records so far replaces the live one and
  /// continues the same record stream (the codec continues the intern tables it decoded). The
  /// head, redo memory and every branch must come back, and later records must replay too.
  mutating func reopenStep() throws {
    current = "reopen: replay \(sink.records.count) records and continue the stream"
    let clock = clock
    let reopened = try Store(
      replaying: sink.records, codec: HistoryCodec(), sink: sink, checkpointInterval: checkpointInterval,
      checkpointBudget: checkpointBudget, journalCheckpointBytes: 1_024, clock: { clock.tick() })
    observation.cancel()
    store = reopened
    let changes = changes
    observation = store.observe { change in changes.append(change) }
    headWithMarkers = nil  // a replayed head carries the markers of its replayed events
    statistics.reopens += 1
  }

  // MARK: Checks

  mutating func checkAfterStep() throws {
    try checkHead("after the step")
    let probeItems = (0..<6).map { _ in "i\(Int.random(in: 0..<80, using: &probeRandom))" }
    let probeSections = (0..<2).map { _ in "s\(Int.random(in: 0..<12, using: &probeRandom))" }
    let snapshot = store.snapshot
    snapshot._checkAllInvariants()
    if let expected = headWithMarkers {
      if let mismatch = expected.firstMismatch(with: snapshot, probeItems: probeItems, probeSections: probeSections) {
        throw Divergence("head snapshot (v\(head)) differs from the reference: \(mismatch)")
      }
    } else {
      var withoutMarkers = snapshot
      withoutMarkers.clearMarkers()
      if let mismatch = versions[head].firstMismatch(with: withoutMarkers, probeItems: probeItems, probeSections: probeSections) {
        throw Divergence("head snapshot (v\(head), markers cleared) differs from the reference: \(mismatch)")
      }
    }

    // Time travel to a few random versions (on any branch) without moving the head.
    for _ in 0..<3 {
      let version = Int.random(in: 0..<versions.count, using: &probeRandom)
      let state = try store.state(at: Version(version))
      if let mismatch = versions[version].firstMismatch(with: state, probeItems: probeItems, probeSections: probeSections) {
        throw Divergence("state(at: v\(version)) differs from the reference: \(mismatch)")
      }
    }
    guard store.head.rawValue == head else { throw Divergence("state(at:) moved the head to \(store.head)") }

    // Undo then redo is the identity.
    if let parent = parents[head] {
      let original = head
      try store.undo()
      moveHead(to: parent)
      try checkHead("after the undo of undo-then-redo")
      try store.redo()
      moveHead(to: original)
      try checkHead("after undo-then-redo")
      var withoutMarkers = store.snapshot
      withoutMarkers.clearMarkers()
      if let mismatch = versions[head].firstMismatch(with: withoutMarkers) {
        throw Divergence("undo then redo did not return to v\(head)'s state: \(mismatch)")
      }
      let delivered = changes.take()
      guard delivered.map(\.kind) == [.undo, .redo] else {
        throw Divergence("undo-then-redo delivered \(delivered.map(\.kind)), expected [undo, redo]")
      }
    }
  }

  /// Head, latest version, redo target and `canUndo` are the model's.
  func checkHead(_ when: String) throws {
    let expectedRedo = redoChildren[head].map { Version($0) }
    guard store.head == Version(head), store.latestVersion == Version(versions.count - 1),
      store.redoTarget == expectedRedo, store.canUndo == (parents[head] != nil)
    else {
      throw Divergence(
        "\(when): head \(store.head), latest \(store.latestVersion), redo target \(String(describing: store.redoTarget)), "
          + "canUndo \(store.canUndo); expected v\(head), v\(versions.count - 1), \(String(describing: expectedRedo)), \(parents[head] != nil)")
    }
  }

  /// One change of `kind` was delivered, between the right heads and versions; its transaction
  /// starts at the previous head's state and ends at `finalState`, its item difference turns
  /// one into the other, and its events (when listed) fold the one into the other.
  func checkChange(
    _ delivered: [ListChange<TestSection, TestItem>], kind: ListChange<TestSection, TestItem>.Kind, from: Int, to: Int,
    reverted: [Int], applied: [Int], finalState: Reference
  ) throws {
    guard delivered.count == 1, let change = delivered.first else {
      throw Divergence("expected one \(kind) change, got \(delivered.map(\.kind))")
    }
    guard change.kind == kind, change.previousHead == Version(from), change.head == Version(to),
      change.reverted == reverted.map({ Version($0) }), change.applied == applied.map({ Version($0) })
    else {
      throw Divergence(
        "change is \(change.kind) \(change.previousHead)→\(change.head) reverted \(change.reverted) applied \(change.applied); "
          + "expected \(kind) v\(from)→v\(to) reverted \(reverted) applied \(applied)")
    }
    var initial = change.transaction.initialSnapshot
    initial.clearMarkers()
    if let mismatch = versions[from].firstStateMismatch(with: initial) {
      throw Divergence("\(kind): transaction.initialSnapshot is not v\(from): \(mismatch)")
    }
    var final = change.transaction.finalSnapshot
    final.clearMarkers()
    if let mismatch = finalState.firstStateMismatch(with: final) {
      throw Divergence("\(kind): transaction.finalSnapshot is not v\(to): \(mismatch)")
    }
    let before = versions[from].itemIdentifiers
    let after = finalState.itemIdentifiers
    guard before.applying(change.transaction.difference) == after else {
      throw Divergence("\(kind): transaction.difference does not turn v\(from)'s items \(before) into \(after)")
    }
    if let events = change.events {
      var folded = initial
      for event in events {
        do { try event.apply(to: &folded) } catch {
          throw Divergence("\(kind): event \(event) does not apply to the state it follows: \(error)")
        }
      }
      folded.clearMarkers()
      if let mismatch = finalState.firstStateMismatch(with: folded) {
        throw Divergence("\(kind): the change's events do not fold v\(from) into v\(to): \(mismatch)")
      }
    }
  }

  /// Nothing changed: no version, same head and state (markers included), no record, no change delivered.
  func expectUnchanged(
    since snapshotBefore: Snapshot, recordsBefore: Int, latestBefore: Int, _ delivered: [ListChange<TestSection, TestItem>],
    _ what: String
  ) throws {
    guard store.latestVersion == Version(latestBefore), store.head == Version(head) else {
      throw Divergence("\(what) moved the head to \(store.head) / latest to \(store.latestVersion)")
    }
    let snapshot = store.snapshot
    guard snapshot == snapshotBefore, snapshot.reloadedItemIdentifiers == snapshotBefore.reloadedItemIdentifiers,
      snapshot.reconfiguredItemIdentifiers == snapshotBefore.reconfiguredItemIdentifiers,
      snapshot.reloadedSectionIdentifiers == snapshotBefore.reloadedSectionIdentifiers
    else { throw Divergence("\(what) changed the head snapshot or its markers") }
    guard sink.records.count == recordsBefore else { throw Divergence("\(what) wrote \(sink.records.count - recordsBefore) records") }
    guard delivered.isEmpty else { throw Divergence("\(what) notified observers: \(delivered.map(\.kind))") }
  }

  /// A head move the model says is impossible throws exactly `expected` and changes nothing.
  mutating func expectRefusedHeadMove(_ expected: HistoryError, _ body: (Store) throws -> Void) throws {
    let recordsBefore = sink.records.count
    let snapshotBefore = store.snapshot
    do {
      try body(store)
      throw Divergence("expected «\(expected)», but the head moved to \(store.head)")
    } catch let error as HistoryError {
      guard error == expected else { throw Divergence("threw «\(error)», expected «\(expected)»") }
    }
    try expectUnchanged(
      since: snapshotBefore, recordsBefore: recordsBefore, latestBefore: versions.count - 1, changes.take(), "a refused head move")
    statistics.refusedHeadMoves += 1
  }

  // MARK: The model's undo tree

  /// Records that `version` became the head: its parent's redo goes to it next time.
  mutating func visit(_ version: Int) {
    if let parent = parents[version] { redoChildren[parent] = version }
  }

  mutating func moveHead(to version: Int) {
    head = version
    visit(version)
    headWithMarkers = nil  // a head move's markers are not specified
  }

  func ancestors(of version: Int) -> [Int] {
    var result = [version]
    while let parent = parents[result[result.count - 1]] { result.append(parent) }
    return result
  }

  /// The versions to revert (upwards from `from`) and to apply (downwards to `to`) through the
  /// lowest common ancestor.
  func path(from: Int, to: Int) -> (revert: [Int], apply: [Int]) {
    let up = ancestors(of: from)
    let down = ancestors(of: to)
    let common = Set(up).intersection(down)
    let revert = Array(up.prefix { !common.contains($0) })
    let apply = Array(down.prefix { !common.contains($0) }.reversed())
    return (revert, apply)
  }

  // MARK: Replay

  /// Rebuilds a store from the records by full replay (no useful checkpoints) and checks both
  /// stores against the references on every version: state, info, children, events, and the
  /// redo memory of every version.
  mutating func checkReplay() throws {
    let replayed = try Store(replaying: sink.records, codec: HistoryCodec(), checkpointInterval: 1 << 30)
    guard replayed.head == store.head, replayed.latestVersion == store.latestVersion, replayed.redoTarget == store.redoTarget else {
      throw Divergence(
        "replayed head \(replayed.head) latest \(replayed.latestVersion) redo \(String(describing: replayed.redoTarget)); "
          + "live head \(store.head) latest \(store.latestVersion) redo \(String(describing: store.redoTarget))")
    }
    var replayedHead = replayed.snapshot
    replayedHead.clearMarkers()
    if let mismatch = versions[head].firstMismatch(with: replayedHead) {
      throw Divergence("replayed head snapshot differs from the reference: \(mismatch)")
    }
    var children: [Int: [Version]] = [:]
    for (version, parent) in parents.enumerated() { if let parent { children[parent, default: []].append(Version(version)) } }
    for version in versions.indices {
      let id = Version(version)
      if let mismatch = versions[version].firstMismatch(with: try replayed.state(at: id)) {
        throw Divergence("replayed state(at: v\(version)) differs from the reference: \(mismatch)")
      }
      if let mismatch = versions[version].firstMismatch(with: try store.state(at: id)) {
        throw Divergence("live state(at: v\(version)) differs from the reference: \(mismatch)")
      }
      guard replayed.info(for: id) == store.info(for: id), store.info(for: id)?.parent == parents[version].map({ Version($0) }) else {
        throw Divergence("info(for: v\(version)): replayed \(String(describing: replayed.info(for: id))), live \(String(describing: store.info(for: id)))")
      }
      guard replayed.children(of: id) == store.children(of: id), store.children(of: id) == children[version, default: []] else {
        throw Divergence("children(of: v\(version)): replayed \(replayed.children(of: id)), live \(store.children(of: id)), model \(children[version, default: []])")
      }
      guard try replayed.events(of: id) == store.events(of: id) else { throw Divergence("events(of: v\(version)) differ after replay") }
    }
    // Redo memory of every version (checking out changes it, in both stores and the model alike).
    for version in versions.indices {
      current = "replay: checkout(v\(version)) in both stores"
      try store.checkout(Version(version))
      try replayed.checkout(Version(version))
      moveHead(to: version)
      try checkHead("live store")
      guard replayed.head == store.head, replayed.redoTarget == store.redoTarget else {
        throw Divergence("replayed redo target \(String(describing: replayed.redoTarget)), live \(String(describing: store.redoTarget))")
      }
    }
    _ = changes.take()
  }
}
