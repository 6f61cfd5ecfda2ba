import ListState

extension ListTableAdapter {
  /// The item rows a drag of table row `source` dropped above table row `row` moves between, in
  /// the presenter's terms (the destination counted without the dragged row); nil when the drag
  /// is not an item's or `row` is not a place to drop (`0...numberOfRows`).
  ///
  /// Above a section's header means the end of the section before it (the start of the first
  /// section, above the first header); past the last row, the end of the last section.
  ///
  /// ```swift
  /// // rows: [Fruit], Apple, Pear, [Veg], Leek
  /// adapter.moveDestination(draggingRow: 1, aboveRow: 3)   // (0:0, 0:1): Apple after Pear
  /// ```
  /// - Complexity: O(log n).
  public func moveDestination(draggingRow source: Int, aboveRow row: Int) -> (from: ListIndexPath, to: ListIndexPath)? {
    guard case .item(let from)? = self.row(at: source), row >= 0, row <= numberOfRows else { return nil }
    var to: ListIndexPath
    switch self.row(at: row) {
    case .item(let path)?:
      to = path
    case .sectionHeader(let section)?:
      to = section == 0
        ? ListIndexPath(section: 0, row: 0)
        : ListIndexPath(section: section - 1, row: presenter.numberOfItems(inSection: section - 1))
    case nil:
      let last = presenter.numberOfSections - 1
      to = ListIndexPath(section: last, row: presenter.numberOfItems(inSection: last))
    }
    if to.section == from.section, to.row > from.row { to.row -= 1 }
    return (from, to)
  }

  /// Whether a drag of table row `source` may drop above table row `row` (`validateDrop`).
  ///
  /// - Complexity: O(log n).
  public func canMoveRow(_ source: Int, aboveRow row: Int) -> Bool {
    moveDestination(draggingRow: source, aboveRow: row) != nil
  }

  /// A drop (`acceptDrop`): the item at table row `source`, with its subtree, moves above table
  /// row `row`, as one version labelled ``ListGestureLabels/move``; the table animates it.
  ///
  /// ```swift
  /// try adapter.moveRow(1, aboveRow: 3)
  /// ```
  /// - Throws: ``ListTableError`` for a source that is no item or a row outside `0...numberOfRows`
  ///   (nothing changes); the store's errors.
  /// - Complexity: that of ``ListPresenter/moveRow(from:to:viewAlreadyMoved:)``.
  public func moveRow(_ source: Int, aboveRow row: Int) throws {
    _ = try itemPath(atRow: source)
    guard let (from, to) = moveDestination(draggingRow: source, aboveRow: row) else {
      throw ListTableError.rowOutOfRange(row: row, numberOfRows: numberOfRows)
    }
    try presenter.moveRow(from: from, to: to)
  }

  /// A disclosure click on the item at a table row: expands or collapses it, as one version.
  ///
  /// - Returns: whether the item is now expanded.
  /// - Throws: ``ListTableError`` for a header or a row out of range; the store's errors.
  @discardableResult
  public func toggleExpansion(atRow index: Int) throws -> Bool {
    try presenter.toggleExpansion(at: itemPath(atRow: index))
  }

  /// A delete (the delete key, a menu item) of the items at table rows, with their subtrees, as
  /// one version.
  ///
  /// - Throws: ``ListTableError`` when one row is a header or out of range (nothing is deleted);
  ///   the store's errors.
  public func deleteRows(_ indexes: [Int]) throws {
    try presenter.deleteRows(at: indexes.map(itemPath))
  }

  /// The index path of the item at a table row.
  func itemPath(atRow index: Int) throws(ListTableError) -> ListIndexPath {
    switch row(at: index) {
    case .item(let path)?: return path
    case .sectionHeader?: throw .notAnItem(row: index)
    case nil: throw .rowOutOfRange(row: index, numberOfRows: numberOfRows)
    }
  }
}
