import ListState

/// One node of the undo tree, kept compact (the tree may hold millions of versions).
struct _VersionNode: Sendable {
  var parent: Int32
  var firstChild: Int32 = -1
  var nextSibling: Int32 = -1
  /// The child that was most recently the head (what redo goes to); -1 when none.
  var redoChild: Int32 = -1
  var depth: Int32
  var eventCount: Int32
  var firstEvent: Int
  /// Replay work (event weights) between the nearest checkpointed ancestor-or-self and this
  /// version (0 on a checkpoint).
  var eventsSinceCheckpoint: Int
  var timestampMillis: Int64
  /// Inline rather than in a dictionary by version: undo-menu labels are short (no allocation)
  /// and a commit then costs no hash insert.
  var label: String?
}

/// The undo tree: every version with its parent and events, plus in-memory checkpoints.
///
/// Why checkpoints per version node rather than one snapshot per version: a persistent snapshot
/// is O(1) to copy, but each later change path-copies O(log n) nodes, so keeping *every*
/// version's snapshot costs O(log n) node copies per event (gigabytes for 10M events). Keeping
/// one snapshot every `checkpointInterval` events *along each branch* bounds both memory
/// (events / interval snapshots) and time travel (at most one checkpoint plus `interval` events
/// plus one transaction), and works for versions on any branch because the checkpoint used is
/// always an ancestor of the target. The interval counts replay *work* (``ListEvent/replayWeight``:
/// one per event plus one per item an insert or delete carries), so a version that inserts a
/// whole list is checkpointed at once instead of being re-inserted by every later time travel.
struct _HistoryGraph<Section: ListElement, Item: ListElement>: Sendable {
  typealias Event = ListEvent<Section, Item>
  typealias Snapshot = ListSnapshot<Section, Item>

  private(set) var nodes: ContiguousArray<_VersionNode>
  private(set) var events: ContiguousArray<Event> = []
  private(set) var checkpoints: [Int32: Snapshot]
  let checkpointInterval: Int

  init(checkpointInterval: Int, base: Snapshot = Snapshot(), timestampMillis: Int64 = 0) {
    self.checkpointInterval = max(1, checkpointInterval)
    nodes = [
      _VersionNode(
        parent: -1, depth: 0, eventCount: 0, firstEvent: 0, eventsSinceCheckpoint: 0, timestampMillis: timestampMillis)
    ]
    var base = base
    base.clearMarkers()
    checkpoints = [0: base]
  }

  var count: Int { nodes.count }
  var eventCount: Int { events.count }

  func contains(_ version: Int) -> Bool { version >= 0 && version < nodes.count }

  func parent(of version: Int) -> Int? {
    let parent = nodes[version].parent
    return parent < 0 ? nil : Int(parent)
  }

  func redoChild(of version: Int) -> Int? {
    let child = nodes[version].redoChild
    return child < 0 ? nil : Int(child)
  }

  func children(of version: Int) -> [Int] {
    var result: [Int] = []
    var child = nodes[version].firstChild
    while child >= 0 {
      result.append(Int(child))
      child = nodes[Int(child)].nextSibling
    }
    return result.reversed()  // creation order
  }

  func events(of version: Int) -> ArraySlice<Event> {
    let node = nodes[version]
    return events[node.firstEvent..<(node.firstEvent + Int(node.eventCount))]
  }

  func label(of version: Int) -> String? { nodes[version].label }

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
  /// - Complexity: O(events) amortized.
  mutating func add(
    parent: Int, moving newEvents: inout [Event], label: String?, timestampMillis: Int64,
    stateAfter: @autoclosure () -> Snapshot
  ) -> Int {
    let version = nodes.count
    let parentNode = nodes[parent]
    var since = parentNode.eventsSinceCheckpoint
    for index in newEvents.indices { since += newEvents[index].replayWeight }  // no copy of each event
    let isCheckpoint = since >= checkpointInterval
    nodes.append(
      _VersionNode(
        parent: Int32(parent), nextSibling: parentNode.firstChild, depth: parentNode.depth + 1,
        eventCount: Int32(newEvents.count), firstEvent: events.count,
        eventsSinceCheckpoint: isCheckpoint ? 0 : since, timestampMillis: timestampMillis, label: label))
    nodes[parent].firstChild = Int32(version)
    if newEvents.count == 1 {
      events.append(newEvents.removeLast())  // a move: no retain now, no release later
    } else {
      events.append(contentsOf: newEvents)
      newEvents.removeAll()
    }
    if isCheckpoint {
      var state = stateAfter()
      state.clearMarkers()
      checkpoints[Int32(version)] = state
    }
    return version
  }

  /// Records that `version` became the head: its parent's redo goes to it next time.
  mutating func visit(_ version: Int) {
    let parent = nodes[version].parent
    if parent >= 0 { nodes[Int(parent)].redoChild = Int32(version) }
  }

  /// The way from `from` to `to` through their lowest common ancestor: the versions to revert
  /// (from `from` upwards, in order) and the versions to apply (downwards, in order).
  ///
  /// - Complexity: O(path length).
  func path(from: Int, to: Int) -> (revert: [Int], apply: [Int]) {
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
      revert.append(a)
      apply.append(b)
      a = Int(nodes[a].parent)
      b = Int(nodes[b].parent)
    }
    return (revert, apply.reversed())
  }

  /// The number of events along a path, stopping early once it exceeds `limit`.
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
  /// - Complexity: O(min(checkpoint fold, path) events) plus O(path length) to find the path.
  func foldPlan(at version: Int, orFrom head: Int, state headState: Snapshot) -> (base: Snapshot, events: [Event]) {
    var foldEvents = 0
    var current = version
    while checkpoints[Int32(current)] == nil {
      foldEvents += Int(nodes[current].eventCount)
      current = Int(nodes[current].parent)
    }
    let path = path(from: head, to: version)
    let limit = foldEvents
    let pathEvents = eventCount(along: path.revert, limit: limit) + eventCount(along: path.apply, limit: limit)
    guard pathEvents < foldEvents else { return foldPlan(at: version) }
    var base = headState
    base.clearMarkers()
    return (base, self.pathEvents(path))
  }

  /// The nearest checkpointed ancestor-or-self of `version` and the events from it to `version`.
  ///
  /// - Complexity: O(checkpointInterval + events of one transaction).
  func foldPlan(at version: Int) -> (base: Snapshot, events: [Event]) {
    var chain: [Int] = []
    var current = version
    while checkpoints[Int32(current)] == nil {
      chain.append(current)
      current = Int(nodes[current].parent)
    }
    var plan: [Event] = []
    for step in chain.reversed() { plan.append(contentsOf: events(of: step)) }
    return (checkpoints[Int32(current)]!, plan)
  }
}
