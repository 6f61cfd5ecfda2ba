import ListState

extension ListOperation {
  /// Performs the operation on a snapshot by calling the matching `ListSnapshot` method.
  ///
  /// - Returns: the transaction of ``moveVisibleRow(from:to:)``; nil for every other operation.
  /// - Throws: whatever the snapshot throws; the snapshot is then unchanged (its promise).
  @discardableResult
  public func apply(to snapshot: inout ListSnapshot<Section, Item>) throws(Failure) -> ListTransaction<Section, Item>? {
    switch self {
    case .appendSections(let s): try snapshot.appendSections(s)
    case .insertSectionsBefore(let s, let a): try snapshot.insertSections(s, beforeSection: a)
    case .insertSectionsAfter(let s, let a): try snapshot.insertSections(s, afterSection: a)
    case .insertSectionsAt(let s, let i): try snapshot.insertSections(s, at: i)
    case .deleteSections(let ids): try snapshot.deleteSections(ids)
    case .moveSectionBefore(let id, let a): try snapshot.moveSection(id, beforeSection: a)
    case .moveSectionAfter(let id, let a): try snapshot.moveSection(id, afterSection: a)
    case .moveSectionToIndex(let id, let i): try snapshot.moveSection(id, toIndex: i)
    case .reloadSections(let ids): try snapshot.reloadSections(ids)
    case .updateSection(let s): try snapshot.updateSection(s)
    case .replaceSection(let id, let s): try snapshot.replaceSection(id, with: s)
    case .appendItems(let items, let s): try snapshot.appendItems(items, toSection: s)
    case .appendItemsUnderParent(let items, let p): try snapshot.appendItems(items, underParent: p)
    case .insertItemsBefore(let items, let a): try snapshot.insertItems(items, beforeItem: a)
    case .insertItemsAfter(let items, let a): try snapshot.insertItems(items, afterItem: a)
    case .deleteItems(let ids): try snapshot.deleteItems(ids)
    case .deleteItemsIfPresent(let ids): snapshot.deleteItemsIfPresent(ids)
    case .deleteAllItems: snapshot.deleteAllItems()
    case .moveItemBefore(let id, let a): try snapshot.moveItem(id, beforeItem: a)
    case .moveItemAfter(let id, let a): try snapshot.moveItem(id, afterItem: a)
    case .moveItemToSection(let id, let s): try snapshot.moveItem(id, toSection: s)
    case .moveItemUnderParent(let id, let p): try snapshot.moveItem(id, underParent: p)
    case .moveItemToLocation(let id, let l): try snapshot.moveItem(id, to: l)
    case .reloadItems(let ids): try snapshot.reloadItems(ids)
    case .reconfigureItems(let ids): try snapshot.reconfigureItems(ids)
    case .updateItems(let items): try snapshot.updateItems(items)
    case .updateItem(let item): try snapshot.updateItem(item)
    case .replaceItem(let id, let item): try snapshot.replaceItem(id, with: item)
    case .expand(let ids): try snapshot.expand(ids)
    case .collapse(let ids): try snapshot.collapse(ids)
    case .replaceChildren(let p, let o): try snapshot.replace(childrenOf: p, using: o)
    case .insertOutlineBefore(let o, let a): try snapshot.insert(o, beforeItem: a)
    case .insertOutlineAfter(let o, let a): try snapshot.insert(o, afterItem: a)
    case .appendOutline(let o, let s): try snapshot.append(o, toSection: s)
    case .appendOutlineUnderParent(let o, let p): try snapshot.append(o, underParent: p)
    case .insertOutlineAt(let o, let l): try snapshot.insert(o, at: l)
    case .moveVisibleRow(let from, let to): return try snapshot.moveVisibleRow(from: from, to: to)
    case .clearMarkers: snapshot.clearMarkers()
    }
    return nil
  }

