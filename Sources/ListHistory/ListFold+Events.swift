import ListState

extension ListFold {
  /// Applies `event` with the meaning of ``ListEvent/apply(to:verifying:)``.
  ///
  /// Everything is checked before anything changes, so a refused event leaves the state as it
  /// was. Structural checks always run (identifiers exist or are new, the position holds the
  /// named item, indices are in range, no item moves under itself); `verifying` adds the
  /// checks of recorded payloads (old contents, deleted subtrees, expansion, section indices).
  ///
  /// ```swift
  /// for event in commit.events { try fold.apply(event) }
  /// ```
  /// - Throws: ``HistoryError/inconsistentEvent(reason:)`` naming the event kind and identifier.
  /// - Complexity: O(1) expected per item the event names or carries, plus a positional edit
  ///   (O(n / b + b)); a deleted subtree is compared in O(subtree) when verifying.
  // Consuming, as `ListEvent.apply(to:verifying:)`: the switch takes the payloads out of the
  // event instead of copying the whole enum first (a generic enum's copy goes through its value
  // witness).
  @inlinable
  public mutating func apply(_ event: consuming Event, verifying: Bool = true) throws(HistoryError) {
    var event = consume event
    try _apply(&event, verifying: verifying)
  }

  /// ``apply(_:verifying:)`` of an event left where it is (in a replay, the slot of a buffer the
  /// history moves it out of next): the switch reads its payloads in place, where an event
  /// passed by value was first copied whole (every payload retained and released again, a
  /// twentieth of a replay's folding thread).
  @inlinable
  mutating func _apply(_ event: inout Event, verifying: Bool) throws(HistoryError) {
    switch event {
    case .insertSection(let section, let items, let index):
      try Self.check(_sectionIndex[section.id] == nil, "insertSection", "section \(section.id) already exists")
      try Self.check(index >= 0 && index <= _sections.count, "insertSection", "index \(index) is out of 0...\(_sections.count)")
      try _checkNew(items, "insertSection")
      let roots = _FoldSiblings(_register(items.roots, parent: -1))
      _sections.insert(_Section(value: section, roots: roots), at: index)
      _reindexSections()

    case .deleteSection(let section, let items, let index):
      guard let position = _position(ofSection: section.id) else { throw Self.failure("deleteSection", "unknown section \(section.id)") }
      if verifying {
        try Self.check(position == index, "deleteSection", "section \(section.id) is not at index \(index)")
        try Self.check(_sections[position].value == section, "deleteSection", "section \(section.id) does not have the recorded content")
        try Self.check(_forest(_sections[position].roots, equals: items.roots), "deleteSection", "section \(section.id) does not hold the recorded items")
      }
      let removed = _sections.remove(at: position)
      _reindexSections()
      removed.roots.forEach { _unregister(Int($0)) }

    case .moveSection(let id, let from, let to):
      guard let position = _position(ofSection: id) else { throw Self.failure("moveSection", "unknown section \(id)") }
      if verifying { try Self.check(position == from, "moveSection", "section \(id) is not at index \(from)") }
      try Self.check(to >= 0 && to < _sections.count, "moveSection", "index \(to) is out of 0..<\(_sections.count)")
      let moved = _sections.remove(at: position)
      _sections.insert(moved, at: to)
      _reindexSections()

    case .updateSection(let old, let new):
      guard let position = _position(ofSection: new.id) else { throw Self.failure("updateSection", "unknown section \(new.id)") }
      if verifying {
        try Self.check(old.id == new.id, "updateSection", "section update changes the identifier \(old.id) to \(new.id)")
        try Self.check(_sections[position].value == old, "updateSection", "section \(old.id) does not have the recorded old content")
      }
      _sections[position].value = new

    case .replaceSection(let old, let new):
      guard let position = _position(ofSection: old.id) else { throw Self.failure("replaceSection", "unknown section \(old.id)") }
      if verifying { try Self.check(_sections[position].value == old, "replaceSection", "section \(old.id) does not have the recorded old content") }
      try Self.check(new.id == old.id || _sectionIndex[new.id] == nil, "replaceSection", "section \(new.id) already exists")
      _sections[position].value = new
      if new.id != old.id {
        _sectionIndex[old.id] = nil
        _sectionIndex[new.id] = position
      }

    case .reloadSections(let ids):
      for id in ids { try Self.check(_position(ofSection: id) != nil, "reloadSections", "unknown section \(id)") }
      try Self.checkDistinct(ids, "reloadSections", "section")

    case .insertItems(let outline, let location):
      guard let owner = _owner(of: location.container) else { throw Self.failure("insertItems", "unknown container \(location.container)") }
      let count = _count(of: owner)
      try Self.check(location.index >= 0 && location.index <= count, "insertItems", "index \(location.index) is out of 0...\(count) in \(location.container)")
      if let hash = try _checkNew(outline, "insertItems") {
        // One new leaf (most inserts): hashed once, and no array of slots.
        let slot = _register(outline.roots[0], hash: hash, parent: _parentSlot(of: owner))
        _withSiblings(of: owner) { $0.insert(slot, at: location.index) }
      } else {
        let slots = _register(outline.roots, parent: _parentSlot(of: owner))
        _withSiblings(of: owner) { $0.insert(contentsOf: slots, at: location.index) }
      }

    case .deleteItems(let outline, let location):
      // Nothing to delete: nothing to check either (as the model's `deleteItems([])`).
      guard !outline.roots.isEmpty else { break }
      let owner = _owner(of: location.container)
      if outline.roots.count == 1 {
        // One root (most deletes): located once for the check and the removal, no array of slots.
        let root = outline.roots[0]
        let position = owner.flatMap { _locate(location.index, in: $0) }
        guard let owner, let position, case let slot = _slot(at: position, of: owner), _records[slot].value.id == root.item.id else {
          throw Self.failure("deleteItems", "item \(root.item.id) is not at \(location)")
        }
        if verifying { try Self.check(_subtree(slot, equals: root), "deleteItems", "item \(root.item.id) does not hold the recorded subtree") }
        _withSiblings(of: owner) { $0.remove(at: position) }
        _unregister(slot)
        break
      }
      for (offset, root) in outline.roots.enumerated() {
        let expected = location.index + offset
        let slot = owner.flatMap { _slot(at: expected, of: $0) }
        guard let slot, _records[slot].value.id == root.item.id else {
          var named = location
          named.index = expected
          throw Self.failure("deleteItems", "item \(root.item.id) is not at \(named)")
        }
        if verifying { try Self.check(_subtree(slot, equals: root), "deleteItems", "item \(root.item.id) does not hold the recorded subtree") }
      }
      let removed = _withSiblings(of: owner!) { siblings in
        (0..<outline.roots.count).map { _ in siblings.remove(at: location.index) }
      }
      for slot in removed { _unregister(Int(slot)) }

    case .moveItem(let id, let from, let to):
      let source = _owner(of: from.container)
      // Located once: the check reads the slot there, the removal below takes it.
      let position = source.flatMap { _locate(from.index, in: $0) }
      guard let source, let position, case let slot = _slot(at: position, of: source), _records[slot].value.id == id else {
        throw Self.failure("moveItem", "item \(id) is not at \(from)")
      }
      guard let destination = _owner(of: to.container) else { throw Self.failure("moveItem", "unknown container \(to.container)") }
      let count = _count(of: destination)
      let remaining = destination == source ? count - 1 : count
      try Self.check(to.index >= 0 && to.index <= remaining, "moveItem", "index \(to.index) is out of 0...\(remaining) in \(to.container)")
      if case .item(let parent) = destination {
        // Walk up from the new parent: reaching the item would make it its own ancestor.
        var ancestor = parent
        while ancestor >= 0 {
          try Self.check(ancestor != slot, "moveItem", "item \(id) cannot move under itself or its descendant \(_records[parent].value.id)")
          ancestor = Int(_records[ancestor].parent)
        }
      }
      _withSiblings(of: source) { $0.remove(at: position) }
      _withSiblings(of: destination) { $0.insert(Int32(slot), at: to.index) }
      if destination != source { _records[slot].parent = _parentSlot(of: destination) }

    case .updateItem(let old, let new):
      guard let slot = _slot(of: new.id) else { throw Self.failure("updateItem", "unknown item \(new.id)") }
      if verifying {
        try Self.check(old.id == new.id, "updateItem", "item update changes the identifier \(old.id) to \(new.id)")
        try Self.check(_records[slot].value == old, "updateItem", "item \(old.id) does not have the recorded old content")
      }
      _records[slot].value = new

    case .replaceItem(let old, let new):
      let oldHash = old.id.hashValue
      guard let slot = _slot(of: old.id, hash: oldHash) else { throw Self.failure("replaceItem", "unknown item \(old.id)") }
      if verifying { try Self.check(_records[slot].value == old, "replaceItem", "item \(old.id) does not have the recorded old content") }
      guard new.id != old.id else {
        _records[slot].value = new
        break
      }
      let newHash = new.id.hashValue
      try Self.check(_slot(of: new.id, hash: newHash) == nil, "replaceItem", "item \(new.id) already exists")
      // The record keeps its slot, so its place among its siblings and its children's parent
      // slot stay as they are: only the identifier's entry in the table changes.
      _table.remove(slot: slot, hash: oldHash)
      _records[slot].value = new
      _table.insert(slot: slot, hash: newHash)

    case .expand(let id, let wasExpanded):
      try _setExpanded(id, true, wasExpanded: wasExpanded, verifying: verifying, "expand")
    case .collapse(let id, let wasExpanded):
      try _setExpanded(id, false, wasExpanded: wasExpanded, verifying: verifying, "collapse")

    case .reloadItems(let ids):
      for id in ids { try Self.check(_slot(of: id) != nil, "reloadItems", "unknown item \(id)") }
      try Self.checkDistinct(ids, "reloadItems", "item")
    case .reconfigureItems(let ids):
      for id in ids { try Self.check(_slot(of: id) != nil, "reconfigureItems", "unknown item \(id)") }
      try Self.checkDistinct(ids, "reconfigureItems", "item")
    }
    _checkInvariants()
  }

