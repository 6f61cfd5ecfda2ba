/// An item of an outline view (``ListOutlineAdapter``): a section, shown as a group item whose
/// children are its root items, or an item, whose children are its own.
///
/// ```swift
/// adapter.child(0, of: nil)               // .section("Fruit")
/// adapter.child(0, of: .section("Fruit")) // .item("Apple")
/// ```
public enum ListOutlineNode<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  case section(SectionID)
  case item(ItemID)
}
