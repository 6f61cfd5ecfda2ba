import ListHistory
import ListState

extension ListPresenter {
  public typealias Failure = ListError<Section.ID, Item.ID>

  /// A tap on a row's disclosure indicator: expands the row when it is collapsed, collapses it
  /// otherwise, as one version labelled ``ListGestureLabels/expand`` or
  /// ``ListGestureLabels/collapse``. The view animates the rows that appear or disappear.
  ///
  /// ```swift
  /// try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 0))   // Apple opens
  /// ```
  /// - Returns: whether the row is now expanded.
  /// - Throws: ``ListError/indexPathOutOfRange(section:row:)`` when no row is shown there; the
  ///   store's errors.
  /// - Complexity: O(depth · log n) plus the update.
  @discardableResult
  public func toggleExpansion(at indexPath: ListIndexPath) throws -> Bool {
    guard let id = itemIdentifier(at: indexPath) else {
      throw Failure.indexPathOutOfRange(section: indexPath.section, row: indexPath.row)
    }
    let expanded = !snapshot.isExpanded(id)
    applyPendingUpdates()
    try _Gestures.setExpanded(expanded, item: id, in: store, labels: labels)
    applyQueuedChanges()
    return expanded
  }

  /// Expands or collapses an item as one version (an outline cell's own disclosure control).
  ///
  /// - Throws: ``ListError/itemsNotFound(_:)``; the store's errors.
  public func setExpanded(_ expanded: Bool, forItem id: Item.ID) throws {
    applyPendingUpdates()
    try _Gestures.setExpanded(expanded, item: id, in: store, labels: labels)
    applyQueuedChanges()
  }

  /// A drag that ends: the row shown at `source`, with its subtree, moves so that it lands at
  /// `destination` — an index path in the layout with only the dragged row moved, as UIKit
  /// reports it — as one version labelled ``ListGestureLabels/move``. It becomes the sibling of
  /// the row that follows it there (its descendants are skipped), or the section's last root row.
  ///
  /// Pass `viewAlreadyMoved: true` from UIKit's `moveRowAt`/`moveItemAt` callbacks: the view has
  /// moved the row itself, so the presenter answers with that layout at once, and any further
  /// batch (the dragged row's children following it) runs on the next main-actor turn, once
  /// UIKit has finished the interaction. Should the store refuse the move, that batch brings the
  /// row back.
  ///
  /// ```swift
  /// // rows: Apple, Pear, Fig
  /// try presenter.moveRow(from: ListIndexPath(section: 0, row: 2), to: ListIndexPath(section: 0, row: 0))
  /// // rows: Fig, Apple, Pear — one undoable "Move"
  /// ```
  /// - Throws: ``ListError/indexPathOutOfRange(section:row:)`` for a source with no row or a
  ///   destination outside the layout (nothing changes); the store's errors.
  /// - Complexity: O((depth + k) · log n) for k items under the dragged row, plus the update;
  ///   O(visible rows) more with `viewAlreadyMoved`.
  public func moveRow(from source: ListIndexPath, to destination: ListIndexPath, viewAlreadyMoved: Bool = false)
    throws
  {
    guard let id = itemIdentifier(at: source) else {
      throw Failure.indexPathOutOfRange(section: source.section, row: source.row)
    }
    guard let section = sectionIdentifier(at: destination.section) else {
      throw Failure.indexPathOutOfRange(section: destination.section, row: destination.row)
    }
    let sameSection = destination.section == source.section
    let remaining = numberOfItems(inSection: destination.section) - (sameSection ? 1 : 0)
    guard destination.row >= 0, destination.row <= remaining else {
      throw Failure.indexPathOutOfRange(section: destination.section, row: destination.row)
    }
    // The rows that follow the drop point in the layout without the dragged row, read before
    // anything changes the layout: the dragged row's subtree rows follow it, so at most that
    // many (plus the anchor) are needed.
    let subtreeRows = snapshot.isExpanded(id) ? (snapshot.outline(of: id)?.itemIdentifiers.count ?? 0) : 0
    let followers = (destination.row..<min(remaining, destination.row + subtreeRows + 1)).map { row in
      itemIdentifier(at: ListIndexPath(section: destination.section, row: sameSection && row >= source.row ? row + 1 : row))!
    }
    if viewAlreadyMoved {
      var moved = rows
      moved.rows[source.section].remove(at: source.row)
      moved.rows[destination.section].insert(id, at: destination.row)
      stagedRows = moved
      stagedIndex = nil
      layoutGeneration &+= 1
      suspensions += 1
      Task { @MainActor [weak self] in
        guard let self else { return }
        if suspensions > 0 { suspensions -= 1 }
        applyQueuedChanges()
      }
    } else {
      applyPendingUpdates()
    }
    try _Gestures.move(
      [id], before: { $0 < followers.count ? followers[$0] : nil }, inSection: section, in: store, labels: labels)
    applyQueuedChanges()
  }

  /// A swipe-to-delete (or edit-mode delete): deletes the rows shown at `indexPaths`, with their
  /// subtrees, as one version labelled ``ListGestureLabels/delete``.
  ///
  /// ```swift
  /// try presenter.deleteRows(at: [ListIndexPath(section: 0, row: 1)])
  /// ```
  /// - Throws: ``ListError/indexPathOutOfRange(section:row:)`` when one has no row (nothing is
  ///   deleted); the store's errors.
  /// - Complexity: O(k · depth · log n) for k rows plus their subtrees, plus the update.
  public func deleteRows(at indexPaths: [ListIndexPath]) throws {
    var ids: [Item.ID] = []
    for indexPath in indexPaths {
      guard let id = itemIdentifier(at: indexPath) else {
        throw Failure.indexPathOutOfRange(section: indexPath.section, row: indexPath.row)
      }
      ids.append(id)
    }
    applyPendingUpdates()
    try _Gestures.delete(ids, in: store, labels: labels)
    applyQueuedChanges()
  }
}
