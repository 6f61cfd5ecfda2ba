import ListHistory
import ListState

extension ListStore.Transaction {
  /// Turns the transaction's snapshot into `target` with the minimal operations of
  /// ``ListSnapshot/operations(toReach:expansion:)``, so the version records only those events.
  ///
  /// ```swift
  /// try store.transaction(label: "Refresh") { tx in try tx.apply(rebuilt) }
  /// ```
  ///
  /// - Complexity: O(n) checks plus O(log n) per operation.
  @inlinable
  public mutating func apply(_ target: ListSnapshot<Section, Item>, expansion: ListExpansionPolicy = .keepCurrent)
    throws(Failure)
  {
    for operation in try snapshot.operations(toReach: target, expansion: expansion) {
      try operation.apply(to: &self)
    }
  }
}

extension ListSnapshotOperation {
  /// Performs the operation in a store transaction (recording its events).
  ///
  /// - Complexity: O(k log n) for k identifiers.
  @inlinable
  public func apply(to transaction: inout ListStore<Section, Item>.Transaction) throws(ListError<Section.ID, Item.ID>) {
    switch self {
    case .insertSection(let section, let index): try transaction.insertSections([section], at: index)
    case .moveSection(let id, let index): try transaction.moveSection(id, toIndex: index)
    case .updateSection(let section): try transaction.updateSection(section)
    case .deleteSections(let ids): try transaction.deleteSections(ids)
    case .insertItems(let outline, let location): try transaction.insert(outline, at: location)
    case .moveItem(let id, let location): try transaction.moveItem(id, to: location)
    case .updateItems(let items): try transaction.updateItems(items)
    case .deleteItems(let ids): try transaction.deleteItems(ids)
    case .expand(let ids): try transaction.expand(ids)
    case .collapse(let ids): try transaction.collapse(ids)
    case .reloadItems(let ids): try transaction.reloadItems(ids)
    case .reconfigureItems(let ids): try transaction.reconfigureItems(ids)
    case .reloadSections(let ids): try transaction.reloadSections(ids)
    }
  }
}

extension ListStore {
  /// Applies a whole new snapshot (rebuilt from the model, as UIKit users do) as one version that
  /// records only the minimal events; surviving items keep their expansion state by default.
  ///
  /// ```swift
  /// try store.apply(rebuilt, label: "Sync")
  /// ```
  ///
  /// - Returns: the operations performed (empty: nothing changed, no version was created).
  @discardableResult
  @inlinable
  public func apply(
    _ target: ListSnapshot<Section, Item>, expansion: ListExpansionPolicy = .keepCurrent, label: String? = nil
  ) throws -> [ListSnapshotOperation<Section, Item>] {
    try transaction(label: label) { transaction in
      let operations = try transaction.snapshot.operations(toReach: target, expansion: expansion)
      for operation in operations { try operation.apply(to: &transaction) }
      return operations
    }
  }
}
