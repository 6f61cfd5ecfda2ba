import ListState

/// What a list UI shows: the section identifiers in order and, per section, the identifiers of
/// its visible rows (outline items whose ancestors are all expanded, in pre-order).
///
/// Changesets are expressed over this shape. It is also the plain input of the diff, so any
/// sectioned data (not only a ``ListSnapshot``) can be diffed.
///
/// ```swift
/// let rows = ListVisibleRows(sections: ["Fruit"], rows: [["Apple", "Pear"]])
/// rows.rows[0][1]   // "Pear"
/// ```
public struct ListVisibleRows<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Equatable, Sendable {
  /// Section identifiers, in order.
  public var sectionIdentifiers: [SectionID]
  /// `rows[i]`: the visible item identifiers of section `i`, in order.
  public var rows: [[ItemID]]

  /// - Precondition: `rows.count == sections.count`.
  public init(sections: [SectionID] = [], rows: [[ItemID]] = []) {
    precondition(sections.count == rows.count, "one row array per section")
    self.sectionIdentifiers = sections
    self.rows = rows
  }

  /// The visible rows of a snapshot.
  ///
  /// - Complexity: O(visible rows), plus whatever ``ListSnapshot/visibleItems(inSection:)`` costs.
  @inlinable
  public init<Section: ListElement, Item: ListElement>(_ snapshot: ListSnapshot<Section, Item>)
  where Section.ID == SectionID, Item.ID == ItemID {
    let sections = snapshot.sectionIdentifiers
    self.sectionIdentifiers = sections
    self.rows = sections.map { snapshot.visibleItems(inSection: $0) }
  }

  /// The number of visible rows in all sections.
  ///
  /// - Complexity: O(sections).
  public var numberOfRows: Int { rows.reduce(0) { $0 + $1.count } }

  /// The identifier shown at `indexPath`, or nil when out of range.
  ///
  /// - Complexity: O(1).
  public subscript(indexPath: ListIndexPath) -> ItemID? {
    guard rows.indices.contains(indexPath.section), rows[indexPath.section].indices.contains(indexPath.row)
    else { return nil }
    return rows[indexPath.section][indexPath.row]
  }
}
