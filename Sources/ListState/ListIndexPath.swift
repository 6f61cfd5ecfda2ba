/// A position among the *visible* rows of a list: a section index and a row index within the
/// section's visible items (outline items whose ancestors are all expanded, in pre-order).
///
/// ```swift
/// let path = ListIndexPath(section: 0, row: 3)
/// snapshot.visibleItem(at: path)   // the item shown in row 3 of the first section
/// print(path)                      // 0:3
/// ```
public struct ListIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The section's index among the list's sections.
  public var section: Int
  /// The row's index among the section's visible rows.
  public var row: Int

  /// A visible-row position; not checked against any list.
  @inlinable
  public init(section: Int, row: Int) {
    self.section = section
    self.row = row
  }

  /// Orders by section, then row: the order rows appear in on screen.
  @inlinable
  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.section, lhs.row) < (rhs.section, rhs.row)
  }

  /// `section:row`, for example `0:3`.
  @inlinable
  public var description: String { "\(section):\(row)" }
}

/// Where an item hangs: at the root of a section, or under a parent item.
///
/// ```swift
/// snapshot.location(ofItem: "Granny Smith")?.container   // .parent("Apple")
/// ```
public enum ListItemContainer<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  /// A root item of the section.
  case section(SectionID)
  /// A child of the item.
  case parent(ItemID)
}

/// An item's exact place: its container and its index among that container's children.
///
/// This is the positional vocabulary that events and undo use: every structural change can be
/// described, and reversed, with locations.
///
/// ```swift
/// try snapshot.moveItem("Pear", to: ListItemLocation(.section("Fruit"), index: 0))   // first root item
/// ```
public struct ListItemLocation<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  /// The section (for a root item) or parent item the item hangs in.
  public var container: ListItemContainer<SectionID, ItemID>
  /// The item's index among the container's children (root items, for a section).
  public var index: Int

  /// A location; not checked against any list.
  @inlinable
  public init(_ container: ListItemContainer<SectionID, ItemID>, index: Int) {
    self.container = container
    self.index = index
  }
}
