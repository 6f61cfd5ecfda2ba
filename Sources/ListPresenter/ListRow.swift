import ListState

/// One visible row as a SwiftUI list shows it: the item with what its cell needs to draw the
/// outline (indentation, disclosure state), identified by the item's identifier.
///
/// ```swift
/// ForEach(section.rows) { row in
///     Text(row.item.title).padding(.leading, CGFloat(row.level) * 16)
/// }
/// ```
public struct ListRow<Item: ListElement>: Identifiable, Equatable, Sendable {
  /// The item's identifier.
  public var id: Item.ID
  /// The item's current value.
  public var item: Item
  /// The outline depth: 0 for a root item.
  public var level: Int
  /// Whether the row is expanded (its children, if any, are shown below it).
  public var isExpanded: Bool
  /// Whether the row has children (and so a disclosure indicator).
  public var hasChildren: Bool

  /// A row; normally read from ``ListModel``.
  public init(id: Item.ID, item: Item, level: Int, isExpanded: Bool, hasChildren: Bool) {
    self.id = id
    self.item = item
    self.level = level
    self.isExpanded = isExpanded
    self.hasChildren = hasChildren
  }
}
