import ListState

extension ListChangeset {
  /// The full-state diff between two snapshots (any two: across branches of the undo tree too).
  ///
  /// Identity is by identifier, content by `==`. A section present in both is reloaded when its
  /// content changed or `new` marks it reloaded; a row visible in both is reloaded when its content
  /// changed or `new` marks it reloaded or reconfigured. Expanding or collapsing a parent shows as
  /// inserts or deletes of the rows under it.
  ///
  /// ```swift
  /// var new = old
  /// try new.moveItem("Pear", beforeItem: "Apple")
  /// ListChangeset(from: old, to: new).numberOfItemMoves   // 1
  /// ```
  ///
  /// - Complexity: O(n + k log k) for n visible rows (k common to a changed section), plus a
  ///   content comparison per common row unless `Item` is its own identifier.
  @inlinable
  public init<Section: ListElement, Item: ListElement>(
    from old: ListSnapshot<Section, Item>, to new: ListSnapshot<Section, Item>
  ) where Section.ID == SectionID, Item.ID == ItemID {
    self.init(from: old, to: new, alsoMarkedSections: [], alsoMarkedItems: [])
  }

  /// The full diff, with extra reload markers (those of events, whose snapshots no longer carry them).
  @inlinable
  init<Section: ListElement, Item: ListElement>(
    from old: ListSnapshot<Section, Item>, to new: ListSnapshot<Section, Item>,
    alsoMarkedSections: Set<SectionID>, alsoMarkedItems: Set<ItemID>
  ) where Section.ID == SectionID, Item.ID == ItemID {
    let markedSections = new.reloadedSectionIdentifiers.union(alsoMarkedSections)
    let sectionNeedsReload: (SectionID) -> Bool = { id in
      markedSections.contains(id) || old.section(id) != new.section(id)
    }
    var marked = new.reloadedItemIdentifiers
    marked.formUnion(new.reconfiguredItemIdentifiers)
    marked.formUnion(alsoMarkedItems)
    let itemNeedsReload: ((ItemID) -> Bool)?
    if Item.self == Item.ID.self {
      // The content is the identifier: only markers can ask for a reload.
      itemNeedsReload = marked.isEmpty ? nil : { [marked] id in marked.contains(id) }
    } else if marked.isEmpty {
      itemNeedsReload = { id in old.item(id) != new.item(id) }
    } else {
      itemNeedsReload = { [marked] id in marked.contains(id) || old.item(id) != new.item(id) }
    }
    // The same snapshot value on both sides (shared storage): read its rows once; the row diff
    // then sees identical arrays and skips every section in O(1).
    let oldRows = ListVisibleRows(old)
    let newRows = Self._sharesStorage(old, new) ? oldRows : ListVisibleRows(new)
    self.init(from: oldRows, to: newRows, sectionNeedsReload: sectionNeedsReload, itemNeedsReload: itemNeedsReload)
  }

  /// True when two snapshot values are bit-for-bit the same (they share every storage
  /// reference, so they are the same value). False negatives only cost speed.
  @inlinable
  static func _sharesStorage<Section, Item>(_ a: ListSnapshot<Section, Item>, _ b: ListSnapshot<Section, Item>) -> Bool {
    withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
  }
}
