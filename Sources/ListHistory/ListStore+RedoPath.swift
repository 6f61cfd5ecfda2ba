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
    func walk(_ state: borrowing _StoreState<Section, Item>) -> [Version]? {
      var path: [Version] = []
      var version = state.head
      while path.count < limit {
        // A redo child the window of a store opened from its head did not read: load.
        guard let known = state.knownRedoChild(of: version) else { return nil }
        guard let child = known else { break }
        path.append(Version(child))
        guard state.isMaterialized(child) else { return path.count < limit ? nil : path }
        version = child
      }
      return path
    }
    if let path = state.withLock({ walk($0) }) { return path }
    _loadHistoryForReading()
    return state.withLock { walk($0) } ?? []
  }
}
