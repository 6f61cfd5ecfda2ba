/// One call an outline view receives from ``ListOutlineAdapter``, as `NSOutlineView` reads it:
/// child indexes count the parent's children the calls before left, and a parent of nil is the
/// outline's root.
///
/// Removes, inserts and moves come between `beginUpdates()` and `endUpdates()`; expanding,
/// collapsing and reloading come after `endUpdates()`, when the view knows the inserted items.
///
/// ```swift
/// // Apple's children Granny, Fuji → Fuji, Granny, Gala
/// [.move(1, parent: .item("Apple"), to: 0), .insert([2], parent: .item("Apple"))]
/// ```
public enum ListOutlineUpdate<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  public typealias Node = ListOutlineNode<SectionID, ItemID>

  /// Removes the children at these indexes of `parent`, all counted before the call (ascending).
  case remove([Int], parent: Node?)
  /// Inserts children of `parent` that end at these indexes (ascending).
  case insert([Int], parent: Node?)
  /// Moves the child at the first index of `parent` to the second, counted without it.
  case move(Int, parent: Node?, to: Int)
  /// Expands an item (its children are read from the data source).
  case expand(Node)
  /// Collapses an item.
  case collapse(Node)
  /// Reloads an item's cell and whether it is expandable, not its children.
  case reload(Node)
}
