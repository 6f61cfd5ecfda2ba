import ListState

/// One node of the undo tree, kept compact (the tree may hold millions of versions).
@usableFromInline
struct _VersionNode: Sendable {
  @usableFromInline var parent: Int32
  @usableFromInline var firstChild: Int32 = -1
  @usableFromInline var nextSibling: Int32 = -1
  /// The child that was most recently the head (what redo goes to); -1 when none.
  @usableFromInline var redoChild: Int32 = -1
  @usableFromInline var depth: Int32
  @usableFromInline var eventCount: Int32
  @usableFromInline var firstEvent: Int
  /// Replay work (event weights) between the nearest checkpointed ancestor-or-self and this
  /// version (0 on a checkpoint).
  @usableFromInline var eventsSinceCheckpoint: Int
  @usableFromInline var timestampMillis: Int64
  /// Inline rather than in a dictionary by version: undo-menu labels are short (no allocation)
  /// and a commit then costs no hash insert.
  @usableFromInline var label: String?

  @inlinable
  init(parent: Int32, firstChild: Int32 = -1, nextSibling: Int32 = -1, redoChild: Int32 = -1, depth: Int32, eventCount: Int32, firstEvent: Int, eventsSinceCheckpoint: Int, timestampMillis: Int64, label: String? = nil) {
    self.parent = parent
    self.firstChild = firstChild
    self.nextSibling = nextSibling
    self.redoChild = redoChild
    self.depth = depth
    self.eventCount = eventCount
    self.firstEvent = firstEvent
    self.eventsSinceCheckpoint = eventsSinceCheckpoint
    self.timestampMillis = timestampMillis
    self.label = label
  }
}

