/// A position among the *visible* rows of a list: a section index and a row index within the
/// section's visible items (outline items whose ancestors are all expanded, in pre-order).
public struct ListIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var section: Int
  public var row: Int

  public init(section: Int, row: Int) {
    self.section = section
    self.row = row
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.section, lhs.row) < (rhs.section, rhs.row)
  }

  public var description: String { "\(section):\(row)" }
}

/// Where an item hangs: at the root of a section, or under a parent item.
public enum ListItemContainer<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  case section(SectionID)
  case parent(ItemID)
}

/// An item's exact place: its container and its index among that container's children.
///
/// This is the positional vocabulary that events and undo use: every structural change can be
/// described, and reversed, with locations.
public struct ListItemLocation<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  public var container: ListItemContainer<SectionID, ItemID>
  public var index: Int

  public init(_ container: ListItemContainer<SectionID, ItemID>, index: Int) {
    self.container = container
    self.index = index
  }
}
