import ListState

/// A mutable list state built for folding long runs of events fast: replaying a journal,
/// verifying it, or reaching a version far from any checkpoint.
///
/// ``ListSnapshot`` is persistent — copies are O(1) and share nodes — and pays for it with
/// tree descents on every operation (several dependent cache misses on a large list). A fold
/// needs none of that: it owns one state, applies one positional event after another, and only
/// wants a snapshot at the end. `ListFold` keeps the item records in an array, an
/// identifier → slot table beside it, and each sibling sequence as a block list of slots. An
/// event that names a position (move, delete) finds its record through the position, without
/// hashing; one that names only an identifier (update, expand, insert's new items) costs one
/// table probe. ``snapshot()`` then builds the ``ListSnapshot`` in one bulk pass.
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
/// - Complexity: Each event costs O(1) expected table operations per item it names or carries,
///   plus O(n / b + b) for a positional edit of a sibling sequence of n items (b ≈ 256); copying
///   a `ListFold` is O(n). At most `Int32.max` items.
public struct ListFold<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Event = ListEvent<Section, Item>
  public typealias Outline = ListOutline<Item>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>

  /// A section and its root items.
  @usableFromInline
  struct _Section: Sendable {
    @usableFromInline var value: Section
    @usableFromInline var roots: _FoldSiblings

    @inlinable
    init(value: Section, roots: _FoldSiblings) {
      self.value = value
      self.roots = roots
    }
  }

  /// An item: its content, its parent's slot (-1 for a root item), expansion, and where its
  /// children are listed (an index in `_childLists`; -1 while it never had any).
  ///
  /// The children are not stored in the record: a sibling sequence takes three words, and most
  /// items never have children. Without it a record of a two-word item takes 32 bytes instead
  /// of 48, and the events that reach a record through the table (updates, expansion, inserts,
  /// deletes) touch a third less memory — on a large fold, fewer cache and TLB misses.
  @usableFromInline
  struct _Item: Sendable {
    @usableFromInline var value: Item
    @usableFromInline var parent: Int32
    @usableFromInline var children: Int32
    @usableFromInline var isExpanded: Bool

    @inlinable
    init(value: Item, parent: Int32, isExpanded: Bool) {
      self.value = value
      self.parent = parent
      self.children = -1
      self.isExpanded = isExpanded
    }
  }

  /// Whose sibling sequence an event edits: a section (its index in `_sections`) or an item
  /// (its slot). Resolved once per named container and event.
  @usableFromInline
  enum _Owner: Equatable {
    case section(Int)
    case item(Int)
  }

  /// The sections, in order.
  @usableFromInline
  var _sections: [_Section] = []
  /// The index in `_sections` of each section (rebuilt when sections are inserted, deleted or
  /// moved: those events are rare, and lists have few sections).
  @usableFromInline
  var _sectionIndex: [Section.ID: Int] = [:]
  /// The slot in `_records` of every item, by identifier.
  @usableFromInline
  var _table = _FoldSlotTable()
  /// The items' records; a deleted item's slot is reused. Records live in an array, not in
  /// the map: an array element is read and mutated in place, and sibling sequences refer to
  /// records by slot.
  @usableFromInline
  var _records: [_Item] = []
  /// Slots of deleted items, reused first.
  @usableFromInline
  var _freeSlots: [Int32] = []
  /// The children of the items that have (or had) any, each listed by one record's `children`.
  @usableFromInline
  var _childLists: [_FoldSiblings] = []
  /// Indices in `_childLists` of deleted items' lists (emptied), reused first.
  @usableFromInline
  var _freeChildLists: [Int32] = []

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
    _table.reserveCapacity(snapshot.numberOfItems)
    _records.reserveCapacity(snapshot.numberOfItems)
    for section in snapshot.sections {
      let outline = snapshot.outline(ofSection: section.id) ?? Outline()
      _sectionIndex[section.id] = _sections.count
      let roots = _FoldSiblings(_register(outline.roots, parent: -1))
      _sections.append(_Section(value: section, roots: roots))
    }
    _checkInvariants()
  }

  /// The number of items.
  @inlinable
  public var numberOfItems: Int { _table.count }

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

  /// The slot of the item `id`; nil when there is none.
  @inlinable
  @inline(__always)
  func _slot(of id: Item.ID, hash: Int) -> Int? {
    _table.find(hash: hash) { _records[$0].value.id == id }
  }

  /// The slot of the item `id`; nil when there is none.
  @inlinable
  @inline(__always)
  func _slot(of id: Item.ID) -> Int? { _slot(of: id, hash: id.hashValue) }

  /// The item `id`; nil when there is none.
  @inlinable
  func _item(_ id: Item.ID) -> Item? { _slot(of: id).map { _records[$0].value } }

  /// The outline nodes of a sibling sequence.
  @inlinable
  func _nodes(of siblings: _FoldSiblings) -> [Outline.Node] {
    var nodes: [Outline.Node] = []
    nodes.reserveCapacity(siblings.count)
    siblings.forEach { slot in
      let record = Int(slot)
      let list = Int(_records[record].children)
      nodes.append(
        Outline.Node(
          _records[record].value, isExpanded: _records[record].isExpanded,
          children: list < 0 || _childLists[list].isEmpty ? [] : _nodes(of: _childLists[list])))
    }
    return nodes
  }

  /// Adds the records of `nodes` and their descendants; returns the slots of `nodes`, in order
  /// (the caller places them). The identifiers must be new (checked by the caller).
  @inlinable
  mutating func _register(_ nodes: [Outline.Node], parent: Int32) -> [Int32] {
    var slots: [Int32] = []
    slots.reserveCapacity(nodes.count)
    for node in nodes { slots.append(_register(node, hash: node.item.id.hashValue, parent: parent)) }
    return slots
  }

  /// Adds the records of `node` (whose identifier hashes to `hash`) and its descendants; returns
  /// the slot of `node` (the caller places it). The identifiers must be new.
  @inlinable
  mutating func _register(_ node: Outline.Node, hash: Int, parent: Int32) -> Int32 {
    let record = _Item(value: node.item, parent: parent, isExpanded: node.isExpanded)
    let slot: Int
    if let free = _freeSlots.popLast() {
      slot = Int(free)
      _records[slot] = record
    } else {
      slot = _records.count
      _records.append(record)
    }
    _table.insert(slot: slot, hash: hash)
    if !node.children.isEmpty {
      // Registered into a local, then stored: the recursion appends to `_records` and
      // `_childLists`, and keeping it out of the assignment makes plain that no access spans it.
      let children = _FoldSiblings(_register(node.children, parent: Int32(slot)))
      _records[slot].children = _newChildList(children)
    }
    return Int32(slot)
  }

  /// Stores `children` as a new child list (reusing a deleted item's); returns its index.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func _newChildList(_ children: _FoldSiblings) -> Int32 {
    if let free = _freeChildLists.popLast() {
      _childLists[Int(free)] = children
      return free
    }
    precondition(_childLists.count < Int(Int32.max), "too many items for a ListFold")
    _childLists.append(children)
    return Int32(_childLists.count - 1)
  }

  /// Removes the records of the item at `slot` and its descendants.
  @inlinable
  mutating func _unregister(_ slot: Int) {
    _table.remove(slot: slot, hash: _records[slot].value.id.hashValue)
    _freeSlots.append(Int32(slot))
    let list = Int(_records[slot].children)
    guard list >= 0 else { return }
    // The children are taken out of their list (nothing left to release later), and the list
    // is free for reuse.
    _records[slot].children = -1
    let children = _childLists[list]
    _childLists[list] = _FoldSiblings()
    _freeChildLists.append(Int32(list))
    children.forEach { _unregister(Int($0)) }
  }

  /// The number of children of the item at `slot`.
  @inlinable
  @inline(__always)
  func _childCount(_ slot: Int) -> Int {
    let list = Int(_records[slot].children)
    return list < 0 ? 0 : _childLists[list].count
  }

  /// Whether the subtree at `slot` is exactly `node` (identifiers, contents, expansion,
  /// children, in order).
  @inlinable
  func _subtree(_ slot: Int, equals node: Outline.Node) -> Bool {
    guard _records[slot].value == node.item && _records[slot].isExpanded == node.isExpanded else { return false }
    let list = Int(_records[slot].children)
    return list < 0 ? node.children.isEmpty : _forest(_childLists[list], equals: node.children)
  }

  /// Whether a sibling sequence holds exactly the subtrees `nodes`.
  @inlinable
  func _forest(_ siblings: _FoldSiblings, equals nodes: [Outline.Node]) -> Bool {
    guard siblings.count == nodes.count else { return false }
    var index = 0
    var equal = true
    siblings.forEach { slot in
      if equal { equal = _records[Int(slot)].value.id == nodes[index].item.id && _subtree(Int(slot), equals: nodes[index]) }
      index += 1
    }
    return equal
  }

  /// The owner of `container`'s sibling sequence; nil when it does not exist.
  @inlinable
  @inline(__always)
  func _owner(of container: Container) -> _Owner? {
    switch container {
    case .section(let section): return _position(ofSection: section).map { .section($0) }
    case .parent(let parent): return _slot(of: parent).map { .item($0) }
    }
  }

  /// The number of siblings in `owner`'s sequence (read in place: no copy of the sequence).
  @inlinable
  @inline(__always)
  func _count(of owner: _Owner) -> Int {
    switch owner {
    case .section(let position): return _sections[position].roots.count
    case .item(let slot): return _childCount(slot)
    }
  }

  /// Where `index` of `owner`'s siblings lies in their blocks; nil when the index is out of
  /// range. A positional event that checks the slot there and then removes it locates once.
  ///
  /// - Complexity: O(n / b) for n siblings in blocks of b.
  @inlinable
  @inline(__always)
  func _locate(_ index: Int, in owner: _Owner) -> (block: Int, offset: Int)? {
    switch owner {
    case .section(let position):
      guard index >= 0, index < _sections[position].roots.count else { return nil }
      return _sections[position].roots.locate(index)
    case .item(let slot):
      let list = Int(_records[slot].children)
      guard list >= 0, index >= 0, index < _childLists[list].count else { return nil }
      return _childLists[list].locate(index)
    }
  }

  /// The slot at a position of `owner`'s siblings that ``_locate(_:in:)`` returned.
  @inlinable
  @inline(__always)
  func _slot(at position: (block: Int, offset: Int), of owner: _Owner) -> Int {
    switch owner {
    case .section(let section): return Int(_sections[section].roots[position])
    case .item(let slot): return Int(_childLists[Int(_records[slot].children)][position])
    }
  }

  /// The slot at `index` of `owner`'s siblings; nil when the index is out of range.
  @inlinable
  @inline(__always)
  func _slot(at index: Int, of owner: _Owner) -> Int? {
    switch owner {
    case .section(let position):
      guard index >= 0, index < _sections[position].roots.count else { return nil }
      return Int(_sections[position].roots[index])
    case .item(let slot):
      let list = Int(_records[slot].children)
      guard list >= 0, index >= 0, index < _childLists[list].count else { return nil }
      return Int(_childLists[list][index])
    }
  }

  /// Calls `body` with `owner`'s sibling sequence in place.
  @inlinable
  @inline(__always)
  @discardableResult
  mutating func _withSiblings<R>(of owner: _Owner, _ body: (inout _FoldSiblings) -> R) -> R {
    switch owner {
    case .section(let position): return body(&_sections[position].roots)
    case .item(let slot):
      var list = Int(_records[slot].children)
      if list < 0 {
        // The item's first child: its list is made now.
        list = Int(_newChildList(_FoldSiblings()))
        _records[slot].children = Int32(list)
      }
      return body(&_childLists[list])
    }
  }

  /// The parent slot recorded for an item placed under `owner` (-1 for a section).
  @inlinable
  @inline(__always)
  func _parentSlot(of owner: _Owner) -> Int32 {
    if case .item(let slot) = owner { return Int32(slot) }
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

  /// Checks the state's bookkeeping: every sibling sequence's blocks, every listed slot holds
  /// a record whose parent is that container and which the table finds by its identifier, and
  /// every live record is listed exactly once (tests build with `LISTJOURNAL_INVARIANTS`).
  ///
  /// - Complexity: O(n).
  @inlinable
  public func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    precondition(_sectionIndex.count == _sections.count, "section index out of step")
    _table._checkInvariants()
    var listed = 0
    var lists = 0
    func check(_ siblings: _FoldSiblings, parent: Int32) {
      siblings._checkInvariants()
      siblings.forEach { slot in
        let record = Int(slot)
        precondition(record >= 0 && record < _records.count, "slot \(record) is out of range")
        let id = _records[record].value.id
        precondition(_slot(of: id) == record, "item \(id) at slot \(record) is not found there by the table")
        precondition(_records[record].parent == parent, "item \(id) records parent slot \(_records[record].parent), listed under \(parent)")
        listed += 1
        let list = Int(_records[record].children)
        if list >= 0 {
          precondition(list < _childLists.count, "item \(id) lists its children at \(list), out of range")
          lists += 1
          check(_childLists[list], parent: slot)
        }
      }
    }
    for (position, section) in _sections.enumerated() {
      precondition(_sectionIndex[section.value.id] == position, "section \(section.value.id) indexed wrongly")
      check(section.roots, parent: -1)
    }
    precondition(listed == _table.count, "\(_table.count) items, \(listed) listed")
    precondition(_table.count + _freeSlots.count == _records.count, "slots out of step")
    precondition(lists + _freeChildLists.count == _childLists.count, "child lists out of step")
    for list in _freeChildLists { precondition(_childLists[Int(list)].isEmpty, "free child list \(list) is not empty") }
    #endif
  }
}
