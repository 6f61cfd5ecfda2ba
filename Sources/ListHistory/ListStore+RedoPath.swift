import ListLocking
import ListState

extension ListStore {
  /// The versions that successive ``redo()`` calls would move the head through, nearest first —
  /// the redo stack an undo menu shows (it comes back from a journal with the head).
  ///
  /// ```swift
  /// try store.undo(); try store.undo()
  /// store.redoPath()   // [v2, v3]
  /// ```
  /// - Parameter limit: at most this many versions.
  /// - Complexity: O(min(limit, redo depth)).
  @inlinable
  public func redoPath(limit: Int = .max) -> [Version] {
    // The opened head's redo path is in the history a store opened from its head has not loaded.
    if limit > 0, let unloaded = state.withLock({ $0.unloaded }), unloaded.redoChild != nil, head.rawValue == unloaded.head {
      _loadHistoryForReading()
    }
    return state.withLock { state in
      var path: [Version] = []
      var version = state.head
      while path.count < limit, let child = state.graph.redoChild(of: version) {
        path.append(Version(child))
        version = child
      }
      return path
    }
  }
}