/// The undo tree: every version with its parent and events, plus in-memory checkpoints.
///
/// Why checkpoints per version node rather than one snapshot per version: a persistent snapshot
/// is O(1) to copy, but each later change path-copies O(log n) nodes, so keeping *every*
/// version's snapshot costs O(log n) node copies per event (gigabytes for 10M events). Keeping
/// one snapshot every `checkpointInterval` events *along each branch* bounds both memory
/// (events / interval snapshots) and time travel (at most one checkpoint plus fewer than
/// 2 × `interval` events), and works for versions on any branch because the checkpoint used is
/// always an ancestor of the target. The interval counts replay *work* (``ListEvent/replayWeight``:
/// one per event plus one per item an insert or delete carries), so a version that inserts a
/// whole list is checkpointed at once instead of being re-inserted by every later time travel.
///
/// Events / interval snapshots still grow with the history, and each can pin a whole list's
/// nodes, so a ``CheckpointBudget`` bounds their estimated memory: when a new one would
/// exceed it, the interval doubles and ``respace()`` drops the checkpoints that are now closer
/// than an interval to the one kept before them (about every other one), recomputing every
/// version's `eventsSinceCheckpoint`. Invariants (checked by the tests): a version's
/// `eventsSinceCheckpoint` is the work since its nearest checkpointed ancestor-or-self; every
/// checkpoint but version 0 is at least `checkpointInterval` after the one before it; every
/// other version is less than `2 * checkpointInterval` after one (the gaps thinning leaves).
@usableFromInline
struct _HistoryGraph<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline typealias Event = ListEvent<Section, Item>
  @usableFromInline typealias Snapshot = ListSnapshot<Section, Item>

  @usableFromInline
  private(set) var nodes: _VersionNodes
  @usableFromInline
  private(set) var events: ContiguousArray<Event> = []
  @usableFromInline
  private(set) var checkpoints: [Int32: Snapshot]
  /// The current spacing of checkpoints along a branch (replay work): `minimumCheckpointInterval`,
  /// doubled each time the budget thinned the checkpoints.
  @usableFromInline
  private(set) var checkpointInterval: Int
  @usableFromInline let minimumCheckpointInterval: Int
  @usableFromInline let checkpointBudget: CheckpointBudget
  /// ``CheckpointBudget/estimatedCost(of:)`` summed over the checkpoints other than version 0's.
  @usableFromInline
  private(set) var checkpointBytes = 0
  /// The checkpoints thinning dropped, for the caller to free (``takeDroppedCheckpoints()``):
  /// a live store frees them off its lock and off the committing thread.
  @usableFromInline
  private(set) var droppedCheckpoints: [Snapshot] = []
  /// Checkpoints whose snapshot the caller supplies later (``fillPendingCheckpoint(_:with:)``),
  /// with their estimated bytes; their entries in `checkpoints` are empty placeholders until
  /// then. A replay that folds flat keeps the states itself and builds only the checkpoints
  /// thinning leaves (about half). Only a replay in progress has any.
  @usableFromInline
  private(set) var pendingCheckpoints: [Int32: Int] = [:]
  /// The pending checkpoints thinning dropped, for the caller to forget
  /// (``takeDroppedPendingCheckpoints()``).
  @usableFromInline
  private(set) var droppedPendingCheckpoints: [Int32] = []
  /// The versions a journal's repair lost (see ``HistoryGap``): roots (no parent, no events)
  /// without a checkpoint. A version a gap's checkpoint resumed at is a root with a checkpoint
  /// that thinning never drops; every other version descends from version 0 or such a root.
  @usableFromInline
  private(set) var lost = _LostVersions()
  /// Whether a gap ever added lost versions (roots other than version 0 may exist).
  @usableFromInline
  private(set) var hasGap = false
  /// The versions `1...droppedThrough` were dropped on purpose by a retention gap, which
  /// starts the history (0: none). Reading one names where the kept history starts.
  @usableFromInline
  private(set) var droppedThrough = 0
  /// Where the kept history starts after a retention gap: the version its checkpoint resumed
  /// at (undo stops there).
  @usableFromInline
  private(set) var keptFrom = 0
  /// Whether a repair's gap was replayed: without one, every lost version of a trimmed
  /// history was dropped (also those committed later on a dropped version).
  @usableFromInline
  private(set) var hasDamageGap = false

  /// The largest interval: doubling stops here (so `2 * checkpointInterval` cannot overflow).
  @inlinable
  static var maximumCheckpointInterval: Int { 1 << 60 }

  @inlinable
  init(checkpointInterval: Int, budget: CheckpointBudget, base: Snapshot = Snapshot(), timestampMillis: Int64 = 0) {
    self.checkpointInterval = min(max(1, checkpointInterval), Self.maximumCheckpointInterval)
    minimumCheckpointInterval = self.checkpointInterval
    checkpointBudget = budget
    nodes = _VersionNodes(
      root: _VersionNode(
        parent: -1, depth: 0, eventCount: 0, firstEvent: 0, eventsSinceCheckpoint: 0, timestampMillis: timestampMillis))
    var base = base
    base.clearMarkers()
    checkpoints = [0: base]
  }

  /// Makes room for `versions` more versions and `events` more events, so that a replay that
  /// knows how many records it will read does not grow the two arrays by doubling: at 10M events
  /// they hold about a gigabyte, and each doubling copied them and touched fresh pages for the
  /// whole copy (a fifth of a 10M-event replay's folding thread). Room never used costs address
  /// space only (the allocator maps such blocks, and untouched pages are never backed).
  ///
  /// - Complexity: O(versions + events) when the arrays move, O(1) otherwise.
  @inlinable
  mutating func reserveCapacity(versions: Int, events eventCount: Int) {
    nodes.reserveCapacity(nodes.count + max(0, versions))
    events.reserveCapacity(events.count + max(0, eventCount))
  }

  @inlinable
  var count: Int { nodes.count }
  @inlinable
  var eventCount: Int { events.count }

  @inlinable
  func contains(_ version: Int) -> Bool { version >= 0 && version < nodes.count }

  /// Adds lost versions from the next one through `last` (a gap, or a commit on a lost
  /// version): roots without events or a state. `gap`: why, for a gap record (nil for a commit
  /// on a lost version); a retention gap only a history holding version 0 alone may take.
  ///
  /// - Complexity: O(versions added), O(1) when version 0 is the only version so far.
  @inlinable
  mutating func addLost(through last: Int, gap: HistoryGap.Reason? = nil) {
    if gap == .damage { hasDamageGap = true }
    guard last >= nodes.count else { return }
    hasGap = true
    if gap == .retention {
      assert(nodes.count == 1, "a retention gap starts the history")
      droppedThrough = last
      keptFrom = last + 1
    }
    lost.insert(nodes.count...last)
    // Lost from the start (dropped or damaged history before the first kept checkpoint): no
    // node per version, so the history kept is all a trimmed journal costs.
    if nodes.count == 1 {
      nodes.addLostPrefix(through: last)
      return
    }
    while nodes.count <= last {
      nodes.append(
        _VersionNode(parent: -1, depth: 0, eventCount: 0, firstEvent: events.count, eventsSinceCheckpoint: 0, timestampMillis: 0))
    }
  }

  /// Makes the lost `version` known again with `state` (the checkpoint after a gap): a root
  /// whose checkpoint is never thinned.
  ///
  /// - Complexity: O(lost runs).
  @inlinable
  mutating func resume(at version: Int, state: Snapshot) {
    if nodes.isInLostPrefix(version) { nodes.storeLostVersions(from: version) }
    assert(lost.contains(version) && nodes[version].parent < 0, "v\(version) is not lost")
    lost.remove(version)
    var state = state
    state.clearMarkers()
    checkpoints[Int32(version)] = state
  }

  /// Notes where the checkpoint after a retention gap resumed the history (also version 0,
  /// which is never lost and so not resumed).
  @inlinable
  mutating func noteResumption(at version: Int) {
    if droppedThrough > 0 && keptFrom == droppedThrough + 1 && version <= droppedThrough { keptFrom = version }
  }

  /// The error for reading or moving to the lost `version`; nil when it is not lost.
  @inlinable
  func lostError(_ version: Int) -> HistoryError? {
    guard let run = lost.run(containing: version) else { return nil }
    if droppedThrough > 0 && (version <= droppedThrough || !hasDamageGap) { return .versionDropped(Version(version), keptFrom: Version(keptFrom)) }
    return .versionLost(Version(version), lost: Version(run.lowerBound)...Version(run.upperBound))
  }

  /// The error for a way between `a` and `b` that a gap cuts (the root of `b`'s side, else of
  /// `a`'s, names the gap).
  ///
  /// - Complexity: O(depth of `a` and `b`).
  @inlinable
  func gapError(between a: Int, and b: Int) -> HistoryError {
    func root(_ version: Int) -> Int {
      var current = version
      while nodes[current].parent >= 0 { current = Int(nodes[current].parent) }
      return current
    }
    if droppedThrough > 0 {
      // A trimmed history has two roots: the kept start, and version 0 (a checkout to it after
      // the cut); the way between them went through the dropped versions.
      let roots = (root(a), root(b))
      if roots.0 != roots.1, [0, keptFrom].contains(roots.0), [0, keptFrom].contains(roots.1) {
        return .pathDropped(from: Version(a), to: Version(b), keptFrom: Version(keptFrom))
      }
    }
    return gapError(before: root(b)) ?? gapError(before: root(a)) ?? .unknownVersion(Version(b))
  }

  /// The error for going from `version` to its unknown parent, when it is a root a gap left
  /// (nil for version 0 and every version with a parent).
  @inlinable
  func gapError(before version: Int) -> HistoryError? {
    guard version > 0, nodes[version].parent < 0, !lost.contains(version) else { return nil }
    // The kept history of a trimmed journal starts here: there is nothing before it to undo to.
    if droppedThrough > 0 && version == keptFrom { return .nothingToUndo(at: Version(version)) }
    // The checkpoint's head may have been the first, last or a middle version of its gap.
    let run = lost.run(containing: version - 1) ?? lost.run(containing: version + 1) ?? lost.run(before: version)
      ?? (version...version)
    return .historyGap(at: Version(version), lost: Version(run.lowerBound)...Version(run.upperBound))
  }

  @inlinable
  func parent(of version: Int) -> Int? {
    let parent = nodes[version].parent
    return parent < 0 ? nil : Int(parent)
  }

  @inlinable
  func redoChild(of version: Int) -> Int? {
    let child = nodes[version].redoChild
    return child < 0 ? nil : Int(child)
  }

  @inlinable
  func children(of version: Int) -> [Int] {
    var result: [Int] = []
    var child = nodes[version].firstChild
    while child >= 0 {
      result.append(Int(child))
      child = nodes[Int(child)].nextSibling
    }
    return result.reversed()  // creation order
  }

  @inlinable
  func events(of version: Int) -> ArraySlice<Event> {
    let node = nodes[version]
    return events[node.firstEvent..<(node.firstEvent + Int(node.eventCount))]
  }

  @inlinable
  func label(of version: Int) -> String? { nodes[version].label }

  @inlinable
  func info(of version: Int) -> VersionInfo {
    let node = nodes[version]
    return VersionInfo(
      version: Version(version), parent: node.parent < 0 ? nil : Version(Int(node.parent)),
      timestamp: Double(node.timestampMillis) / 1000, label: node.label,
      operationCount: Int(node.eventCount))
  }

  /// Adds a version on top of `parent`; `stateAfter` is kept as a checkpoint when due. The
  /// events are moved out of `newEvents` (left empty): a commit's events are not copied, and the
  /// transaction that recorded them then has nothing left to release.
  ///
  /// - Complexity: O(events) amortized; when the new checkpoint exceeds the budget, one or more
  ///   O(versions + events) thinning passes (see ``CheckpointBudget``).
  @inlinable
  mutating func add(
    parent: Int, moving newEvents: inout [Event], label: String?, timestampMillis: Int64,
    stateAfter: @autoclosure () -> Snapshot
  ) -> Int {
    let count = newEvents.count
    let weight = appendEvents(movingIn: newEvents.indices, of: &newEvents)
    newEvents.removeAll()  // placeholders only
    return addVersion(parent: parent, eventCount: count, weight: weight, label: label, timestampMillis: timestampMillis) {
      .snapshot(stateAfter())
    }
  }

  /// ``add(parent:moving:label:timestampMillis:stateAfter:)`` for events that may sit in a
  /// buffer shared by many commits: those in `range` (of replay work `weight`, summed here when
  /// nil) are moved out of `buffer`, each leaving an empty placeholder event behind. A
  /// checkpoint due here is left pending (see `pendingCheckpoints`), counted at
  /// `pendingCheckpointBytes`: the caller keeps its state and fills it in later, unless
  /// thinning drops it first (this very call may).
  ///
  /// - Returns: the new version, and whether it is a (pending) checkpoint.
  @inlinable
  mutating func add(
    parent: Int, movingEventsIn range: Range<Int>, of buffer: inout [Event], weight: Int? = nil, label: String?,
    timestampMillis: Int64, pendingCheckpointBytes: @autoclosure () -> Int
  ) -> (version: Int, isCheckpoint: Bool) {
    assert(weight == nil || weight == Self.replayWeight(of: buffer, in: range), "a commit's replay work miscounted")
    let weight = appendEvents(movingIn: range, of: &buffer, weight: weight)
    var isCheckpoint = false
    let version = addVersion(
      parent: parent, eventCount: range.count, weight: weight, label: label, timestampMillis: timestampMillis
    ) {
      isCheckpoint = true
      return .pending(estimatedBytes: pendingCheckpointBytes())
    }
    return (version, isCheckpoint)
  }

  /// Appends the events in `range` of `buffer` to the history, each moved out (no retain now,
  /// no release later) and replaced by a placeholder; returns their total replay weight
  /// (`weight` when known).
  @inlinable
  mutating func appendEvents(movingIn range: Range<Int>, of buffer: inout [Event], weight: Int? = nil) -> Int {
    let weight = weight ?? Self.replayWeight(of: buffer, in: range)
    for index in range { events.append(Self.take(&buffer[index])) }
    return weight
  }

  /// Moves `event` out, leaving an event that owns nothing in its place.
  @inlinable
  static func take(_ event: inout Event) -> Event {
    var taken = Event.reloadSections([])
    swap(&taken, &event)
    return taken
  }

  /// Adds the version whose `eventCount` events (of replay work `weight`) were just appended;
  /// `checkpoint` is called only when a checkpoint is due.
  @inlinable
  mutating func addVersion(
    parent: Int, eventCount: Int, weight: Int, label: String?, timestampMillis: Int64, checkpoint: () -> _NewCheckpoint
  ) -> Int {
    let version = nodes.count
    let parentNode = nodes[parent]
    let since = parentNode.eventsSinceCheckpoint + weight
    let isCheckpoint = since >= checkpointInterval
    nodes.append(
      _VersionNode(
        parent: Int32(parent), nextSibling: parentNode.firstChild, depth: parentNode.depth + 1,
        eventCount: Int32(eventCount), firstEvent: events.count - eventCount,
        eventsSinceCheckpoint: isCheckpoint ? 0 : since, timestampMillis: timestampMillis, label: label))
    nodes[parent].firstChild = Int32(version)
    if isCheckpoint {
      switch checkpoint() {
      case .snapshot(var state):
        state.clearMarkers()
        checkpointBytes += CheckpointBudget.estimatedCost(of: state)
        checkpoints[Int32(version)] = state
      case .pending(let estimatedBytes):
        checkpointBytes += estimatedBytes
        checkpoints[Int32(version)] = Snapshot()  // a placeholder: the key marks the checkpoint
        pendingCheckpoints[Int32(version)] = estimatedBytes
      }
      if let limit = checkpointBudget.maximumBytes, checkpointBytes > limit { thin(toFit: limit) }
    }
    return version
  }

  /// A new checkpoint's state: a snapshot, or one the caller supplies later (its estimated
  /// bytes meanwhile).
  @usableFromInline
  enum _NewCheckpoint {
    case snapshot(Snapshot)
    case pending(estimatedBytes: Int)
  }

  /// Supplies the snapshot of the pending checkpoint at `version` (its estimated bytes stay
  /// counted: the estimate of a state is the same however it is held).
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func fillPendingCheckpoint(_ version: Int32, with snapshot: Snapshot) {
    let wasPending = pendingCheckpoints.removeValue(forKey: version) != nil
    assert(wasPending, "v\(version) is not a pending checkpoint")
    checkpoints[version] = snapshot
  }

  /// The pending checkpoints thinning dropped since the last call (see
  /// `droppedPendingCheckpoints`).
  @inlinable
  mutating func takeDroppedPendingCheckpoints() -> [Int32] {
    guard !droppedPendingCheckpoints.isEmpty else { return [] }
    defer { droppedPendingCheckpoints = [] }
    return droppedPendingCheckpoints
  }

  /// The total ``ListEvent/replayWeight`` of the events in `range`.
  ///
  /// A function of its own, never inlined: inlined where the events are then moved out
  /// (`appendEvents(movingIn:of:)`), the optimizer kept the reference it took to read the array
  /// alive past the loop, so the array was shared when the events were moved out, and every
  /// commit copied its array (each event through the generic copy witness): 10% of a replay's
  /// folding thread.
  @inlinable
  @inline(never)
  static func replayWeight(of events: borrowing [Event], in range: Range<Int>) -> Int {
    var weight = 0
    for index in range { weight += events[index].replayWeight }  // no copy of each event
    return weight
  }

  /// Doubles the interval and drops the checkpoints closer than it to the one kept before them,
  /// until the checkpoints fit in `limit` estimated bytes (or only version 0's is left).
  ///
  /// - Complexity: O(versions + events) per doubling.
  @inlinable
  mutating func thin(toFit limit: Int) {
    repeat {
      checkpointInterval = min(2 * checkpointInterval, Self.maximumCheckpointInterval)
      respace()
    } while checkpointBytes > limit && checkpoints.count > 1 && checkpointInterval < Self.maximumCheckpointInterval
  }

  /// Recomputes every version's `eventsSinceCheckpoint` for the current interval, keeping a
  /// checkpoint only when it is at least an interval after the checkpoint kept before it on its
  /// branch (version 0's always). Never adds one: only states already kept are available.
  ///
  /// Why greedy along each branch: the old checkpoints were at least half the new interval apart,
  /// so about every other one stays and the kept ones remain roughly evenly spaced. A version is
  /// then less than two (new) intervals after a kept checkpoint: the last dropped checkpoint
  /// before it is less than one interval after one (or it would have been kept), and the version
  /// was less than two old intervals — one new one — after that.
  ///
  /// - Complexity: O(versions), plus the events of the checkpoints (a dictionary lookup only at
  ///   versions that were checkpoints or followed one without events).
  @inlinable
  mutating func respace() {
    // Two passes over the versions, none over the events: a version's own work is the
    // difference between its count and its parent's, except on a checkpoint (reset to 0),
    // whose own events are summed. Reading every event instead cost a pass over gigabytes
    // (and a retain and release of each insertion's outline) per thinning: 6% of a 10M-event
    // replay's folding thread with the default budget.
    //
    // Pass 1, children before parents (a parent's number is smaller): each version's count
    // becomes its own work, bitwise-complemented (negative) on a checkpoint to mark it.
    for version in nodes.storedVersionsAfterRoot.reversed() {
      // A gap's roots (lost, or resumed with a checkpoint kept for good) stay at 0.
      if nodes[version].parent < 0 { continue }
      let since = nodes[version].eventsSinceCheckpoint
      // A checkpoint has 0; other versions only when neither they nor their parent's path since
      // the checkpoint carried events (so most versions skip the lookup).
      if since == 0, checkpoints[Int32(version)] != nil {
        var own = 0
        let firstEvent = nodes[version].firstEvent  // fields, not the node: no copy of its label
        for index in firstEvent..<(firstEvent + Int(nodes[version].eventCount)) { own += events[index].replayWeight }
        nodes[version].eventsSinceCheckpoint = ~own
      } else {
        nodes[version].eventsSinceCheckpoint = since - nodes[Int(nodes[version].parent)].eventsSinceCheckpoint
      }
    }
    // Pass 2, parents before children: the counts for the current interval, and the checkpoints
    // too close to the one kept before them dropped.
    for version in nodes.storedVersionsAfterRoot {
      if nodes[version].parent < 0 { continue }
      let own = nodes[version].eventsSinceCheckpoint
      var since = nodes[Int(nodes[version].parent)].eventsSinceCheckpoint + (own < 0 ? ~own : own)
      if own < 0 {
        if since >= checkpointInterval {
          since = 0
        } else {
          let checkpoint = checkpoints.removeValue(forKey: Int32(version))!
          if let estimatedBytes = pendingCheckpoints.removeValue(forKey: Int32(version)) {
            checkpointBytes -= estimatedBytes
            droppedPendingCheckpoints.append(Int32(version))
          } else {
            checkpointBytes -= CheckpointBudget.estimatedCost(of: checkpoint)
            droppedCheckpoints.append(checkpoint)
          }
        }
      }
      nodes[version].eventsSinceCheckpoint = since
    }
  }

  /// The checkpoints dropped since the last call (see `droppedCheckpoints`).
  @inlinable
  mutating func takeDroppedCheckpoints() -> [Snapshot] {
    guard !droppedCheckpoints.isEmpty else { return [] }
    defer { droppedCheckpoints = [] }
    return droppedCheckpoints
  }

  /// Records that `version` became the head: its parent's redo goes to it next time.
  @inlinable
  mutating func visit(_ version: Int) {
    let parent = nodes[version].parent
    if parent >= 0 { nodes[Int(parent)].redoChild = Int32(version) }
  }

  /// The way from `from` to `to` through their lowest common ancestor: the versions to revert
  /// (from `from` upwards, in order) and the versions to apply (downwards, in order).
  ///
  /// Nil when the two are on different sides of a gap (no common ancestor).
  ///
  /// - Complexity: O(path length).
  @inlinable
  func path(from: Int, to: Int) -> (revert: [Int], apply: [Int])? {
    var a = from
    var b = to
    var revert: [Int] = []
    var apply: [Int] = []
    while nodes[a].depth > nodes[b].depth {
      revert.append(a)
      a = Int(nodes[a].parent)
    }
    while nodes[b].depth > nodes[a].depth {
      apply.append(b)
      b = Int(nodes[b].parent)
    }
    while a != b {
      // Both at depth 0: two different roots.
      if nodes[a].parent < 0 { return nil }
      revert.append(a)
      apply.append(b)
      a = Int(nodes[a].parent)
      b = Int(nodes[b].parent)
    }
    return (revert, apply.reversed())
  }

  /// The way from `from` to `to` (as ``path(from:to:)``) when it carries at most `limit`
  /// events and crosses at most `limit` versions; nil as soon as it is known to be longer.
  ///
  /// Why bounded: a time travel compares the path from the head with the fold from a
  /// checkpoint, and in a long history the path to a random version is hundreds of thousands of
  /// versions (the whole walk to the common ancestor, two arrays as long) — that walk, not the
  /// fold, was most of `state(at:)`. Counting versions too bounds walks over empty versions.
  ///
  /// - Complexity: O(min(path length, limit)).
  @inlinable
  func path(from: Int, to: Int, limit: Int) -> (revert: [Int], apply: [Int])? {
    var a = from
    var b = to
    var revert: [Int] = []
    var apply: [Int] = []
    var events = 0
    var steps = 0
    func step(_ version: inout Int, into list: inout [Int]) -> Bool {
      list.append(version)
      events += Int(nodes[version].eventCount)
      steps += 1
      version = Int(nodes[version].parent)
      return events <= limit && steps <= limit
    }
    while nodes[a].depth > nodes[b].depth {
      guard step(&a, into: &revert) else { return nil }
    }
    while nodes[b].depth > nodes[a].depth {
      guard step(&b, into: &apply) else { return nil }
    }
    while a != b {
      if nodes[a].parent < 0 { return nil }
      guard step(&a, into: &revert), step(&b, into: &apply) else { return nil }
    }
    return (revert, apply.reversed())
  }

  /// The number of events along a path, stopping early once it exceeds `limit`.
  @inlinable
  func eventCount(along versions: [Int], limit: Int) -> Int {
    var total = 0
    for version in versions {
      total += Int(nodes[version].eventCount)
      if total > limit { return total }
    }
    return total
  }

  /// The cheaper way to the state at `version`: ``foldPlan(at:)``, or `headState` (the state at
  /// `head`) with the events of the path from `head` (inverses up to the common ancestor, then
  /// the versions down to `version`) when those are fewer events.
  ///
  /// - Complexity: O(the cheapest plan's events), at most O(2 × checkpointInterval + one
  ///   transaction) (the current interval).
  @inlinable
  func foldPlan(at version: Int, orFrom head: Int, state headState: Snapshot) -> (base: Snapshot, events: [Event]) {
    let (ancestor, forwardEvents) = checkpointedAncestor(of: version)
    let descendant = forwardEvents > 0 ? checkpointedDescendant(of: version, limit: forwardEvents - 1) : nil
    let checkpointEvents = descendant?.events ?? forwardEvents
    // Strictly fewer events than the checkpoint fold (ties go to the checkpoint: no path to build).
    if checkpointEvents > 0, let path = path(from: head, to: version, limit: checkpointEvents - 1) {
      var base = headState
      base.clearMarkers()
      return (base, pathEvents(path))
    }
    if let descendant { return (checkpoints[Int32(descendant.version)]!, revertPlan(from: descendant.version, to: version)) }
    return (checkpoints[Int32(ancestor)]!, applyPlan(from: ancestor, to: version))
  }

  /// The nearest checkpoint to `version` and the events from it: the checkpointed
  /// ancestor-or-self folded forwards, or — when fewer events — a checkpointed descendant on the
  /// redo line folded backwards (the inverses of the versions in between, newest first).
  ///
  /// Why both directions: a version is on average half an interval after its checkpoint, but only
  /// a quarter of one from the nearer of the checkpoints before and after it (events are exact
  /// inverses, so reverting costs what applying does). That halves time travel for the same
  /// checkpoint memory — or allows checkpoints half as dense.
  ///
  /// - Complexity: O(2 × checkpointInterval + events of one transaction) (the current interval;
  ///   twice it where thinning left a longer gap).
  @inlinable
  func foldPlan(at version: Int) -> (base: Snapshot, events: [Event]) {
    let plan = foldPlanFromVersion(at: version)
    assert(pendingCheckpoints[Int32(plan.baseVersion)] == nil, "a pending checkpoint used as a snapshot")
    return (checkpoints[Int32(plan.baseVersion)]!, plan.events)
  }

  /// ``foldPlan(at:)`` naming the checkpoint it starts from instead of returning its state
  /// (which may be pending: see `pendingCheckpoints`).
  @inlinable
  func foldPlanFromVersion(at version: Int) -> (baseVersion: Int, events: [Event]) {
    let (ancestor, forwardEvents) = checkpointedAncestor(of: version)
    if forwardEvents > 0, let descendant = checkpointedDescendant(of: version, limit: forwardEvents - 1) {
      return (descendant.version, revertPlan(from: descendant.version, to: version))
    }
    return (ancestor, applyPlan(from: ancestor, to: version))
  }

  /// The nearest checkpointed ancestor-or-self of `version` and the number of events after it.
  @inlinable
  func checkpointedAncestor(of version: Int) -> (version: Int, events: Int) {
    var events = 0
    var current = version
    while checkpoints[Int32(current)] == nil {
      events += Int(nodes[current].eventCount)
      current = Int(nodes[current].parent)
    }
    return (current, events)
  }

  /// The first checkpointed proper descendant of `version` along the redo line (each version's
  /// redo child, else its newest child) within `limit` events and `limit` versions; nil if none.
  ///
  /// - Complexity: O(min(limit, distance to the checkpoint)).
  @inlinable
  func checkpointedDescendant(of version: Int, limit: Int) -> (version: Int, events: Int)? {
    var events = 0
    var current = version
    var steps = 0
    while true {
      let node = nodes[current]
      let child = node.redoChild >= 0 ? node.redoChild : node.firstChild
      guard child >= 0 else { return nil }
      current = Int(child)
      events += Int(nodes[current].eventCount)
      steps += 1
      guard events <= limit, steps <= limit else { return nil }
      if checkpoints[child] != nil { return (current, events) }
    }
  }

  /// The events of the versions after the checkpoint at `ancestor` down to `version`.
  @inlinable
  func applyPlan(from ancestor: Int, to version: Int) -> [Event] {
    var chain: [Int] = []
    var current = version
    while current != ancestor {
      chain.append(current)
      current = Int(nodes[current].parent)
    }
    var plan: [Event] = []
    for step in chain.reversed() { plan.append(contentsOf: events(of: step)) }
    return plan
  }

  /// The inverses of the events of the versions from the checkpoint at `descendant` up to (not
  /// including) its ancestor `version`, newest first.
  @inlinable
  func revertPlan(from descendant: Int, to version: Int) -> [Event] {
    var plan: [Event] = []
    var current = descendant
    while current != version {
      appendInverses(of: current, to: &plan)
      current = Int(nodes[current].parent)
    }
    return plan
  }

  /// Appends the inverses of `version`'s events, newest first (what reverting it applies).
  @inlinable
  func appendInverses(of version: Int, to plan: inout [Event]) {
    let node = nodes[version]
    var index = node.firstEvent + Int(node.eventCount)
    while index > node.firstEvent {
      index -= 1
      plan.append(events[index].inverse)
    }
  }
}

