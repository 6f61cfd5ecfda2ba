/// The whole state of a list: ordered sections, each holding an ordered forest of items with
/// expanded/collapsed flags — UIKit's `NSDiffableDataSourceSnapshot` and
/// `NSDiffableDataSourceSectionSnapshot` in one portable value.
///
/// Identifiers are unique per kind across the whole list (no item in two sections). Identity
/// (`id`) is kept apart from content (`==`): ``updateItem(_:)`` keeps an item's identity,
/// position, children and expansion and marks it reloaded.
///
/// A snapshot is a value with copy-on-write, persistent storage: copying one is O(1) and
/// mutating a copy costs O(log n) per operation, not O(n).
///
/// ```swift
/// var snapshot = ListSnapshot<String, String>()
/// try snapshot.appendSections(["Fruit"])
/// try snapshot.appendItems(["Apple", "Pear"])
/// try snapshot.appendItems(["Granny Smith"], underParent: "Apple")
/// try snapshot.expand(["Apple"])
/// snapshot.visibleItems(inSection: "Fruit")   // ["Apple", "Granny Smith", "Pear"]
/// ```
///
/// Every mutating operation throws a ``ListError`` instead of crashing and, when it throws,
/// leaves the snapshot exactly as it was.
public struct ListSnapshot<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Failure = ListError<Section.ID, Item.ID>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>

  @usableFromInline
  typealias ItemRecord = _ItemRecord<Item, Section.ID>
  @usableFromInline
  typealias SectionRecord = _SectionRecord<Section, Item.ID>
  @usableFromInline
  typealias ItemTree = _OrderedTree<Item.ID>
  @usableFromInline
  typealias ItemEntry = _OrderedEntry<Item.ID>

  // Storage (see `_Storage/`): records in persistent hash maps, sibling sequences in persistent
  // B+trees keyed by order labels. Copying a snapshot copies six references and the marker
  // epoch.

  /// Every section's record, keyed by identifier.
  @usableFromInline
  var _sectionRecords: _HashTree<Section.ID, SectionRecord>
  /// Every item's record (at every level), keyed by identifier.
  @usableFromInline
  var _itemRecords: _HashTree<Item.ID, ItemRecord>
  /// The sections in order; weights are each section's item count and visible row count.
  @usableFromInline
  var _sectionOrder: _OrderedTree<Section.ID>
  @usableFromInline
  var _reloadedItems: _HashSet<Item.ID>
  @usableFromInline
  var _reconfiguredItems: _HashSet<Item.ID>
  @usableFromInline
  var _reloadedSections: _HashSet<Section.ID>
  /// The epoch of the reload markers: an item record whose `reloadStamp` equals it is in
  /// `_reloadedItems`, and every item there has it. `clearMarkers()` starts a new epoch in O(1).
  /// 0 turns the stamps off (after 2^48 epochs, so that a stamp can never be mistaken for a
  /// current one); the set alone then says what is marked.
  @usableFromInline
  var _markerEpoch: UInt64

  /// An empty list.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init() {
    _sectionRecords = _HashTree()
    _itemRecords = _HashTree()
    _sectionOrder = _OrderedTree()
    _reloadedItems = _HashSet()
    _reconfiguredItems = _HashSet()
    _reloadedSections = _HashSet()
    _markerEpoch = 1
  }
}
