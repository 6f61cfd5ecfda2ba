extension ListSectionSnapshot {
  /// Every item identifier in pre-order (parents before their children).
  ///
  /// - Complexity: O(k).
  @inlinable
  public var items: [Item.ID] { _list.itemIdentifiers(inSection: 0) }

  /// The root items, in order.
  ///
  /// - Complexity: O(r) for r root items.
  @inlinable
  public var rootItems: [Item.ID] { _list.rootItems(inSection: 0) }

  /// The visible items (those whose ancestors are all expanded), in pre-order.
  ///
  /// - Complexity: O(visible items).
  @inlinable
  public var visibleItems: [Item.ID] { _list.visibleItems(inSection: 0) }

  /// True when the outline has no item.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isEmpty: Bool { _list.numberOfItems == 0 }

  /// The item's value; nil when absent.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func item(_ id: Item.ID) -> Item? { _list.item(id) }

  /// Whether the outline holds the item.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func contains(_ id: Item.ID) -> Bool { _list.contains(item: id) }

  /// The item's parent; nil for a root item or an absent one.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func parent(of id: Item.ID) -> Item.ID? { _list.parent(of: id) }

  /// The item's depth: 0 for a root item; nil when absent.
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  public func level(of id: Item.ID) -> Int? { _list.level(of: id) }

  /// The item's position in ``items`` (pre-order); nil when absent.
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  public func index(of id: Item.ID) -> Int? { _list.index(ofItem: id) }

  /// The item's expansion flag (false when absent).
  ///
  /// - Complexity: O(log n).
  @inlinable
  public func isExpanded(_ id: Item.ID) -> Bool { _list.isExpanded(id) }

  /// Whether every ancestor of the item is expanded (false when absent).
  ///
  /// - Complexity: O(depth · log n).
  @inlinable
  public func isVisible(_ id: Item.ID) -> Bool { _list.isVisible(id) }

  /// The children of `parent` (with theirs) as a section snapshot of their own, `parent` as its
  /// one root when `includingParent`; nil when `parent` is absent.
  ///
  /// ```swift
  /// outline.snapshot(of: "Fruit")?.rootItems   // ["Apple", "Pear"]
  /// ```
  /// - Complexity: O(k log k) for the k items taken.
  @inlinable
  public func snapshot(of parent: Item.ID, includingParent: Bool = false) -> ListSectionSnapshot? {
    guard let outline = _list.outline(of: parent, includingParent: includingParent) else { return nil }
    do { return try ListSectionSnapshot(outline) } catch { preconditionFailure("a subtree repeats an identifier: \(error)") }
  }

  /// A drawing of the visible items, one per line, indented two spaces per level and prefixed by
  /// `▾` (expanded parent), `▸` (collapsed parent) or a space (leaf).
  ///
  /// ```
  /// ▾ Fruit
  ///     Apple
  /// ▸ Vegetables
  /// ```
  /// - Complexity: O(visible items).
  @inlinable
  public func visualDescription() -> String {
    // The list's drawing without its section line, and without the section's margin.
    _list.visualDescription().split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
      .map { $0.dropFirst(2) }.joined(separator: "\n")
  }
}

extension ListSnapshot {
  /// The outline of `section` as a stand-alone section snapshot; nil when the section is absent.
  ///
  /// ```swift
  /// var fruit = snapshot.sectionSnapshot(of: "Fruit")!
  /// try fruit.append(["Fig"])
  /// try snapshot.apply(fruit, to: "Fruit")
  /// ```
  /// - Complexity: O(k log k) for the section's k items.
  @inlinable
  public func sectionSnapshot(of section: Section.ID) -> ListSectionSnapshot<Item>? {
    guard let outline = outline(ofSection: section) else { return nil }
    do { return try ListSectionSnapshot(outline) } catch { preconditionFailure("a section repeats an identifier: \(error)") }
  }

  /// Makes `section` hold exactly `snapshot`'s outline — its items, nesting and expansion flags
  /// (UIKit's `apply(_:to:)`). Items of other sections may not appear in it.
  ///
  /// - Throws: `.sectionsNotFound`, `.itemsAlreadyExist` (an item of another section); the
  ///   list is then unchanged.
  /// - Complexity: O((old + new items) log n).
  @inlinable
  public mutating func apply(_ snapshot: ListSectionSnapshot<Item>, to section: Section.ID) throws(Failure) {
    guard contains(section: section) else { throw .sectionsNotFound([section]) }
    var result = self  // O(1): a failure below leaves self unchanged
    try result.deleteItems(rootItems(inSection: section))
    try result.append(snapshot.outline, toSection: section)
    self = result
  }
}
