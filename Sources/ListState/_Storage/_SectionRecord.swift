/// What a snapshot stores per section, keyed by the section's identifier.
@usableFromInline
struct _SectionRecord<Section: ListElement, ItemID: Hashable & Sendable>: Sendable {
  /// The app's value (identity and content).
  @usableFromInline
  var value: Section
  /// The order label in the list's section sequence.
  @usableFromInline
  var label: UInt64
  /// The root items in order.
  @usableFromInline
  var roots: _OrderedTree<ItemID>

  @inlinable
  init(value: Section, label: UInt64, roots: _OrderedTree<ItemID>) {
    self.value = value
    self.label = label
    self.roots = roots
  }
}
