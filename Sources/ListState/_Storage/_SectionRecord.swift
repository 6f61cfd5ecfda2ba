/// What a snapshot stores per section, keyed by the section's identifier.
struct _SectionRecord<Section: ListElement, ItemID: Hashable & Sendable>: Sendable {
  /// The app's value (identity and content).
  var value: Section
  /// The order label in the list's section sequence.
  var label: UInt64
  /// The root items in order.
  var roots: _OrderedTree<ItemID>
}
