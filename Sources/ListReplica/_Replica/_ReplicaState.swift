import ListState
import ListHistory

/// Which of a replica's commits a replica holds: all up to `contiguous`, and some beyond it
/// (delivered out of order).
@usableFromInline
struct _ReceivedSequences: Sendable {
  @usableFromInline var contiguous: UInt64 = 0
  @usableFromInline var beyond: Set<UInt64> = []
  @inlinable init() {}

  @inlinable
  func contains(_ sequence: UInt64) -> Bool { sequence <= contiguous || beyond.contains(sequence) }

  @inlinable
  mutating func insert(_ sequence: UInt64) {
    if sequence == contiguous + 1 {
      contiguous = sequence
      while !beyond.isEmpty, beyond.remove(contiguous + 1) != nil { contiguous += 1 }
    } else if sequence > contiguous {
      beyond.insert(sequence)
    }
  }
}

/// Everything a replica holds, guarded by its lock.
@usableFromInline
struct _ReplicaState<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline typealias Commit = ReplicaCommit<Section, Item>

  @usableFromInline let replica: ReplicaID
  /// The shared list's identity: every replica of one list has it; batches of another list are
  /// refused.
  @usableFromInline let listID: UInt64
  /// The state every commit of the list applies to (empty for a new list; a single-writer
  /// journal's head for one that became shared).
  @usableFromInline let base: ListSnapshot<Section, Item>
  /// Every commit held, in the agreed order.
  @usableFromInline var order: [Commit] = []
  /// What applying each commit from `appliedStart` on changed (the rebase window).
  @usableFromInline var applied: [_AppliedCommit<Section, Item>] = []
  @usableFromInline var appliedStart = 0
  @usableFromInline let rebaseWindow: Int
  /// The state after all of `order`.
  @usableFromInline var merge: _MergeState<Section, Item>
  @usableFromInline var received: [ReplicaID: _ReceivedSequences] = [:]
  /// The highest Lamport clock seen.
  @usableFromInline var clock: UInt64 = 0
  /// This replica's own commits by sequence (what undo inverts).
  @usableFromInline var own: [Commit] = []
  @usableFromInline var undoStack: [ReplicaCommitID] = []
  @usableFromInline var redoStack: [ReplicaCommitID] = []
  @usableFromInline var journal: _ReplicaJournal<Section, Item>?
  @usableFromInline let now: @Sendable () -> Double

  @inlinable
  init(
    replica: ReplicaID, listID: UInt64, base: ListSnapshot<Section, Item>, rebaseWindow: Int,
    now: @escaping @Sendable () -> Double
  ) {
    self.replica = replica
    self.listID = listID
    var cleared = base
    cleared.clearMarkers()
    self.base = cleared
    self.rebaseWindow = max(1, rebaseWindow)
    self.merge = _MergeState(snapshot: cleared)
    self.now = now
  }

  /// The vector of commits held without gaps.
  @inlinable
  var versionVector: ReplicaVersionVector {
    var vector = ReplicaVersionVector()
    for (replica, sequences) in received { vector[replica] = sequences.contiguous }
    return vector
  }

  @inlinable
  func holds(_ id: ReplicaCommitID) -> Bool { received[id.replica]?.contains(id.sequence) ?? false }

  /// Appends a commit that sorts after everything held, applying it.
  @inlinable
  mutating func append(_ commit: Commit) {
    append(CollectionOfOne(commit))
  }

  /// Appends commits that sort after everything held (in order), applying them.
  @inlinable
  mutating func append(_ commits: some Collection<Commit>) {
    for commit in commits { note(commit) }
    order.append(contentsOf: commits)
    // In slices of the window, so a long catch-up keeps at most twice the window's records.
    var start = commits.startIndex
    while start != commits.endIndex {
      let end = commits.index(start, offsetBy: rebaseWindow, limitedBy: commits.endIndex) ?? commits.endIndex
      merge.apply(commits[start..<end], into: &applied)
      trimAppliedIfNeeded()
      start = end
    }
  }

  @inlinable
  mutating func note(_ commit: Commit) {
    received[commit.id.replica, default: _ReceivedSequences()].insert(commit.id.sequence)
    clock = max(clock, commit.lamportClock)
    if commit.id.replica == replica, let sequence = Int(exactly: commit.id.sequence) {
      if sequence - 1 == own.count {
        own.append(commit)
        noteUndo(commit)
      }
    }
  }

  /// Keeps the undo and redo stacks as the replica's own commits, in their order, make them.
  @inlinable
  mutating func noteUndo(_ commit: Commit) {
    switch commit.origin {
    case .edit:
      undoStack.append(commit.id)
      redoStack.removeAll()
    case .undo(let of):
      if let index = undoStack.lastIndex(of: of) { undoStack.remove(at: index) }
      redoStack.append(commit.id)
    case .redo(let of):
      if let index = redoStack.lastIndex(of: of) { redoStack.remove(at: index) }
      undoStack.append(commit.id)
    }
  }

  /// Drops the oldest half of the recorded changes once the window overflows (amortized O(1)).
  @inlinable
  mutating func trimAppliedIfNeeded() {
    guard applied.count > 2 * rebaseWindow else { return }
    let drop = applied.count - rebaseWindow
    applied.removeFirst(drop)
    appliedStart += drop
  }

  /// Inserts commits into the agreed order (none held already; sorted by order key), reverting
  /// the commits after the first insertion point and applying everything from there again.
  /// Returns the position from which the order changed.
  @inlinable
  mutating func insert(_ incoming: [Commit]) -> Int {
    guard let first = incoming.first else { return order.count }
    if order.isEmpty || order[order.count - 1].orderKey < first.orderKey {
      let start = order.count
      append(incoming)
      return start
    }
    // The first position whose commit sorts after the first incoming one.
    var low = 0
    var high = order.count
    let key = first.orderKey
    while low < high {
      let middle = (low + high) / 2
      if order[middle].orderKey < key { low = middle + 1 } else { high = middle }
    }
    let position = low
    for commit in incoming { note(commit) }
    var tail = Array(order[position...])
    order.removeSubrange(position...)
    if position >= appliedStart {
      merge.revert(&applied, downTo: position - appliedStart)
    } else {
      // Older than the window: fold the whole order again from the base.
      merge = _MergeState(snapshot: base)
      applied.removeAll()
      appliedStart = 0
      merge.apply(order, into: &applied)
    }
    // Merge the two sorted runs.
    var merged: [Commit] = []
    merged.reserveCapacity(tail.count + incoming.count)
    var i = 0
    var j = 0
    while i < tail.count || j < incoming.count {
      if j == incoming.count || (i < tail.count && tail[i].orderKey < incoming[j].orderKey) {
        merged.append(tail[i])
        i += 1
      } else {
        merged.append(incoming[j])
        j += 1
      }
    }
    tail.removeAll()
    order.append(contentsOf: merged)
    merge.apply(merged, into: &applied)
    trimAppliedIfNeeded()
    return position
  }

  /// The overrides recorded for the commits from `position` on that are still in the window.
  @inlinable
  func overrides(from position: Int) -> [ReplicaOverride<Section, Item>] {
    let start = max(position, appliedStart) - appliedStart
    guard start < applied.count else { return [] }
    return applied[start...].flatMap(\.overrides)
  }
}

