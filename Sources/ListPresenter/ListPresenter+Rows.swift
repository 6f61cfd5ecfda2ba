import ListDiff
import ListState

extension ListPresenter {
  /// The number of sections the view shows.
  ///
  /// ```swift
  /// func numberOfSections(in collectionView: UICollectionView) -> Int { presenter.numberOfSections }
  /// ```
  /// - Complexity: O(1).
  public var numberOfSections: Int { sectionIDs.count }

  /// The number of rows the view shows in a section (0 for a section it does not show).
  ///
  /// - Complexity: O(log n).
  public func numberOfItems(inSection section: Int) -> Int {
    guard sectionIDs.indices.contains(section) else { return 0 }
    if let stagedRows { return stagedRows.rows[section].count }
    return snapshot.numberOfVisibleItems(inSection: sectionIDs[section]) ?? 0
  }

  /// The identifier of the section shown at `index`; nil when out of range.
  ///
  /// - Complexity: O(1).
  public func sectionIdentifier(at index: Int) -> Section.ID? {
    sectionIDs.indices.contains(index) ? sectionIDs[index] : nil
  }

  /// The section shown at `index` (for its header); nil when out of range.
  ///
  /// - Complexity: O(log n).
  public func section(at index: Int) -> Section? {
    guard let id = sectionIdentifier(at: index) else { return nil }
    return snapshot.section(id) ?? previousSnapshot?.section(id)
  }

  /// The index at which the section is shown; nil when it is not.
  ///
  /// - Complexity: O(log n); O(sections) during an intermediate stage of an update.
  public func index(ofSection id: Section.ID) -> Int? {
    if stagedRows != nil { return sectionIDs.firstIndex(of: id) }
    return snapshot.index(ofSection: id)
  }

  /// The identifier of the row shown at `indexPath`; nil when there is none.
  ///
  /// ```swift
  /// presenter.itemIdentifier(at: ListIndexPath(section: 0, row: 1))   // "Granny Smith"
  /// ```
  /// - Complexity: O(depth · log n).
  public func itemIdentifier(at indexPath: ListIndexPath) -> Item.ID? {
    if let stagedRows { return stagedRows[indexPath] }
    return snapshot.visibleItem(at: indexPath)
  }

  /// The row value shown at `indexPath` (for its cell); nil when there is none.
  ///
  /// - Complexity: O(depth · log n).
  public func item(at indexPath: ListIndexPath) -> Item? {
    itemIdentifier(at: indexPath).flatMap(item)
  }

  /// The current value of a row the view shows (or showed, during an update that deletes it).
  ///
  /// - Complexity: O(log n).
  public func item(_ id: Item.ID) -> Item? {
    snapshot.item(id) ?? previousSnapshot?.item(id)
  }

  /// Where the view shows the item; nil when it is hidden (under a collapsed parent) or absent.
  ///
  /// ```swift
  /// presenter.indexPath(for: "Pear")   // 0:2
  /// ```
  /// - Complexity: O(depth · log n); during an intermediate stage of an update or right after an
  ///   interactive move, O(1) after an O(rows) index built once.
  public func indexPath(for id: Item.ID) -> ListIndexPath? {
    guard let stagedRows else { return snapshot.visibleIndexPath(ofItem: id) }
    if stagedIndex == nil {
      var index: [Item.ID: ListIndexPath] = [:]
      for (section, rows) in stagedRows.rows.enumerated() {
        for (row, item) in rows.enumerated() { index[item] = ListIndexPath(section: section, row: row) }
      }
      stagedIndex = index
    }
    return stagedIndex![id]
  }

  /// Every row the view shows, by section.
  ///
  /// - Complexity: O(visible rows).
  public var rows: Rows { stagedRows ?? Rows(snapshot) }

  /// The outline depth of a row (0 for a root item), for its indentation; nil when absent.
  ///
  /// - Complexity: O(depth).
  public func level(ofItem id: Item.ID) -> Int? { snapshot.level(of: id) ?? previousSnapshot?.level(of: id) }

  /// Whether the row is expanded (its disclosure indicator points down).
  ///
  /// - Complexity: O(log n).
  public func isExpanded(_ id: Item.ID) -> Bool { snapshot.isExpanded(id) }

  /// Whether the row has children (shows a disclosure indicator).
  ///
  /// - Complexity: O(children).
  public func hasChildren(_ id: Item.ID) -> Bool { !snapshot.children(of: id).isEmpty }
}
