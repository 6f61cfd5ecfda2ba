import ListLocking
import ListState

extension ListStore {
  /// Runs `body` on a working copy of the head and commits everything it recorded as one new
  /// version — or nothing: if `body` (or the persistence sink) throws, the store is unchanged.
  ///
  /// A transaction that records no event creates no version and notifies nobody (unless the
  /// body sets ``Transaction/commitsWhenUnchanged``).
  ///
  /// ```swift
  /// let head = store.head
  /// try store.transaction(label: "Delete 2 Items", expecting: head) { tx in
  ///     try tx.deleteItems(["a", "b"])
  /// }
  /// ```
  /// - Parameters:
  ///   - label: the new version's label (the body may change it through `tx.label`); nil: the
  ///     operations' own (``Transaction/defaultLabel``, "Delete 3 Items").
  ///   - expecting: optimistic concurrency — the version the commit must extend; otherwise
  ///     ``HistoryError/versionConflict(expected:actual:)`` is thrown before `body` runs.
  /// - Complexity: the body's operations plus O(1) bookkeeping (plus encoding with a sink).
  @inlinable
  @discardableResult
  public func transaction<R>(
    label: String? = nil, expecting: Version? = nil, _ body: (inout Transaction) throws -> R
  ) throws -> R {
    var result: R?
    var dropped: [Snapshot] = []
    defer { Self.release(&dropped) }
    let deliver = try state.withLock { state throws -> Bool in
      if let expecting, expecting.rawValue != state.head {
        throw HistoryError.versionConflict(expected: expecting, actual: Version(state.head))
      }
      // The head of a repaired journal can be a lost version: its state is unknown.
      if let lost = state.graph.lostError(state.head) { throw lost }
      // Without observers nobody needs the old head once the transaction commits, so the
      // transaction takes the head's storage (the state keeps an empty placeholder): operations
      // then mutate uniquely referenced nodes in place instead of copying their paths. If the
      // transaction fails or changes nothing, the head is put back — its recorded events
      // reverted (they are exact inverses) and its markers restored.
      let inPlace = state.observers.isEmpty
      let markers = state.headSnapshot._markers
      var transaction = Transaction(snapshot: state.headSnapshot, label: label)
      if inPlace { state.headSnapshot = Snapshot() }
      transaction._snapshot.clearMarkers()
      do {
        result = try body(&transaction)
        if transaction.label == nil { transaction.label = transaction.defaultLabel }
        guard !transaction.events.isEmpty || transaction.commitsWhenUnchanged else {
          if inPlace { state.restoreHead(from: transaction, markers: markers) }
          return false
        }
        let deliver = try state.commit(&transaction)
        dropped = state.graph.takeDroppedCheckpoints()
        return deliver
      } catch {
        if inPlace { state.restoreHead(from: transaction, markers: markers) }
        throw error
      }
    }
    if deliver { deliverPendingChanges() }
    return result!
  }
}

extension ListStore {
  /// Frees the checkpoints the budget dropped (taking them out of `checkpoints`) on a background
  /// task. Why not here: a large list's checkpoint is hundreds of thousands of nodes; freeing
  /// those a thinning drops was ~50 ms of a ~170 ms thinning commit in a 1M-event history
  /// (HistoryBench), a stall of the commit — often on the main thread.
  @inlinable
  static func release(_ checkpoints: inout [Snapshot]) {
    guard !checkpoints.isEmpty else { return }
    let taken = checkpoints
    checkpoints = []
    Task.detached(priority: .background) { withExtendedLifetime(taken) {} }
  }
}

extension _StoreState {
  /// Persists, then applies, a finished transaction; returns whether the caller must deliver.
  /// Once persisted, the transaction's events are moved into the history (it is left without
  /// them); on a persistence failure it is untouched.
  @inlinable
  mutating func commit(_ transaction: inout ListStore<Section, Item>.Transaction) throws -> Bool {
    let parent = head
    let version = graph.count
    let millis = nowMillis()
    try persist(
      .commit(
        HistoryCommit(
          version: Version(version), parent: Version(parent), timestamp: Double(millis) / 1000,
          label: transaction.label, events: transaction.events)))
    let initial = headSnapshot
    install(transaction: &transaction, parent: parent, millis: millis)
    checkpointIfDue()
    // Nobody to tell: skip building the change (it would be dropped by `enqueue`).
    guard !observers.isEmpty else { return false }
    let events = Array(graph.events(of: version))
    let change = ListChange(
      kind: .commit, previousHead: Version(parent), head: Version(version),
      transaction: _EventDifference.transaction(from: initial, to: headSnapshot, events: events),
      reverted: [], applied: [Version(version)], events: events)
    return enqueue(change)
  }

  /// Adds the version and moves the head to it (no persistence, no notification); the
  /// transaction's events move into the history.
  @inlinable
  mutating func install(transaction: inout ListStore<Section, Item>.Transaction, parent: Int, millis: Int64) {
    let version = graph.add(
      parent: parent, moving: &transaction._events, label: transaction.label, timestampMillis: millis,
      stateAfter: transaction._snapshot)
    graph.visit(version)
    head = version
    headSnapshot = transaction._snapshot
  }
}

extension _StoreState {
  /// Puts the head back after an in-place transaction that did not commit: reverts the
  /// transaction's events from its working snapshot and restores the head's markers. Should a
  /// revert ever fail, the head is rebuilt from the history instead.
  ///
  /// - Complexity: O(events of the transaction); the fallback O(checkpoint interval).
  @inlinable
  mutating func restoreHead(
    from transaction: ListStore<Section, Item>.Transaction, markers: _ListMarkers<Section, Item>
  ) {
    var snapshot = transaction.snapshot
    do {
      for event in transaction.events.reversed() { try event.revert(from: &snapshot, verifying: false) }
    } catch {
      let plan = graph.foldPlan(at: head)
      snapshot = plan.base
      for event in plan.events { try? event.apply(to: &snapshot, verifying: false) }
    }
    snapshot._markers = markers
    headSnapshot = snapshot
  }
}