  /// Performs the operation on the reference model.
  ///
  /// - Throws: the first of ``expectedFailures(in:)``; the model is then unchanged.
  public func apply(to reference: inout ReferenceList<Section, Item>) throws(Failure) {
    switch self {
    case .appendSections(let s): try reference.appendSections(s)
    case .insertSectionsBefore(let s, let a): try reference.insertSections(s, beforeSection: a)
    case .insertSectionsAfter(let s, let a): try reference.insertSections(s, afterSection: a)
    case .insertSectionsAt(let s, let i): try reference.insertSections(s, at: i)
    case .deleteSections(let ids): try reference.deleteSections(ids)
    case .moveSectionBefore(let id, let a): try reference.moveSection(id, beforeSection: a)
    case .moveSectionAfter(let id, let a): try reference.moveSection(id, afterSection: a)
    case .moveSectionToIndex(let id, let i): try reference.moveSection(id, toIndex: i)
    case .reloadSections(let ids): try reference.reloadSections(ids)
    case .updateSection(let s): try reference.updateSection(s)
    case .replaceSection(let id, let s): try reference.replaceSection(id, with: s)
    case .appendItems(let items, let s): try reference.appendItems(items, toSection: s)
    case .appendItemsUnderParent(let items, let p): try reference.appendItems(items, underParent: p)
    case .insertItemsBefore(let items, let a): try reference.insertItems(items, beforeItem: a)
    case .insertItemsAfter(let items, let a): try reference.insertItems(items, afterItem: a)
    case .deleteItems(let ids): try reference.deleteItems(ids)
    case .deleteItemsIfPresent(let ids): reference.deleteItemsIfPresent(ids)
    case .deleteAllItems: reference.deleteAllItems()
    case .moveItemBefore(let id, let a): try reference.moveItem(id, beforeItem: a)
    case .moveItemAfter(let id, let a): try reference.moveItem(id, afterItem: a)
    case .moveItemToSection(let id, let s): try reference.moveItem(id, toSection: s)
    case .moveItemUnderParent(let id, let p): try reference.moveItem(id, underParent: p)
    case .moveItemToLocation(let id, let l): try reference.moveItem(id, to: l)
    case .reloadItems(let ids): try reference.reloadItems(ids)
    case .reconfigureItems(let ids): try reference.reconfigureItems(ids)
    case .updateItems(let items): try reference.updateItems(items)
    case .updateItem(let item): try reference.updateItem(item)
    case .replaceItem(let id, let item): try reference.replaceItem(id, with: item)
    case .expand(let ids): try reference.expand(ids)
    case .collapse(let ids): try reference.collapse(ids)
    case .replaceChildren(let p, let o): try reference.replace(childrenOf: p, using: o)
    case .insertOutlineBefore(let o, let a): try reference.insert(o, beforeItem: a)
    case .insertOutlineAfter(let o, let a): try reference.insert(o, afterItem: a)
    case .appendOutline(let o, let s): try reference.append(o, toSection: s)
    case .appendOutlineUnderParent(let o, let p): try reference.append(o, underParent: p)
    case .insertOutlineAt(let o, let l): try reference.insert(o, at: l)
    case .moveVisibleRow(let from, let to): try reference.moveVisibleRow(from: from, to: to)
    case .clearMarkers: reference.clearMarkers()
    }
  }

  /// Every error the operation may throw on a list in `reference`'s state; empty when it must
  /// succeed.
  ///
  /// When several checks fail, which one an implementation reports is not specified, so each
  /// failing check contributes one acceptable error (with all offending identifiers in
  /// argument order, deduplicated).
  public func expectedFailures(in reference: ReferenceList<Section, Item>) -> [Failure] {
    switch self {
    case .appendSections(let s): reference.appendSectionsProblems(s)
    case .insertSectionsBefore(let s, let a), .insertSectionsAfter(let s, let a): reference.insertSectionsProblems(s, anchor: a)
    case .insertSectionsAt(let s, let i): reference.insertSectionsAtProblems(s, index: i)
    case .deleteSections(let ids), .reloadSections(let ids): reference.existingSectionsProblems(ids)
    case .moveSectionBefore(let id, let a), .moveSectionAfter(let id, let a): reference.moveSectionProblems(id, anchor: a)
    case .moveSectionToIndex(let id, let i): reference.moveSectionToIndexProblems(id, index: i)
    case .updateSection(let s): reference.updateSectionProblems(s)
    case .replaceSection(let id, let s): reference.replaceSectionProblems(id, with: s)
    case .appendItems(let items, let s): reference.appendProblems(items.map { $0.id }, toSection: s)
    case .appendItemsUnderParent(let items, let p): reference.appendUnderParentProblems(items.map { $0.id }, parent: p)
    case .insertItemsBefore(let items, let a), .insertItemsAfter(let items, let a):
      reference.insertRelativeProblems(items.map { $0.id }, anchor: a)
    case .deleteItems(let ids), .reloadItems(let ids), .reconfigureItems(let ids), .expand(let ids), .collapse(let ids):
      reference.existingItemsProblems(ids)
    case .deleteItemsIfPresent, .deleteAllItems, .clearMarkers: []
    case .moveItemBefore(let id, let a), .moveItemAfter(let id, let a), .moveItemUnderParent(let id, let a):
      reference.relativeMoveProblems(id, a)
    case .moveItemToSection(let id, let s): reference.moveToSectionProblems(id, section: s)
    case .moveItemToLocation(let id, let l): reference.moveToLocationProblems(id, location: l)
    case .updateItems(let items): reference.existingItemsProblems(items.map { $0.id })
    case .updateItem(let item): reference.existingItemsProblems([item.id])
    case .replaceItem(let id, let item): reference.replaceItemProblems(id, with: item)
    case .replaceChildren(let p, let o): reference.replaceChildrenProblems(of: p, using: o)
    case .insertOutlineBefore(let o, let a), .insertOutlineAfter(let o, let a):
      reference.insertRelativeProblems(o.itemIdentifiers, anchor: a)
    case .appendOutline(let o, let s): reference.appendProblems(o.itemIdentifiers, toSection: s)
    case .appendOutlineUnderParent(let o, let p): reference.appendUnderParentProblems(o.itemIdentifiers, parent: p)
    case .insertOutlineAt(let o, let l): reference.insertAtLocationProblems(o, location: l)
    case .moveVisibleRow(let from, let to): reference.moveVisibleRowProblems(from: from, to: to)
    }
  }
}
