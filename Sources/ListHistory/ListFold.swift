import ListState

/// A mutable list state built for folding long runs of events fast: replaying a journal,
/// verifying it, or reaching a version far from any checkpoint.
///
/// ``ListSnapshot`` is persistent — copies are O(1) and share nodes — and pays for it with
/// tree descents on every operation (several dependent cache misses on a large list). A fold
/// needs none of that: it owns one state, applies one positional event after another, and only
/// wants a snapshot at the end. `ListFold` keeps the items in a hash map and each sibling
/// sequence in a block list, so an event costs about one map lookup per named item plus a
/// short scan; ``snapshot()`` then builds the ``ListSnapshot`` in one bulk pass.
///
/// Events are applied with the same meaning and the same checks as
/// ``ListEvent/apply(to:verifying:)``; an event that does not fit the state (unknown or
/// duplicate identifiers, a position that does not hold the named item, a move under the item's
/// own subtree, and with `verifying` a recorded old content, subtree or expansion that differs)
/// throws ``HistoryError/inconsistentEvent(reason:)`` and changes nothing.
///
/// ```swift
/// var fold = ListFold<String, String>()
/// try fold.apply(.insertSection("Fruit", items: ListOutline(items: ["Apple", "Pear"]), at: 0))
/// try fold.apply(.moveItem("Pear", from: .init(.section("Fruit"), index: 1), to: .init(.section("Fruit"), index: 0)))
/// fold.snapshot().itemIdentifiers   // ["Pear", "Apple"]
/// ```
///
/// Reload and reconfigure markers are not kept: they describe how one transaction reached its
/// state (what a UI should refresh), and snapshots compare equal without them.
///
/// - Complexity: Each event costs O(1) expected map operations per item it names, plus O(n / b +
///   b) for a positional edit of a sibling sequence of n items (b ≈ 256); copying a `ListFold`
///   is O(n).
public struct ListFold<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Event = ListEvent<Section, Item>
  public typealias Outline = ListOutline<Item>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>

  /// A section and its root items.
  @usableFromInline
  struct _Section: Sendable {
    @usableFromInline var value: Section
    @usableFromInline var roots: _FoldSiblings<Item.ID>

    @inlinable
    init(value: Section, roots: _FoldSiblings<Item.ID>) {
      self.value = value
      self.roots = roots
    }
  }

  /// An item: its content, its parent's slot (-1 for a root item), expansion and children.
  @usableFromInline
  struct _Item: Sendable {
    @usableFromInline var value: Item
    @usableFromInline var parent: Int
    @usableFromInline var isExpanded: Bool
    @usableFromInline var children: _FoldSiblings<Item.ID>

    @inlinable
    init(value: Item, parent: Int, isExpanded: Bool) {
      self.value = value
      self.parent = parent
      self.isExpanded = isExpanded
      self.children = _FoldSiblings()
    }
  }

  /// The sections, in order.
  @usableFromInline
  var _sections: [_Section] = []
  /// The index in `_sections` of each section (rebuilt when sections are inserted, deleted or
  /// moved: those events are rare, and lists have few sections).
  @usableFromInline
  var _sectionIndex: [Section.ID: Int] = [:]
  /// The slot in `_records` of every item.
  ///
  /// Records live in an array, not as the map's values: reading a field of a map value copies
  /// the whole value (retaining its children's arrays), while an array element is read and
  /// mutated in place.
  @usableFromInline
  var _slots: [Item.ID: Int] = [:]
  /// The items' records; a deleted item's slot is reused.
  @usableFromInline
  var _records: [_Item] = []
  /// Slots of deleted items, reused first.
  @usableFromInline
  var _freeSlots: [Int] = []

  /// The empty list.
  @inlinable
  public init() {}

  /// The state of `snapshot`, ready to fold further events onto.
  ///
  /// ```swift
  /// var fold = ListFold(snapshot)
  /// ```
  /// - Complexity: O(n).
  @inlinable
  public init(_ snapshot: ListSnapshot<Section, Item>) {
    _slots.reserveCapacity(snapshot.numberOfItems)
    _records.reserveCapacity(snapshot.numberOfItems)
    for section in snapshot.sections {
      let outline = snapshot.outline(ofSection: section.id) ?? Outline()
      _sectionIndex[section.id] = _sections.count
      _sections.append(_Section(value: section, roots: _FoldSiblings(outline.roots.map(\.item.id))))
      _register(outline.roots, parent: -1)
    }
    _checkInvariants()
  }

  /// The number of items.
  @inlinable
  public var numberOfItems: Int { _slots.count }

  /// The number of sections.
  @inlinable
  public var numberOfSections: Int { _sections.count }

  /// The state as a ``ListSnapshot`` (without reload or reconfigure markers).
  ///
  /// ```swift
  /// let snapshot = fold.snapshot()
  /// ```
  /// - Complexity: O(n): the outlines are collected, then built bottom-up in one pass.
  @inlinable
  public func snapshot() -> ListSnapshot<Section, Item> {
    // Every insertion checked its identifiers, so the build needs no validation.
    ListSnapshot(uniqueSections: _sections.map { section in (section.value, Outline(_nodes(of: section.roots))) })
  }

  // MARK: - Internals shared by the events

  /// The outline nodes of a sibling sequence.
  @inlinable
  func _nodes(of siblings: _FoldSiblings<Item.ID>) -> [Outline.Node] {
    var nodes: [Outline.Node] = []
    nodes.reserveCapacity(siblings.count)
    siblings.forEach { id in
      let slot = _slots[id]!
      nodes.append(
        Outline.Node(
          _records[slot].value, isExpanded: _records[slot].isExpanded,
          children: _records[slot].children.isEmpty ? [] : _nodes(of: _records[slot].children)))
    }
    return nodes
  }

  /// Adds the records of `nodes` and their descendants (the caller places the roots).
  @inlinable
  mutating func _register(_ nodes: [Outline.Node], parent: Int) {
    for node in nodes {
      var record = _Item(value: node.item, parent: parent, isExpanded: node.isExpanded)
      if !node.children.isEmpty { record.children = _FoldSiblings(node.children.map(\.item.id)) }
      let slot: Int
      if let free = _freeSlots.popLast() {
        slot = free
        _records[slot] = record
      } else {
        slot = _records.count
        _records.append(record)
      }
      _slots[node.item.id] = slot
      if !node.children.isEmpty { _register(node.children, parent: slot) }
    }
  }

  /// Removes the records of `id` and its descendants.
  @inlinable
  mutating func _unregister(_ id: Item.ID) {
    guard let slot = _slots.removeValue(forKey: id) else { return }
    // The children are taken out of the record (nothing left to release later).
    let children = _records[slot].children
    _records[slot].children = _FoldSiblings()
    _freeSlots.append(slot)
    children.forEach { _unregister($0) }
  }

  /// Whether the subtree of `id` is exactly `node` (contents, expansion, children, in order).
  @inlinable
  func _subtree(_ id: Item.ID, equals node: Outline.Node) -> Bool {
    guard let slot = _slots[id], _records[slot].value == node.item, _records[slot].isExpanded == node.isExpanded
    else { return false }
    return _forest(_records[slot].children, equals: node.children)
  }

  /// Whether a sibling sequence holds exactly the subtrees `nodes`.
  @inlinable
  func _forest(_ siblings: _FoldSiblings<Item.ID>, equals nodes: [Outline.Node]) -> Bool {
    guard siblings.count == nodes.count else { return false }
    var index = 0
    var equal = true
    siblings.forEach { id in
      if equal { equal = id == nodes[index].item.id && _subtree(id, equals: nodes[index]) }
      index += 1
    }
    return equal
  }

  /// The number of entries in `container`'s sibling sequence; nil when it does not exist.
  @inlinable
  func _count(of container: Container) -> Int? {
    switch container {
    case .section(let section): return _position(ofSection: section).map { _sections[$0].roots.count }
    case .parent(let parent): return _slots[parent].map { _records[$0].children.count }
    }
  }

  /// The identifier at `location`; nil when the container or the index does not exist.
  @inlinable
  func _id(at location: Location) -> Item.ID? {
    switch location.container {
    case .section(let section):
      guard let position = _position(ofSection: section), location.index >= 0, location.index < _sections[position].roots.count else { return nil }
      return _sections[position].roots[location.index]
    case .parent(let parent):
      guard let slot = _slots[parent], location.index >= 0, location.index < _records[slot].children.count else { return nil }
      return _records[slot].children[location.index]
    }
  }

  /// Calls `body` with `container`'s sibling sequence in place (the container must exist).
  @inlinable
  @discardableResult
  mutating func _withSiblings<R>(of container: Container, _ body: (inout _FoldSiblings<Item.ID>) -> R) -> R {
    switch container {
    case .section(let section): return body(&_sections[_position(ofSection: section)!].roots)
    case .parent(let parent): return body(&_records[_slots[parent]!].children)
    }
  }

  /// The parent slot recorded for an item placed in `container` (-1 for a section).
  @inlinable
  func _parentSlot(of container: Container) -> Int {
    if case .parent(let parent) = container { return _slots[parent]! }
    return -1
  }

  /// The index in `_sections` of a section; nil when unknown.
  ///
  /// Events name a section for nearly every item they place, and a list usually has a few
  /// sections: up to ``_linearSectionSearchLimit`` of them, an identifier with the very same
  /// bytes as a stored one is found without hashing (an identifier passed around is usually
  /// the same bytes — a small `String` is stored inline — and equal bytes imply equal values);
  /// `==` is not used for that scan because, for two different strings, it costs as much as
  /// hashing. Anything else is looked up in the map.
  @inlinable
  @inline(__always)
  func _position(ofSection id: Section.ID) -> Int? {
    if _sections.count <= Self._linearSectionSearchLimit {
      let found: Int? = withUnsafeBytes(of: id) { wanted in
        for position in _sections.indices {
          let same = withUnsafeBytes(of: _sections[position].value.id) { stored in _RawBytes.equal(stored, wanted) }
          if same { return position }
        }
        return nil
      }
      if let found { return found }
    }
    return _sectionIndex[id]
  }

  @inlinable
  static var _linearSectionSearchLimit: Int { 16 }

  @inlinable
  mutating func _reindexSections() {
    _sectionIndex.removeAll(keepingCapacity: true)
    for (position, section) in _sections.enumerated() { _sectionIndex[section.value.id] = position }
  }

  /// Checks the state's bookkeeping: every sibling sequence's blocks, every listed item has a
  /// record whose parent is that container, and every record is listed exactly once (tests
  /// build with `LISTJOURNAL_INVARIANTS`).
  ///
  /// - Complexity: O(n).
  @inlinable
  public func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    precondition(_sectionIndex.count == _sections.count, "section index out of step")
    var listed = 0
    func check(_ siblings: _FoldSiblings<Item.ID>, parent: Int) {
      siblings._checkInvariants()
      siblings.forEach { id in
        guard let slot = _slots[id] else { preconditionFailure("item \(id) is listed but has no record") }
        precondition(_records[slot].value.id == id, "slot \(slot) holds \(_records[slot].value.id), not \(id)")
        precondition(_records[slot].parent == parent, "item \(id) records parent slot \(_records[slot].parent), listed under \(parent)")
        listed += 1
        check(_records[slot].children, parent: slot)
      }
    }
    for (position, section) in _sections.enumerated() {
      precondition(_sectionIndex[section.value.id] == position, "section \(section.value.id) indexed wrongly")
      check(section.roots, parent: -1)
    }
    precondition(listed == _slots.count, "\(_slots.count) items, \(listed) listed")
    precondition(_slots.count + _freeSlots.count == _records.count, "slots out of step")
    #endif
  }
}
