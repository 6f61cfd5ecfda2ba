import ListHistory
import ListState

extension ListOperation {
  /// Performs the operation inside a store transaction by calling the matching
  /// `ListStore.Transaction` method (the transaction has the same mutating API as `ListSnapshot`:
  /// same names, arguments and errors), so one generated sequence drives a snapshot, the
  /// reference model and a ``ListStore`` alike.
  ///
  /// ```swift
  /// try store.transaction { tx in
  ///     for operation in operations { try operation.apply(to: &tx) }
  /// }
  /// ```
  ///
  /// `clearMarkers` has no transaction counterpart — every transaction starts from the head
  /// with its markers already cleared — so it must not be applied here (a precondition
  /// failure); leave it out of the generator's ``ListOperationGenerator/weights`` for store runs.
  ///
  /// - Returns: the transaction of ``moveVisibleRow(from:to:)``; nil for every other operation.
  /// - Throws: whatever the transaction throws; the caller's `store.transaction` then commits nothing.
  /// - Complexity: that of the transaction's operation.
  @discardableResult
  public func apply(to transaction: inout ListStore<Section, Item>.Transaction) throws(Failure)
    -> ListTransaction<Section, Item>?
  {
    switch self {
    case .appendSections(let s): try transaction.appendSections(s)
    case .insertSectionsBefore(let s, let a): try transaction.insertSections(s, beforeSection: a)
    case .insertSectionsAfter(let s, let a): try transaction.insertSections(s, afterSection: a)
    case .insertSectionsAt(let s, let i): try transaction.insertSections(s, at: i)
    case .deleteSections(let ids): try transaction.deleteSections(ids)
    case .moveSectionBefore(let id, let a): try transaction.moveSection(id, beforeSection: a)
    case .moveSectionAfter(let id, let a): try transaction.moveSection(id, afterSection: a)
    case .moveSectionToIndex(let id, let i): try transaction.moveSection(id, toIndex: i)
    case .reloadSections(let ids): try transaction.reloadSections(ids)
    case .updateSection(let s): try transaction.updateSection(s)
    case .replaceSection(let id, let s): try transaction.replaceSection(id, with: s)
    case .appendItems(let items, let s): try transaction.appendItems(items, toSection: s)
    case .appendItemsUnderParent(let items, let p): try transaction.appendItems(items, underParent: p)
    case .insertItemsBefore(let items, let a): try transaction.insertItems(items, beforeItem: a)
    case .insertItemsAfter(let items, let a): try transaction.insertItems(items, afterItem: a)
    case .deleteItems(let ids): try transaction.deleteItems(ids)
    case .deleteItemsIfPresent(let ids): transaction.deleteItemsIfPresent(ids)
    case .deleteAllItems: transaction.deleteAllItems()
    case .moveItemBefore(let id, let a): try transaction.moveItem(id, beforeItem: a)
    case .moveItemAfter(let id, let a): try transaction.moveItem(id, afterItem: a)
    case .moveItemToSection(let id, let s): try transaction.moveItem(id, toSection: s)
    case .moveItemUnderParent(let id, let p): try transaction.moveItem(id, underParent: p)
    case .moveItemToLocation(let id, let l): try transaction.moveItem(id, to: l)
    case .reloadItems(let ids): try transaction.reloadItems(ids)
    case .reconfigureItems(let ids): try transaction.reconfigureItems(ids)
    case .updateItems(let items): try transaction.updateItems(items)
    case .updateItem(let item): try transaction.updateItem(item)
    case .replaceItem(let id, let item): try transaction.replaceItem(id, with: item)
    case .expand(let ids): try transaction.expand(ids)
    case .collapse(let ids): try transaction.collapse(ids)
    case .replaceChildren(let p, let o): try transaction.replace(childrenOf: p, using: o)
    case .insertOutlineBefore(let o, let a): try transaction.insert(o, beforeItem: a)
    case .insertOutlineAfter(let o, let a): try transaction.insert(o, afterItem: a)
    case .appendOutline(let o, let s): try transaction.append(o, toSection: s)
    case .appendOutlineUnderParent(let o, let p): try transaction.append(o, underParent: p)
    case .insertOutlineAt(let o, let l): try transaction.insert(o, at: l)
    case .moveVisibleRow(let from, let to): return try transaction.moveVisibleRow(from: from, to: to)
    case .clearMarkers:
      preconditionFailure("clearMarkers has no ListStore.Transaction counterpart; leave it out of store runs")
    }
    return nil
  }
}
