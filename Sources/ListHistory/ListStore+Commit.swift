import ListState

extension ListStore {
  /// Runs `body` on a working copy of the head and commits everything it recorded as one new
  /// version — or nothing: if `body` (or the persistence sink) throws, the store is unchanged.
  ///
  /// A transaction that records no event creates no version and notifies nobody.
  ///
  /// ```swift
  /// let head = store.head
  /// try store.transaction(label: "Delete 2 Items", expecting: head) { tx in
  ///     try tx.deleteItems(["a", "b"])
  /// }
  /// ```
  /// - Parameters:
  ///   - label: the new version's label (the body may change it through `tx.label`).
  ///   - expecting: optimistic concurrency — the version the commit must extend; otherwise
  ///     ``HistoryError/versionConflict(expected:actual:)`` is thrown before `body` runs.
  /// - Complexity: the body's operations plus O(1) bookkeeping (plus encoding with a sink).
  @discardableResult
  public func transaction<R>(
    label: String? = nil, expecting: Version? = nil, _ body: (inout Transaction) throws -> R
  ) throws -> R {
    var result: R?
    let deliver = try state.withLock { state throws -> Bool in
      if let expecting, expecting.rawValue != state.head {
        throw HistoryError.versionConflict(expected: expecting, actual: Version(state.head))
      }
      var base = state.headSnapshot
      base.clearMarkers()
      var transaction = Transaction(snapshot: base, label: label)
      result = try body(&transaction)
      guard !transaction.events.isEmpty else { return false }
      return try state.commit(transaction)
    }
    if deliver { deliverPendingChanges() }
    return result!
  }
}

extension _StoreState {
  /// Persists, then applies, a finished transaction; returns whether the caller must deliver.
  mutating func commit(_ transaction: ListStore<Section, Item>.Transaction) throws -> Bool {
    let parent = head
    let version = graph.count
    let millis = nowMillis()
    try persist(
      .commit(
        HistoryCommit(
          version: Version(version), parent: Version(parent), timestamp: Double(millis) / 1000,
          label: transaction.label, events: transaction.events)))
    let initial = headSnapshot
    install(transaction: transaction, parent: parent, millis: millis)
    checkpointIfDue()
    // Nobody to tell: skip building the change (it would be dropped by `enqueue`).
    guard !observers.isEmpty else { return false }
    let change = ListChange(
      kind: .commit, previousHead: Version(parent), head: Version(version),
      transaction: _EventDifference.transaction(from: initial, to: headSnapshot, events: transaction.events),
      reverted: [], applied: [Version(version)], events: transaction.events)
    return enqueue(change)
  }

  /// Adds the version and moves the head to it (no persistence, no notification).
  mutating func install(transaction: ListStore<Section, Item>.Transaction, parent: Int, millis: Int64) {
    let version = graph.add(
      parent: parent, events: transaction.events, label: transaction.label, timestampMillis: millis,
      stateAfter: transaction.snapshot)
    graph.visit(version)
    head = version
    headSnapshot = transaction.snapshot
  }
}
