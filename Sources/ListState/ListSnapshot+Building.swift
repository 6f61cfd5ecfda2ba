extension ListSnapshot {
  /// Builds a whole list in one pass: sections in order, each with its forest.
  ///
  /// ```swift
  /// let snapshot = try ListSnapshot<String, String>([
  ///     ("Fruit", ListOutline([.init("Apple", isExpanded: true, children: [.init("Granny Smith")]),
  ///                            .init("Pear")])),
  ///     ("Vegetables", ListOutline(items: ["Leek"])),
  /// ])
  /// ```
  /// - Throws: `.duplicateSections`, `.duplicateItems` (identifiers repeated anywhere in the
  ///   argument).
  /// - Complexity: O(n) tree work, bottom-up; plus one hash-map insertion per item and section.
  @inlinable
  public init(_ sections: [(Section, Outline)]) throws(Failure) {
    self.init()
    let duplicateSections = Self._duplicates(in: sections.map(\.0.id))
    if !duplicateSections.isEmpty { throw .duplicateSections(duplicateSections) }
    _placeNewSections(sections.map(\.0), at: 0)
    let newRecords = _newRecords(of: sections)
    // The hashes the bulk build sorts anyway find duplicate identifiers too (equal keys have
    // equal hashes): no separate set of every identifier. With a duplicate, `self` is thrown
    // away before anyone sees it; only then are the duplicates listed in argument order.
    let sortedHashes = ItemMap.sortedHashes(of: newRecords.keys)
    if !ItemMap.duplicateKeys(newRecords.keys, sortedHashes: sortedHashes).isEmpty {
      throw .duplicateItems(Self._duplicates(in: sections.lazy.flatMap(\.1.itemIdentifiers)))
    }
    _insertNewRecords(consume newRecords, sortedHashes: sortedHashes)
    _checkInvariants()
  }

  /// ``init(_:)`` for callers that guarantee every section and item identifier is unique (a
  /// fold state that checked each insertion): nothing is validated, so nothing can throw, and no
  /// identifier is hashed a second time to look for duplicates.
  ///
  /// - Complexity: O(n) tree work, plus one hash-map insertion per item and section.
  @inlinable
  package init(uniqueSections sections: [(Section, Outline)]) {
    self.init()
    _placeNewSections(sections.map(\.0), at: 0)
    _insertNewRecords(_newRecords(of: sections))
    _checkInvariants()
  }

  /// Places every section's roots and returns the records of all their items, for one bulk
  /// build of the record map.
  @inlinable
  mutating func _newRecords(of sections: [(Section, Outline)]) -> NewRecords {
    var newRecords = NewRecords()
    newRecords.reserveCapacity(sections.reduce(0) { $0 + $1.1.roots.count })
    for (section, outline) in sections {
      _insertNewOutline(outline.roots, in: .section(section.id), at: 0, deferringRecordsInto: &newRecords)
    }
    return newRecords
  }

  /// Builds a flat list: one section holding `items` as root items.
  ///
  /// ```swift
  /// let snapshot = try ListSnapshot<String, Int>(section: "All", items: Array(0..<100_000))
  /// ```
  /// - Throws: `.duplicateItems`.
  /// - Complexity: O(n) tree work, plus one hash-map insertion per item.
  @inlinable
  public init(section: Section, items: [Item]) throws(Failure) {
    self.init()
    let ids = Self._identifiers(of: items)
    let sortedHashes = try _validateNewItems(ids)
    _placeNewSections([section], at: 0)
    try _insertNewItems(items, ids: ids, in: .section(section.id), at: 0, sortedHashes: sortedHashes)
    _checkInvariants()
  }
}
