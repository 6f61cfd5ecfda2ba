import ListState

extension ListFold {
  /// The state given as sections with their outlines, in order: a list read without a
  /// ``ListSnapshot`` (a checkpoint decoded by ``HistoryCodec/decodeCheckpointSections(_:)``),
  /// ready to fold events onto.
  ///
  /// Each identifier is checked as it is registered (one table probe beside its insertion):
  /// inserting the sections as events would first collect every identifier in a set.
  ///
  /// ```swift
  /// var fold = try ListFold(sections: [("Fruit", ListOutline(items: ["Apple", "Pear"]))])
  /// ```
  /// - Throws: ``HistoryError/inconsistentEvent(reason:)`` naming a section or item identifier
  ///   that appears twice.
  /// - Complexity: O(n) expected.
  @inlinable
  public init(sections: [(Section, ListOutline<Item>)]) throws(HistoryError) {
    self.init()
    // Sized once: growing the table rehashes every slot registered so far.
    let itemCount = sections.reduce(0) { $0 + $1.1.count }
    _table.reserveCapacity(itemCount)
    _records.reserveCapacity(itemCount)
    for (section, outline) in sections {
      guard _sectionIndex[section.id] == nil else {
        throw .inconsistentEvent(reason: "section \(section.id) appears twice")
      }
      _sectionIndex[section.id] = _sections.count
      var roots: [Int32] = []
      roots.reserveCapacity(outline.roots.count)
      for node in outline.roots { roots.append(try _registerChecking(node, parent: -1)) }
      _sections.append(_Section(value: section, roots: _FoldSiblings(roots)))
    }
    _checkInvariants()
  }

  /// `_register(_:hash:parent:)`, refusing an identifier already registered.
  @inlinable
  mutating func _registerChecking(_ node: Outline.Node, parent: Int32) throws(HistoryError) -> Int32 {
    let hash = node.item.id.hashValue
    guard _slot(of: node.item.id, hash: hash) == nil else {
      throw .inconsistentEvent(reason: "item \(node.item.id) appears twice")
    }
    let slot = _records.count
    _records.append(_Item(value: node.item, parent: parent, isExpanded: node.isExpanded))
    _table.insert(slot: slot, hash: hash)
    if !node.children.isEmpty {
      var children: [Int32] = []
      children.reserveCapacity(node.children.count)
      for child in node.children { children.append(try _registerChecking(child, parent: Int32(slot))) }
      _records[slot].children = _newChildList(_FoldSiblings(children))
    }
    return Int32(slot)
  }

  /// The state as sections with their outlines, in order (without reload or reconfigure
  /// markers): what ``snapshot()`` builds its snapshot from, for a reader that only walks the
  /// state and would pay for a snapshot's bulk build and hashed lookups for nothing.
  ///
  /// ```swift
  /// for (section, outline) in fold.sections() { print(section, outline.count) }
  /// ```
  /// - Complexity: O(n).
  @inlinable
  public func sections() -> [(Section, ListOutline<Item>)] {
    _sections.map { section in (section.value, Outline(_nodes(of: section.roots))) }
  }
}
