/// What a snapshot stores per item, keyed by the item's identifier.
///
/// The item's weights (subtree size and visible rows) are not stored here: they live in the
/// entry of the container's ``_OrderedTree`` and follow from `children` and `isExpanded`.
/// Kept small on purpose: a 1,000,000-item list holds a million of these.
@usableFromInline
struct _ItemRecord<Item: ListElement, SectionID: Hashable & Sendable>: Sendable {
  /// The app's value (identity and content).
  @usableFromInline
  var value: Item
  /// The order label among its siblings (the key of its entry in the container's tree).
  @usableFromInline
  var label: UInt64
  /// The children in order (empty for a leaf).
  @usableFromInline
  var children: _OrderedTree<Item.ID>
  /// Where the item hangs. Only roots name their section; nested items find it by walking up.
  @usableFromInline
  var container: ListItemContainer<SectionID, Item.ID>
  @usableFromInline
  var isExpanded: Bool
  // The reload stamp (see `reloadStamp`), 48 bits in two fields placed after `isExpanded` so
  // that they fill the record's tail padding instead of growing it.
  @usableFromInline
  var _stampHigh: UInt16
  @usableFromInline
  var _stampLow: UInt32

  @inlinable
  init(
    value: Item, label: UInt64, children: _OrderedTree<Item.ID>, container: ListItemContainer<SectionID, Item.ID>,
    isExpanded: Bool
  ) {
    self.value = value
    self.label = label
    self.children = children
    self.container = container
    self.isExpanded = isExpanded
    self._stampHigh = 0
    self._stampLow = 0
  }

  /// The snapshot's marker epoch when the item was marked reloaded (0: never): while it equals
  /// the snapshot's current epoch, the item is in the reloaded set, and the other way round (see
  /// ``ListSnapshot/_markerEpoch``). Lets a content update of an already marked item, and a
  /// delete of an unmarked one, skip the marker set.
  @inlinable
  var reloadStamp: UInt64 {
    get { UInt64(_stampHigh) << 32 | UInt64(_stampLow) }
    set {
      _stampHigh = UInt16(truncatingIfNeeded: newValue >> 32)
      _stampLow = UInt32(truncatingIfNeeded: newValue)
    }
  }

  /// The number of items in the subtree, the item included.
  @inlinable
  var subtreeCount: Int { 1 + children.w1 }
  /// The visible rows of the subtree: the item plus, when expanded, its children's rows.
  @inlinable
  var visibleCount: Int { 1 + (isExpanded ? children.w2 : 0) }
}
