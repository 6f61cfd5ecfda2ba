import ListHistory
import ListState
import ListLocking

/// Collects the changes a store delivers to an observer, so a test can check that each commit,
/// undo, redo and checkout is reported exactly once and that refused ones are not reported.
final class ChangeCollector<Section: ListElement, Item: ListElement>: Sendable {
  private let changes = ListMutex<[ListChange<Section, Item>]>([])

  func append(_ change: ListChange<Section, Item>) { changes.withLock { $0.append(change) } }

  /// The changes delivered since the last call, oldest first.
  func take() -> [ListChange<Section, Item>] { changes.withLock { changes in defer { changes = [] }; return changes } }
}
