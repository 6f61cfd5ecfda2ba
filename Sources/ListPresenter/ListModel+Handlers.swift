import Foundation
import ListHistory
import ListState

extension ListModel {
  /// Whether an item is expanded: the getter of a disclosure control's binding.
  ///
  /// - Complexity: O(log n).
  public func isExpanded(_ id: Item.ID) -> Bool { snapshot.isExpanded(id) }

  /// Expands or collapses an item as one undoable version (labelled ``ListGestureLabels/expand``
  /// or ``ListGestureLabels/collapse``): the setter of a disclosure control's binding. Setting
  /// the state it already has records nothing.
  ///
  /// ```swift
  /// model.setExpanded(true, forItem: "Fruit")
  /// ```
  public func setExpanded(_ expanded: Bool, forItem id: Item.ID) {
    guard snapshot.isExpanded(id) != expanded else { return }
    report { try presenter.setExpanded(expanded, forItem: id) }
  }

  /// `onMove`: moves the rows at `source` (offsets among the section's visible rows) so that
  /// they end just before the row now at `destination` (or at the section's end), in their
  /// order, as one undoable version labelled ``ListGestureLabels/move`` — the semantics of
  /// `Array.move(fromOffsets:toOffset:)`. In an outline a moved row takes its subtree along and
  /// becomes the sibling of the row it lands before.
  ///
  /// ```swift
  /// .onMove { model.move(fromOffsets: $0, toOffset: $1, inSection: section.id) }
  /// ```
  /// - Complexity: O(visible rows of the section) plus O(depth · log n) per moved row.
  public func move(fromOffsets source: IndexSet, toOffset destination: Int, inSection section: Section.ID) {
    report {
      let (index, rows) = try visibleRows(of: section)
      guard destination >= 0, destination <= rows.count else {
        throw Failure.indexPathOutOfRange(section: index, row: destination)
      }
      let moved = try source.map { offset in
        guard offset < rows.count else { throw Failure.indexPathOutOfRange(section: index, row: offset) }
        return rows[offset]
      }
      try _Gestures.move(
        moved, before: { destination + $0 < rows.count ? rows[destination + $0] : nil }, inSection: section,
        in: store, labels: labels)
    }
  }

  /// `onDelete`: deletes the rows at `offsets` (with their subtrees) as one undoable version
  /// labelled ``ListGestureLabels/delete``.
  ///
  /// ```swift
  /// .onDelete { model.delete(atOffsets: $0, inSection: section.id) }
  /// ```
  /// - Complexity: O(visible rows of the section) plus the deletes.
  public func delete(atOffsets offsets: IndexSet, inSection section: Section.ID) {
    report {
      let (index, rows) = try visibleRows(of: section)
      let ids = try offsets.map { offset in
        guard offset < rows.count else { throw Failure.indexPathOutOfRange(section: index, row: offset) }
        return rows[offset]
      }
      try _Gestures.delete(ids, in: store, labels: labels)
    }
  }

  public typealias Failure = ListError<Section.ID, Item.ID>

  /// The section's index and visible row identifiers, as the model shows them.
  func visibleRows(of section: Section.ID) throws(Failure) -> (Int, [Item.ID]) {
    guard let index = snapshot.index(ofSection: section) else { throw .sectionsNotFound([section]) }
    return (index, snapshot.visibleItems(inSection: section))
  }

  /// Runs a gesture, reports its error, and takes its version in before returning.
  func report(_ body: () throws -> Void) {
    presenter.applyPendingUpdates()
    do {
      try body()
    } catch {
      onError?(error)
    }
    presenter.applyPendingUpdates()
  }
}
