extension ListSnapshot {
  /// Calls `body` with every item present in both snapshots whose value or expansion differs:
  /// this snapshot's value and expansion, then `other`'s. In no particular order.
  ///
  /// For diffs (ListDiff): one pass over both snapshots' item records in storage order instead
  /// of two lookups per item, and records both snapshots still share (a snapshot and an edited
  /// copy of it) are skipped unread. Where an item sits is not compared.
  ///
  /// ```swift
  /// var edited = snapshot
  /// try edited.updateItem(Row(id: 2, title: "new"))
  /// snapshot._forEachChangedItem(comparedTo: edited) { old, _, new, _ in print(old, new) }
  /// // Row(id: 2, title: "old") Row(id: 2, title: "new")
  /// ```
  ///
  /// - Complexity: O(n + m) for snapshots of n and m items, sequential and without hashing;
  ///   O(n / 64 + k) when all but k items sit in storage the two snapshots share.
  @inlinable
  package func _forEachChangedItem(
    comparedTo other: ListSnapshot,
    _ body: (_ old: Item, _ oldIsExpanded: Bool, _ new: Item, _ newIsExpanded: Bool) throws -> Void
  ) rethrows {
    try _itemRecords.forEachCommonKey(with: other._itemRecords) { old, new in
      if old.isExpanded != new.isExpanded || old.value != new.value {
        try body(old.value, old.isExpanded, new.value, new.isExpanded)
      }
    }
  }
}
