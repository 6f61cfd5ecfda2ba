import ListState

/// What one commit, undo, redo or checkout did: delivered to observers, returned by
/// `undo()`/`redo()`/`checkout(_:)`.
///
/// The transaction's differences are computed on first access unless they were derived from
/// the events for free, so publishing a change never costs an O(n) diff nobody asked for.
///
/// ```swift
/// let change = try store.undo()
/// change.reverted            // [v7] — the version whose operations were undone
/// change.events              // the inverse events that were applied, in order
/// change.transaction.difference
/// ```
public struct ListChange<Section: ListElement, Item: ListElement>: Sendable {
  /// Why the head moved.
  public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
    case commit = 0, undo = 1, redo = 2, checkout = 3
    @inlinable
    public var description: String {
      switch self {
      case .commit: "commit"
      case .undo: "undo"
      case .redo: "redo"
      case .checkout: "checkout"
      }
    }
  }

  public let kind: Kind
  /// The head before the change.
  public let previousHead: Version
  /// The head after the change.
  public let head: Version
  /// Initial and final snapshot, with lazily computed differences.
  public let transaction: ListTransaction<Section, Item>
  /// Versions whose operations were undone, in the order they were undone.
  public let reverted: [Version]
  /// Versions whose operations were applied (committed or redone), in order.
  public let applied: [Version]
  /// The events applied to the initial snapshot to reach the final one (reverted versions
  /// contribute their inverse events, newest first). Nil when a long checkout jumped through a
  /// checkpoint instead of walking the path; `ListStore.events(from:to:)` gives them on demand.
  public let events: [ListEvent<Section, Item>]?

  @inlinable
  public init(
    kind: Kind, previousHead: Version, head: Version, transaction: ListTransaction<Section, Item>,
    reverted: [Version], applied: [Version], events: [ListEvent<Section, Item>]?
  ) {
    self.kind = kind
    self.previousHead = previousHead
    self.head = head
    self.transaction = transaction
    self.reverted = reverted
    self.applied = applied
    self.events = events
  }
}
