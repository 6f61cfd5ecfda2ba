import ListState

extension ListChangeset {
  /// The full-state diff between two snapshots (any two: across branches of the undo tree too).
  ///
  /// Identity is by identifier, content by `==`. A section present in both is reloaded when its
  /// content changed or `new` marks it reloaded; a row visible in both is reloaded when its content
  /// changed or `new` marks it reloaded; it is reconfigured (``Stage/itemReconfigures``) when `new`
  /// marks it reconfigured and not reloaded. Expanding or collapsing a parent shows as inserts or
  /// deletes of the rows under it.
  ///
  /// ```swift
  /// var new = old
  /// try new.moveItem("Pear", beforeItem: "Apple")
  /// ListChangeset(from: old, to: new).numberOfItemMoves   // 1
  /// ```
  ///
  /// - Complexity: O(n + k log k) for n visible rows (k common to a changed section), plus one
  ///   pass over both snapshots' items comparing contents (storage the two share is skipped)
  ///   unless `Item` is its own identifier, plus O(log n) per item marked or changed.
  @inlinable
  public init<Section: ListElement, Item: ListElement>(
    from old: ListSnapshot<Section, Item>, to new: ListSnapshot<Section, Item>
  ) where Section.ID == SectionID, Item.ID == ItemID {
    self.init(from: old, to: new, alsoMarkedSections: [], alsoMarkedItems: [], alsoReconfiguredItems: [])
  }

  /// The full diff, with extra reload markers (those of events, whose snapshots no longer carry them).
  @inlinable
  init<Section: ListElement, Item: ListElement>(
    from old: ListSnapshot<Section, Item>, to new: ListSnapshot<Section, Item>,
    alsoMarkedSections: Set<SectionID>, alsoMarkedItems: Set<ItemID>, alsoReconfiguredItems: Set<ItemID>
  ) where Section.ID == SectionID, Item.ID == ItemID {
    let markedSections = new.reloadedSectionIdentifiers.union(alsoMarkedSections)
    let sectionNeedsReload: (SectionID) -> Bool = { id in
      markedSections.contains(id) || old.section(id) != new.section(id)
    }
    // The same snapshot value on both sides (shared storage): read its rows once; the row diff
    // then sees identical arrays and skips every section in O(1).
    let oldRows = ListVisibleRows(old)
    let newRows = Self._sharesStorage(old, new) ? oldRows : ListVisibleRows(new)
    // The items to reload wherever visible in both: the marked ones, and those whose content
    // changed — found in one pass over both snapshots' records (shared storage skipped), not
    // by two lookups per common row.
    var reloadIDs = Array(new.reloadedItemIdentifiers)
    reloadIDs.append(contentsOf: new.reconfiguredItemIdentifiers)
    reloadIDs.append(contentsOf: alsoMarkedItems)
    reloadIDs.append(contentsOf: alsoReconfiguredItems)
    if Item.self != Item.ID.self {  // otherwise the content is the identifier
      old._forEachChangedItem(comparedTo: new) { oldItem, _, newItem, _ in
        if oldItem != newItem { reloadIDs.append(newItem.id) }
      }
    }
    let reload: _ReloadTest<ItemID>
    if reloadIDs.isEmpty {
      reload = _ReloadTest()
    } else if reloadIDs.count * 8 <= newRows.numberOfRows {
      // Few: mark their rows (an O(log n) position lookup each) so the diff tests a bit per
      // common row instead of hashing it.
      var rows = _RowSet(rowCounts: newRows.rows.map(\.count))
      for id in reloadIDs {
        if let path = new.visibleIndexPath(ofItem: id) { rows.insert(section: path.section, row: path.row) }
      }
      reload = _ReloadTest(rows: rows)
    } else {
      let ids = Set(reloadIDs)
      reload = _ReloadTest(predicate: { ids.contains($0) })
    }
    self.init(from: oldRows, to: newRows, sectionNeedsReload: sectionNeedsReload, reload: reload)
    let reconfigures = Self._reconfigureOnly(
      reconfigured: [new.reconfiguredItemIdentifiers, alsoReconfiguredItems],
      reloaded: [new.reloadedItemIdentifiers, alsoMarkedItems])
    if !reconfigures.isEmpty {
      _separateReconfigures(where: { reconfigures.contains($0) }, finalPath: { new.visibleIndexPath(ofItem: $0) })
    }
  }

  /// The items marked reconfigured and not reloaded: those a changeset reconfigures.
  @inlinable
  static func _reconfigureOnly(reconfigured: [Set<ItemID>], reloaded: [Set<ItemID>]) -> Set<ItemID> {
    var result = Set<ItemID>()
    for ids in reconfigured { result.formUnion(ids) }
    guard !result.isEmpty else { return result }
    for ids in reloaded { result.subtract(ids) }
    return result
  }

  /// True when two snapshot values are bit-for-bit the same (they share every storage
  /// reference, so they are the same value). False negatives only cost speed.
  @inlinable
  static func _sharesStorage<Section, Item>(_ a: ListSnapshot<Section, Item>, _ b: ListSnapshot<Section, Item>) -> Bool {
    withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
  }
}
