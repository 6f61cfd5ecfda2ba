import ListState
import ListHistory
import ListLocking

extension ListReplica {
  /// Runs `body` on a working copy of the merged list and commits what it changed as one
  /// commit of this replica — or nothing, if it throws or changes nothing.
  ///
  /// The body has the whole diffable surface of a store transaction; its events become
  /// operations by identifier (``ReplicaOperation``) that every replica can apply.
  ///
  /// ```swift
  /// try replica.transaction(label: "Add Fruit") { tx in
  ///     try tx.appendSections(["Fruit"])
  ///     try tx.appendItems(["Apple", "Pear"])
  /// }
  /// ```
  /// - Returns: the body's result.
  /// - Complexity: the body's operations, O(log n) each, three times.
  @inlinable
  @discardableResult
  public func transaction<R>(label: String? = nil, _ body: (inout Transaction) throws -> R) throws -> R {
    try state.withLock { state in
      var transaction = Transaction(_detached: state.merge.snapshot, label: label)
      let result = try body(&transaction)
      guard !transaction.events.isEmpty else { return result }
      let label = transaction.label ?? transaction.defaultLabel
      let operations: [ReplicaOperation<Section, Item>]
      do {
        // Scoped: the working copy is gone before the commit applies, so the merged list is
        // uniquely referenced again and changes in place.
        let (final, events) = transaction._take()
        operations = try ReplicaOperation.operations(for: events, from: state.merge.snapshot, to: final)
      }
      guard !operations.isEmpty else { return result }
      try state.commitLocally(operations, label: label, origin: .edit)
      return result
    }
  }

  /// Whether ``undo()`` has one of this replica's edits to undo.
  @inlinable
  public var canUndo: Bool { state.withLock { !$0.undoStack.isEmpty } }
  /// Whether ``redo()`` has an undo to redo.
  @inlinable
  public var canRedo: Bool { state.withLock { !$0.redoStack.isEmpty } }
  /// The label of the edit ``undo()`` would undo.
  @inlinable
  public var undoLabel: String? {
    state.withLock { state in state.undoStack.last.flatMap { state.own[Int($0.sequence) - 1].label } }
  }
  /// The label of the undo ``redo()`` would redo.
  @inlinable
  public var redoLabel: String? {
    state.withLock { state in state.redoStack.last.flatMap { state.own[Int($0.sequence) - 1].label } }
  }

  /// Undoes this replica's newest edit not yet undone: a new commit with the inverse of its
  /// operations against the list as it is now (an item someone else deleted since stays
  /// deleted; content someone else changed since keeps their change). Remote edits are never
  /// undone. Returns the new commit's identifier, nil when there is nothing to undo.
  ///
  /// - Complexity: O(operations of the undone commit), O(log n) each.
  @inlinable
  @discardableResult
  public func undo() throws -> ReplicaCommitID? {
    try state.withLock { state in
      guard let target = state.undoStack.last else { return nil }
      return try state.invert(target, origin: .undo(of: target))
    }
  }

  /// Redoes the newest undo (the inverse of the undo commit, against the list as it is now).
  /// Returns the new commit's identifier, nil when there is nothing to redo.
  @inlinable
  @discardableResult
  public func redo() throws -> ReplicaCommitID? {
    try state.withLock { state in
      guard let target = state.redoStack.last else { return nil }
      return try state.invert(target, origin: .redo(of: target))
    }
  }
}

extension _ReplicaState {
  /// Makes, persists and applies a commit of this replica.
  @inlinable
  mutating func commitLocally(
    _ operations: [ReplicaOperation<Section, Item>], label: String?, origin: ReplicaCommit<Section, Item>.Origin
  ) throws {
    var dependencies = versionVector
    dependencies[replica] = 0
    // A clock taken from received commits must not trap here; past the ceiling, no commit.
    guard clock < ReplicaBatchLimits.clockCeiling else { throw ReplicaError.clockExhausted(clock) }
    let millis = (now() * 1000).rounded()
    let commit = ReplicaCommit(
      id: ReplicaCommitID(replica: replica, sequence: UInt64(own.count + 1)), lamportClock: clock + 1,
      dependencies: dependencies, timestamp: millis / 1000, label: label, origin: origin, operations: operations)
    try journal?.write([commit], holding: order.count + 1)
    append(commit)
  }

  /// Commits the inverse of one of this replica's commits (even an empty one: the stacks
  /// must move).
  @inlinable
  mutating func invert(_ id: ReplicaCommitID, origin: ReplicaCommit<Section, Item>.Origin) throws -> ReplicaCommitID {
    let target = own[Int(id.sequence) - 1]
    let operations = ReplicaOperation.inverting(target.operations, on: merge.snapshot)
    let label = target.label
    try commitLocally(operations, label: label, origin: origin)
    return own[own.count - 1].id
  }
}
