import ListState

/// What a row of a table without sections shows (``ListTableAdapter``): a section's header — a
/// group row — or an item.
///
/// ```swift
/// adapter.row(at: 0)   // .sectionHeader(0)
/// adapter.row(at: 1)   // .item(0:0)
/// ```
public enum ListTableRow: Hashable, Sendable {
  /// The header of the section at this index.
  case sectionHeader(Int)
  /// The visible row at this index path.
  case item(ListIndexPath)
}
