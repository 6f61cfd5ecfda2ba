extension ListSnapshot {
  /// What a drag does: the visible row at `source` (with its subtree) moves so that it lands at
  /// `destination` of the final layout — before the row now there, as its sibling — or, at the
  /// end position, as the section's last root item. The end position is the destination
  /// section's row count: `3` in a section of three rows, and in a section of four rows when the
  /// moved row is one of them (UIKit's final-layout index of the last row is accepted too).
  ///
  /// Precisely: the row and its subtree leave the visible rows; among the destination section's
  /// remaining rows, `destination.row < remaining` makes it the sibling immediately before the
  /// item now at that row (in that item's container); `destination.row == remaining`, or the
  /// section's visible row count before the move, makes it the section's last root item.
  ///
  /// ```swift
  /// // rows of "Fruit": Apple, Granny Smith, Pear
  /// try snapshot.moveVisibleRow(from: .init(section: 0, row: 2), to: .init(section: 0, row: 0))
  /// // rows: Pear, Apple, Granny Smith
  /// ```
  /// - Throws: `.indexPathOutOfRange` naming the source or destination.
  /// - Returns: The transaction (initial and final snapshot; differences computed on access).
  /// - Complexity: O(depth · log n).
  @discardableResult
  @inlinable
  public mutating func moveVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure)
    -> ListTransaction<Section, Item>
  {
    guard let id = visibleItem(at: source) else {
      throw .indexPathOutOfRange(section: source.section, row: source.row)
    }
    guard destination.section >= 0, destination.section < _sectionOrder.count else {
      throw .indexPathOutOfRange(section: destination.section, row: destination.row)
    }
    // The row is visible, so its subtree's visible rows follow it contiguously.
    let movedRows = _itemRecords.peek(id) { $0.visibleCount }!
    let destinationSection = _sectionOrder.entry(at: destination.section).id
    let rowCount = _sectionRecords.peek(destinationSection) { $0.roots.w2 }!
    let remaining = rowCount - (destination.section == source.section ? movedRows : 0)
    guard destination.row >= 0, destination.row <= remaining || destination.row == rowCount else {
      throw .indexPathOutOfRange(section: destination.section, row: destination.row)
    }
    let initial = self
    let entry = _detachItem(id)
    if destination.row >= remaining {
      _attachItem(entry, in: .section(destinationSection), at: _count(of: .section(destinationSection))!)
    } else {
      let target = visibleItem(at: destination)!
      let location = location(ofItem: target)!
      _attachItem(entry, in: location.container, at: location.index)
    }
    _checkInvariants()
    return ListTransaction(initialSnapshot: initial, finalSnapshot: self)
  }
}