  /// Undoes `event` (the state right after it): applies its ``ListEvent/inverse``.
  ///
  /// - Complexity: as ``apply(_:verifying:)``.
  @inlinable
  public mutating func revert(_ event: consuming Event, verifying: Bool = true) throws(HistoryError) {
    try apply(event._consumingInverse(), verifying: verifying)
  }

  @inlinable
  mutating func _setExpanded(_ id: Item.ID, _ expanded: Bool, wasExpanded: Bool, verifying: Bool, _ kind: String) throws(HistoryError) {
    guard let slot = _slot(of: id) else { throw Self.failure(kind, "unknown item \(id)") }
    if verifying { try Self.check(_records[slot].isExpanded == wasExpanded, kind, "item \(id) expansion is not as recorded") }
    _records[slot].isExpanded = expanded
  }

  // MARK: - Checks

  /// Refuses an outline whose identifiers repeat or already exist. For an outline of one leaf,
  /// returns its identifier's hash (for ``_register(_:hash:parent:)``); nil otherwise.
  @inlinable
  @discardableResult
  func _checkNew(_ outline: Outline, _ kind: String) throws(HistoryError) -> Int? {
    if outline.roots.count == 1 && outline.roots[0].children.isEmpty {
      let id = outline.roots[0].item.id
      let hash = id.hashValue
      try Self.check(_slot(of: id, hash: hash) == nil, kind, "item \(id) already exists")
      return hash
    }
    var seen = Set<Item.ID>()
    for id in outline.itemIdentifiers {
      try Self.check(_slot(of: id) == nil, kind, "item \(id) already exists")
      try Self.check(seen.insert(id).inserted, kind, "item \(id) appears twice")
    }
    return nil
  }

  /// Refuses a list of identifiers that names one twice, as a snapshot does (`duplicateItems`,
  /// `duplicateSections`): a fold must refuse every event the snapshot refuses, or a replay
  /// would accept a stream depending on how it folds.
  @inlinable
  static func checkDistinct<ID: Hashable>(_ ids: [ID], _ kind: String, _ noun: String) throws(HistoryError) {
    guard ids.count > 1 else { return }
    var seen = Set<ID>(minimumCapacity: ids.count)
    for id in ids { try check(seen.insert(id).inserted, kind, "\(noun) \(id) appears twice") }
  }

  @inlinable
  static func check(_ condition: Bool, _ kind: String, _ reason: @autoclosure () -> String) throws(HistoryError) {
    if !condition { throw failure(kind, reason()) }
  }

  @inlinable
  static func failure(_ kind: String, _ reason: String) -> HistoryError {
    .inconsistentEvent(reason: "\(kind): \(reason)")
  }
}
