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
    let duplicateSections = Self._duplicates(in: sections.lazy.map(\.0.id))
    if !duplicateSections.isEmpty { throw .duplicateSections(duplicateSections) }
    let duplicateItems = Self._duplicates(in: sections.lazy.flatMap(\.1.itemIdentifiers))
    if !duplicateItems.isEmpty { throw .duplicateItems(duplicateItems) }
    _placeNewSections(sections.map(\.0), at: 0)
    // Records of every section are added in one bulk build of the hash map.
    var newRecords: [(Item.ID, ItemRecord)] = []
    newRecords.reserveCapacity(sections.reduce(0) { $0 + $1.1.roots.count })
    for (section, outline) in sections {
      _insertNewOutline(outline.roots, in: .section(section.id), at: 0, deferringRecordsInto: &newRecords)
    }
    _insertNewRecords(newRecords)
    _checkInvariants()
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
    let sortedHashes = try _validateNewItems(items.map(\.id))
    _placeNewSections([section], at: 0)
    _insertNewItems(items, in: .section(section.id), at: 0, sortedHashes: sortedHashes)
    _checkInvariants()
  }
}