extension _HistoryGraph {
  /// Turns a fresh graph into one that stands for `latest + 1` versions without their nodes,
  /// but for `head`, a root whose state is `state`: a store opened from its head, whose commits
  /// then go on top of `head` (see ``_UnloadedHistory``). The versions after `head` get stored
  /// placeholder nodes (``fillUnloaded(_:parent:moving:label:timestampMillis:stateAfter:)``);
  /// after version 0 only with `storingNodes`.
  ///
  /// - Complexity: O(latest − head) (the nodes from the head to the newest version are kept).
  @inlinable
  mutating func startUnloaded(through latest: Int, head: Int, state: Snapshot, storingNodes: Bool = false) {
    precondition(count == 1 && head <= latest, "only a fresh graph starts unloaded")
    if latest >= 1 { nodes.addLostPrefix(through: latest) }
    // Version 0's children need stored nodes too when they are to be filled in.
    if latest >= 1 && (head >= 1 || storingNodes) { nodes.storeLostVersions(from: max(1, head)) }
    var state = state
    state.clearMarkers()
    checkpoints[Int32(head)] = state
  }

  /// The version node and events of `version`, for moving a commit made before the history was
  /// loaded into the loaded graph.
  @inlinable
  func node(_ version: Int) -> _VersionNode { nodes[version] }

