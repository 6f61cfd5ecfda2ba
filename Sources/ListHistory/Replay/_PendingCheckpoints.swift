import Dispatch
import ListState
import ListLocking

/// The states of the checkpoints a flat replay's history left pending
/// (`_HistoryGraph.pendingCheckpoints`): each a copy of the fold when the checkpoint was due,
/// built into a snapshot only when the replay ends (``build(into:alongside:whileRunning:)``).
///
/// Why not build each at once: a copy costs a copy of the fold's arrays, a build a pass through
/// hash-ordered records, and thinning drops about half of the checkpoints a replay makes —
/// those are then never built.
@usableFromInline
struct _PendingCheckpoints<Section: ListElement, Item: ListElement>: Sendable {
  /// The fold copies, by version.
  @usableFromInline var folds: [Int32: ListFold<Section, Item>] = [:]

  @inlinable
  init(folds: [Int32: ListFold<Section, Item>] = [:]) {
    self.folds = folds
  }

  @inlinable
  var isEmpty: Bool { folds.isEmpty }

  /// The state of the pending checkpoint at `version`; nil when the checkpoint there is built,
  /// or there is none.
  @inlinable
  func fold(at version: Int) -> ListFold<Section, Item>? { folds[Int32(version)] }

  /// Keeps `fold` (a copy, sharing its storage until the live fold changes) as the state of
  /// the checkpoint the history just left pending at `version`.
  @inlinable
  mutating func keep(_ fold: ListFold<Section, Item>, at version: Int) { folds[Int32(version)] = fold }

  /// Forgets the states of the checkpoints at `versions` (thinning dropped them), freeing them
  /// on a background queue: a copy the live fold has moved on from holds arrays of its own, and
  /// freeing them on the folding thread would hold up the fold.
  @inlinable
  mutating func drop(_ versions: [Int32]) {
    guard !versions.isEmpty else { return }
    var dropped: [ListFold<Section, Item>] = []
    for version in versions {
      if let fold = folds.removeValue(forKey: version) { dropped.append(fold) }
    }
    if !dropped.isEmpty { _releaseInBackground(consume dropped) }  // moved: the last reference
  }

  /// Builds every pending checkpoint's snapshot into `graph` and runs each of `work`, all
  /// independent tasks, two at a time: a worker thread starts on them at once while the calling
  /// thread runs `own` (the caller's largest task, kept on its own thread and stack), then both
  /// take what is left.
  ///
  /// - Complexity: O(items) per pending checkpoint.
  @inlinable
  mutating func build(
    into graph: inout _HistoryGraph<Section, Item>, alongside work: [() -> Void] = [], whileRunning own: () -> Void = {}
  ) {
    let pending = Array(folds)
    folds = [:]
    var built = [ListSnapshot<Section, Item>](repeating: ListSnapshot(), count: pending.count)
    built.withUnsafeMutableBufferPointer { results in
      // Each task writes its own element, and the group's wait orders them before the reads.
      nonisolated(unsafe) let results = results.baseAddress
      nonisolated(unsafe) let work = work
      let taskCount = work.count + pending.count
      let counter = _TaskCounter()
      let runTasks: @Sendable () -> Void = {
        while case let index = counter.claim(), index < taskCount {
          if index < work.count {
            work[index]()
          } else {
            results![index - work.count] = pending[index - work.count].value.snapshot()
          }
        }
      }
      let group = DispatchGroup()
      if taskCount > 0 { DispatchQueue.global().async(group: group, execute: runTasks) }
      own()
      runTasks()
      group.wait()
    }
    for (index, entry) in pending.enumerated() { graph.fillPendingCheckpoint(entry.key, with: built[index]) }
    _releaseInBackground(pending)  // copies of a fold: freed off the caller's path
  }
}

/// Hands out task indices to the threads that share a list of tasks.
@usableFromInline
final class _TaskCounter: Sendable {
  @inlinable
  init() {}

  @usableFromInline let next = ListMutex<Int>(0)

  /// The next unclaimed index (past the end once every task is taken).
  @inlinable
  func claim() -> Int {
    next.withLock { next in
      defer { next += 1 }
      return next
    }
  }
}
