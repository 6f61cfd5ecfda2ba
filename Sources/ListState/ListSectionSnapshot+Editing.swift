extension ListSectionSnapshot {
  /// Appends items at the end of the root items, or of `parent`'s children.
  ///
  /// ```swift
  /// try outline.append(["Apple"], to: "Fruit")
  /// ```
  /// - Throws: `.duplicateItems`, `.itemsAlreadyExist`, `.itemsNotFound` (the parent).
  /// - Complexity: O(k log n) for k items.
  @inlinable
  public mutating func append(_ items: [Item], to parent: Item.ID? = nil) throws(Failure) {
    if let parent { try _list.appendItems(items, underParent: parent) } else { try _list.appendItems(items, toSection: 0) }
  }

  /// Appends an outline (items with their children and flags) at the end of the root items, or
  /// of `parent`'s children.
  ///
  /// - Complexity: O(k log n) for k items.
  @inlinable
  public mutating func append(_ outline: ListOutline<Item>, to parent: Item.ID? = nil) throws(Failure) {
    if let parent { try _list.append(outline, underParent: parent) } else { try _list.append(outline, toSection: 0) }
  }

  /// Appends another section snapshot's outline (its items, children and flags).
  @inlinable
  public mutating func append(_ snapshot: ListSectionSnapshot, to parent: Item.ID? = nil) throws(Failure) {
    try append(snapshot.outline, to: parent)
  }

  /// Inserts items before `item`, as its siblings.
  ///
  /// - Complexity: O(k log n) for k items.
  @inlinable
  public mutating func insert(_ items: [Item], before item: Item.ID) throws(Failure) {
    try _list.insertItems(items, beforeItem: item)
  }

  /// Inserts items after `item`, as its siblings.
  ///
  /// - Complexity: O(k log n) for k items.
  @inlinable
  public mutating func insert(_ items: [Item], after item: Item.ID) throws(Failure) {
    try _list.insertItems(items, afterItem: item)
  }

  /// Inserts an outline before `item`, as its siblings.
  @inlinable
  public mutating func insert(_ outline: ListOutline<Item>, before item: Item.ID) throws(Failure) {
    try _list.insert(outline, beforeItem: item)
  }

  /// Inserts an outline after `item`, as its siblings.
  @inlinable
  public mutating func insert(_ outline: ListOutline<Item>, after item: Item.ID) throws(Failure) {
    try _list.insert(outline, afterItem: item)
  }

  /// Deletes items with their children.
  ///
  /// - Throws: `.duplicateItems`, `.itemsNotFound`.
  /// - Complexity: O(deleted items + k · depth · log n).
  @inlinable
  public mutating func delete(_ items: [Item.ID]) throws(Failure) { try _list.deleteItems(items) }

  /// Deletes every item.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func deleteAll() { self = ListSectionSnapshot() }

  /// Expands items (their children become visible, where their ancestors are expanded).
  ///
  /// - Complexity: O(k · depth · log n).
  @inlinable
  public mutating func expand(_ items: [Item.ID]) throws(Failure) { try _list.expand(items) }

  /// Collapses items.
  ///
  /// - Complexity: O(k · depth · log n).
  @inlinable
  public mutating func collapse(_ items: [Item.ID]) throws(Failure) { try _list.collapse(items) }

  /// Replaces `parent`'s children by the roots of `snapshot` (with their children and flags).
  ///
  /// ```swift
  /// try outline.replace(childrenOf: "Fruit", using: ListSectionSnapshot(ListOutline(items: ["Fig"])))
  /// ```
  /// - Complexity: O((old + new children) log n).
  @inlinable
  public mutating func replace(childrenOf parent: Item.ID, using snapshot: ListSectionSnapshot) throws(Failure) {
    try _list.replace(childrenOf: parent, using: snapshot.outline)
  }

  /// Replaces `parent`'s children by the roots of `outline`.
  @inlinable
  public mutating func replace(childrenOf parent: Item.ID, using outline: ListOutline<Item>) throws(Failure) {
    try _list.replace(childrenOf: parent, using: outline)
  }
}
