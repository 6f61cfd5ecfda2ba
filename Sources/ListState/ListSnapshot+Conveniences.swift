// MARK: - Conveniences porting code looks for

extension ListSnapshot {
  /// True when the list has no section (so no item either): the same as `ListSnapshot()`. A list
  /// whose sections are all empty is not empty; ask ``numberOfItems`` for that.
  ///
  /// ```swift
  /// ListSnapshot<String, String>().isEmpty   // true
  /// ```
  /// - Complexity: O(1).
  @inlinable
  public var isEmpty: Bool { numberOfSections == 0 }

  /// The identifier of the section at `index`; nil when out of range. UIKit's data source
  /// spells it `sectionIdentifier(for:)` too.
  ///
  /// ```swift
  /// snapshot.sectionIdentifier(for: 0)   // "Fruit"
  /// ```
  /// - Complexity: O(log s) for s sections.
  @inlinable
  public func sectionIdentifier(for index: Int) -> Section.ID? {
    guard index >= 0, index < numberOfSections else { return nil }
    return _sectionOrder.entry(at: index).id
  }

  /// Replaces every item of `section` (at every level) by `items`, as root items in that order.
  /// The new items may include items of the section; not items of other sections.
  ///
  /// ```swift
  /// try snapshot.replaceItems(inSection: "Fruit", with: ["Pear", "Fig"])
  /// ```
  /// - Throws: `.sectionsNotFound`, `.duplicateItems`, `.itemsAlreadyExist` (an item of another
  ///   section); the snapshot is then unchanged.
  /// - Complexity: O((k + m) log n) for k old and m new items.
  @inlinable
  public mutating func replaceItems(inSection section: Section.ID, with items: [Item]) throws(Failure) {
    guard contains(section: section) else { throw .sectionsNotFound([section]) }
    // Work on a copy (O(1): storage is shared until written) so a failure leaves self unchanged.
    var result = self
    try result.deleteItems(rootItems(inSection: section))
    try result.appendItems(items, toSection: section)
    self = result
  }

  /// Deletes every item (with its subtree) whose value satisfies `shouldBeDeleted`, as Swift's
  /// `removeAll(where:)` does for an array. The predicate sees every item, in list order.
  ///
  /// ```swift
  /// snapshot.deleteItems(where: { $0.isDone })
  /// ```
  /// - Returns: the identifiers the predicate picked, in list order (a picked item under a
  ///   picked parent included).
  /// - Complexity: O(n log n) for n items.
  @inlinable
  @discardableResult
  public mutating func deleteItems(where shouldBeDeleted: (Item) throws -> Bool) rethrows -> [Item.ID] {
    let picked = try itemIdentifiers.filter { try shouldBeDeleted(item($0)!) }
    deleteItemsIfPresent(picked)
    return picked
  }
}
