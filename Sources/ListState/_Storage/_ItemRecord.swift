/// What a snapshot stores per item, keyed by the item's identifier.
///
/// The item's weights (subtree size and visible rows) are not stored here: they live in the
/// entry of the container's ``_OrderedTree`` and follow from `children` and `isExpanded`.
/// Kept small on purpose: a 1,000,000-item list holds a million of these.
struct _ItemRecord<Item: ListElement, SectionID: Hashable & Sendable>: Sendable {
  /// The app's value (identity and content).
  var value: Item
  /// The order label among its siblings (the key of its entry in the container's tree).
  var label: UInt64
  /// The children in order (empty for a leaf).
  var children: _OrderedTree<Item.ID>
  /// Where the item hangs. Only roots name their section; nested items find it by walking up.
  var container: ListItemContainer<SectionID, Item.ID>
  var isExpanded: Bool

  /// The number of items in the subtree, the item included.
  var subtreeCount: Int { 1 + children.w1 }
  /// The visible rows of the subtree: the item plus, when expanded, its children's rows.
  var visibleCount: Int { 1 + (isExpanded ? children.w2 : 0) }
}
