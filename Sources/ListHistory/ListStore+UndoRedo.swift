import ListLocking
import ListState

extension ListStore {
  /// Moves the head to its parent, reverting the head version's events (newest first).
  ///
  /// ```swift
  /// let change = try store.undo()
  /// change.reverted   // [the version that was undone]
  /// ```
  /// - Throws: ``HistoryError/nothingToUndo(at:)`` at version 0;
  ///   ``HistoryError/historyGap(at:lost:)`` where a repaired journal's history resumed (its
  ///   parent was lost); ``HistoryError/versionLost(_:lost:)`` at a lost head; the sink's error.
  /// - Complexity: O(events of the undone transaction), independent of history length.
  @inlinable
  @discardableResult
  public func undo() throws -> Change {
    try moveHead(.undo) { state throws(HistoryError) in
      if let error = state.graph.lostError(state.head) ?? state.graph.gapError(before: state.head) { throw error }
      guard let parent = state.graph.parent(of: state.head) else { throw .nothingToUndo(at: Version(state.head)) }
      return parent
    }
  }

  /// Moves the head to the child that was most recently the head, re-applying its events.
  ///
  /// - Throws: ``HistoryError/nothingToRedo(at:)`` when the head has no child; the sink's error.
  /// - Complexity: O(events of the redone transaction).
  @inlinable
  @discardableResult
  public func redo() throws -> Change {
    try moveHead(.redo) { state throws(HistoryError) in
      guard let child = state.graph.redoChild(of: state.head) else { throw .nothingToRedo(at: Version(state.head)) }
      return child
    }
  }

  /// Moves the head to any version (any branch). Walks the path through the common ancestor
  /// when it is short; otherwise jumps through the nearest checkpoint (the change then has no
  /// event list).
  ///
  /// - Throws: ``HistoryError/unknownVersion(_:)``; ``HistoryError/versionLost(_:lost:)`` for a
  ///   version a repair lost; the sink's error.
  /// - Complexity: O(min(path events, 2 × ``checkpointInterval`` + one transaction)) (the
  ///   current interval).
  @inlinable
  @discardableResult
  public func checkout(_ version: Version) throws -> Change {
    try moveHead(.checkout) { state throws(HistoryError) in
      guard state.graph.contains(version.rawValue) else { throw .unknownVersion(version) }
      if let error = state.graph.lostError(version.rawValue) { throw error }
      return version.rawValue
    }
  }

  @inlinable
  func moveHead(_ kind: HistoryHeadMove.Kind, target: (borrowing _StoreState<Section, Item>) throws(HistoryError) -> Int)
    throws -> Change
  {
    // Moves need the history around the head: a store opened from its head reads its window
    // first, and loads the whole history for a move that leaves it.
    while true {
      let moved = try state.withLock { state throws -> (Change, Bool)? in
        guard state.unloaded != nil else { return try state.moveHead(kind, to: target(state)) }
        guard let to = try state.unloadedTarget(kind, target) else { return nil }
        if to == state.window?.root { state.window?.rootVisited = true }
        return try state.moveHead(kind, to: to)
      }
      guard let moved else {
        try _loadHistory()
        continue
      }
      let (change, deliver) = moved
      if deliver { deliverPendingChanges() }
      return change
    }
  }
}

extension _StoreState {
  /// The target of a head move of a store that has not loaded its history, when its window
  /// holds it (read first if need be); nil when the history must be loaded for it.
  @inlinable
  mutating func unloadedTarget(
    _ kind: HistoryHeadMove.Kind, _ target: (borrowing _StoreState<Section, Item>) throws(HistoryError) -> Int
  ) throws(HistoryError) -> Int? {
    for attempt in 0..<2 {
      if attempt == 1 && !readUnloadedWindow() { return nil }
      guard let window else { return nil }
      // The root's parent and a redo child the file did not give are outside the window.
      if kind == .undo && head == window.root {
        if head == 0 { throw .nothingToUndo(at: Version(0)) }
        continue
      }
      if kind == .redo && knownRedoChild(of: head) == nil { continue }
      let to = try target(self)
      if isMaterialized(to) { return to }
    }
    return nil
  }

  @inlinable
  mutating func moveHead(_ kind: HistoryHeadMove.Kind, to target: Int) throws -> (ListChange<Section, Item>, Bool) {
    let from = head
    // No path across a gap (a repaired journal): the fold from a checkpoint below.
    let found = graph.path(from: from, to: target)
    let path = found ?? (revert: [], apply: [])
    // A fold from a checkpoint costs fewer than twice the current interval's events (plus one
    // transaction): walk when the path is no longer.
    let walkLimit = 2 * graph.checkpointInterval
    let walk = found != nil && (kind != .checkout
      || graph.eventCount(along: path.revert, limit: walkLimit) + graph.eventCount(along: path.apply, limit: walkLimit)
        <= walkLimit)
    var final = headSnapshot
    final.clearMarkers()
    var events: [ListEvent<Section, Item>]?
    if walk {
      let pathEvents = graph.pathEvents(path)
      for event in pathEvents { try event.apply(to: &final, verifying: false) }
      events = pathEvents
    } else {
      let plan = graph.foldPlan(at: target)
      final = plan.base
      for event in plan.events { try event.apply(to: &final, verifying: false) }
      // The fold replays changes older than this move; their markers are not this move's.
      // (Content changes still show in a diff: it compares content by `==`.)
      final.clearMarkers()
    }
    // The head move's record does not say how items changed: their remembered contents may no
    // longer be current (conservatively, even if the move fails).
    forgetCurrentContents(changedBy: events)
    let millis = nowMillis()
    try persist(
      .headMove(
        HistoryHeadMove(
          kind: kind, from: Version(from), to: Version(target), latestVersion: Version(graph.count - 1),
          timestamp: Double(millis) / 1000)))
    let initial = headSnapshot
    head = target
    headSnapshot = final
    graph.visit(target)
    checkpointIfDue()
    let changeKind = ListChange<Section, Item>.Kind(rawValue: kind.rawValue) ?? .checkout
    let change = ListChange(
      kind: changeKind, previousHead: Version(from), head: Version(target),
      transaction: _EventDifference.transaction(from: initial, to: final, events: events),
      reverted: path.revert.map { Version($0) }, applied: path.apply.map { Version($0) }, events: events)
    return (change, enqueue(change))
  }
}