  /// A redo child that is not known (`_VersionNode.redoChild`): the versions of a store opened
  /// from its head that it read from the file without their redo children. Reads as none.
  @inlinable
  static var unknownRedoChild: Int32 { -2 }

  /// Whether `version`'s redo child is not known (see ``unknownRedoChild``).
  @inlinable
  func isRedoChildUnknown(of version: Int) -> Bool { nodes[version].redoChild == Self.unknownRedoChild }

  /// Sets `version`'s redo child (nil: none) as read from the file, or marks it unknown.
  @inlinable
  mutating func setRedoChild(of version: Int, to child: Int??) {
    switch child {
    case .some(.some(let child)): nodes[version].redoChild = Int32(child)
    case .some(.none): nodes[version].redoChild = -1
    case .none: nodes[version].redoChild = Self.unknownRedoChild
    }
  }

  /// Fills the stored placeholder of `version` (a graph started unloaded, see
  /// ``startUnloaded(through:head:state:)``) with the version read from the file: a child of
  /// `parent`, which is filled already, with `newEvents` (moved out) and `stateAfter` kept as a
  /// checkpoint when due. Versions are filled in ascending order.
  ///
  /// - Complexity: O(events), as ``add(parent:moving:label:timestampMillis:stateAfter:)``.
  @inlinable
  mutating func fillUnloaded(
    _ version: Int, parent: Int, moving newEvents: inout [Event], label: String?, timestampMillis: Int64,
    stateAfter: @autoclosure () -> Snapshot
  ) {
    precondition(parent < version && nodes[version].parent < 0, "v\(version) is not a placeholder after v\(parent)")
    let count = newEvents.count
    let weight = appendEvents(movingIn: newEvents.indices, of: &newEvents)
    newEvents.removeAll()
    let parentNode = nodes[parent]
    let since = parentNode.eventsSinceCheckpoint + weight
    let isCheckpoint = since >= checkpointInterval
    nodes[version] = _VersionNode(
      parent: Int32(parent), nextSibling: parentNode.firstChild, depth: parentNode.depth + 1,
      eventCount: Int32(count), firstEvent: events.count - count, eventsSinceCheckpoint: isCheckpoint ? 0 : since,
      timestampMillis: timestampMillis, label: label)
    nodes[parent].firstChild = Int32(version)
    if isCheckpoint {
      var state = stateAfter()
      state.clearMarkers()
      checkpointBytes += CheckpointBudget.estimatedCost(of: state)
      checkpoints[Int32(version)] = state
      if let limit = checkpointBudget.maximumBytes, checkpointBytes > limit { thin(toFit: limit) }
    }
  }
}
