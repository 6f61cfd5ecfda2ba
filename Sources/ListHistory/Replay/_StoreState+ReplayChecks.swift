import ListState

extension _StoreState {
  /// How a replayed head move reaches `target`: the events of a short path from the head (undo
  /// and redo: one transaction), with no base; otherwise the version of a checkpoint and the
  /// events from its state (in a flat replay the checkpoint may be pending: see
  /// ``_PendingCheckpoints``).
  @inlinable
  func headMovePlan(to target: Int) -> (baseVersion: Int?, events: [ListEvent<Section, Item>]) {
    // Twice the current interval: what a fold from a checkpoint may cost (see `_HistoryGraph`).
    if let path = graph.path(from: head, to: target, limit: 2 * graph.checkpointInterval) {
      return (nil, graph.pathEvents(path))
    }
    let plan = graph.foldPlanFromVersion(at: target)
    return (plan.baseVersion, plan.events)
  }

  /// Refuses any record but a checkpoint right after a gap (the history resumes there).
  @inlinable
  func checkResumed(_ kind: HistoryRecord.Kind) throws(HistoryError) {
    guard !awaitsResumption || kind == .checkpoint else {
      throw .inconsistentEvent(reason: "a \(kind) record right after a gap: a checkpoint must follow the gap")
    }
  }

  /// Refuses a replayed gap that does not start right after the newest version.
  @inlinable
  func checkReplayed(_ gap: HistoryGap) throws(HistoryError) {
    guard gap.latestVersion.rawValue - gap.lostCount == graph.count - 1 else {
      throw .inconsistentEvent(
        reason: "a gap of \(gap.lostCount) versions up to \(gap.latestVersion) while the newest version is v\(graph.count - 1)")
    }
  }

  /// Applies a replayed gap: its versions become lost and the head unknown until the
  /// checkpoint that follows (the caller drops the head's state).
  @inlinable
  mutating func replayGap(_ gap: HistoryGap) throws(HistoryError) {
    try checkReplayed(gap)
    guard gap.reason != .retention || graph.count == 1 else {
      throw .inconsistentEvent(reason: "a retention gap after v\(graph.count - 1): only the first record may drop history")
    }
    graph.addLost(through: gap.latestVersion.rawValue, gap: gap.reason)
    // Where the head is stays unknown until the checkpoint: any version, never read.
    head = gap.latestVersion.rawValue
    awaitsResumption = true
  }

  /// Applies the checkpoint that follows a gap: the head goes to its head, whose state it gives
  /// (a lost version comes back). Returns that state, markers cleared.
  @inlinable
  mutating func resume(at checkpoint: HistoryCheckpoint<Section, Item>) throws(HistoryError) -> ListSnapshot<Section, Item> {
    let target = checkpoint.head.rawValue
    guard checkpoint.latestVersion.rawValue == graph.count - 1, graph.contains(target) else {
      throw .inconsistentEvent(
        reason: "checkpoint of \(checkpoint.head) (latest \(checkpoint.latestVersion)) after a gap ending at v\(graph.count - 1)")
    }
    var state = checkpoint.snapshot
    state.clearMarkers()
    if graph.lost.contains(target) { graph.resume(at: target, state: state) }
    graph.noteResumption(at: target)
    head = target
    graph.visit(target)
    awaitsResumption = false
    return state
  }

  /// Refuses a replayed commit that does not extend the history at the head.
  @inlinable
  func checkReplayed(_ commit: HistoryCommit<Section, Item>) throws(HistoryError) {
    guard commit.version.rawValue == graph.count else {
      throw .inconsistentEvent(reason: "commit creates \(commit.version), expected v\(graph.count)")
    }
    guard commit.parent.rawValue == head else {
      throw .inconsistentEvent(reason: "commit on \(commit.parent) while the head is v\(head)")
    }
  }

  /// Refuses a replayed head move that does not start at the head or does not go where its
  /// kind says.
  @inlinable
  func checkReplayed(_ move: HistoryHeadMove) throws(HistoryError) {
    guard move.from.rawValue == head, move.latestVersion.rawValue == graph.count - 1 else {
      throw .inconsistentEvent(
        reason: "\(move.kind) from \(move.from) (latest \(move.latestVersion)) while the head is v\(head) (latest v\(graph.count - 1))")
    }
    let target = move.to.rawValue
    guard graph.contains(target) else { throw .inconsistentEvent(reason: "\(move.kind) to unknown \(move.to)") }
    // Across a gap the way a move went is unknown (the head's parent, or the target's, was lost).
    if graph.lost.contains(head) || graph.lost.contains(target) || graph.gapError(before: head) != nil
      || graph.gapError(before: target) != nil
    {
      return
    }
    switch move.kind {
    case .undo:
      guard graph.parent(of: head) == target else { throw .inconsistentEvent(reason: "undo to \(move.to) is not to the parent") }
    case .redo:
      guard graph.redoChild(of: head) == target else { throw .inconsistentEvent(reason: "redo to \(move.to) is not the redo child") }
    case .checkout: break
    }
  }

  /// Refuses a replayed checkpoint that does not describe the head of the history so far.
  @inlinable
  func checkReplayed(_ checkpoint: HistoryCheckpoint<Section, Item>) throws(HistoryError) {
    guard checkpoint.latestVersion.rawValue == graph.count - 1, checkpoint.head.rawValue == head else {
      throw .inconsistentEvent(
        reason: "checkpoint of \(checkpoint.head) (latest \(checkpoint.latestVersion)) while the head is v\(head) (latest v\(graph.count - 1)); journals that start after version 0 are not supported yet")
    }
  }
}
