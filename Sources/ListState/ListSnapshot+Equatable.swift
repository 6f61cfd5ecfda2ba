/// Two snapshots are equal when they have the same sections in the same order with equal values,
/// and each section holds the same forest: the same items (equal values) in the same order and
/// nesting, with the same expansion flags.
///
/// Reload/reconfigure markers are **not** compared: they describe how a snapshot was reached
/// (what a UI should refresh), not the list's state. Order labels are internal and not compared.
///
/// - Complexity: O(n).
extension ListSnapshot: Equatable {
  @inlinable
  public static func == (lhs: ListSnapshot, rhs: ListSnapshot) -> Bool {
    guard lhs._sectionOrder.count == rhs._sectionOrder.count, lhs._itemRecords.count == rhs._itemRecords.count,
      lhs._sectionOrder.w1 == rhs._sectionOrder.w1, lhs._sectionOrder.w2 == rhs._sectionOrder.w2
    else { return false }
    let left = lhs._sectionOrder.entries
    let right = rhs._sectionOrder.entries
    for (a, b) in zip(left, right) {
      guard a.id == b.id, a.w1 == b.w1, a.w2 == b.w2 else { return false }
      let leftRecord = lhs._sectionRecords[a.id]!
      let rightRecord = rhs._sectionRecords[b.id]!
      guard leftRecord.value == rightRecord.value,
        _forestsEqual(leftRecord.roots, lhs, rightRecord.roots, rhs)
      else { return false }
    }
    return true
  }

  @inlinable
  static func _forestsEqual(_ a: ItemTree, _ lhs: ListSnapshot, _ b: ItemTree, _ rhs: ListSnapshot) -> Bool {
    guard a.count == b.count, a.w1 == b.w1, a.w2 == b.w2 else { return false }
    let left = a.entries
    let right = b.entries
    for (x, y) in zip(left, right) {
      guard x.id == y.id, x.w1 == y.w1, x.w2 == y.w2 else { return false }
      let leftRecord = lhs._itemRecords[x.id]!
      let rightRecord = rhs._itemRecords[y.id]!
      guard leftRecord.isExpanded == rightRecord.isExpanded, leftRecord.value == rightRecord.value else { return false }
      if x.w1 > 1, !_forestsEqual(leftRecord.children, lhs, rightRecord.children, rhs) { return false }
    }
    return true
  }
}

extension ListSnapshot {
  /// True when both values share all their storage — one is an unmodified copy of the other —
  /// which implies `==` (and equal markers). A false result says nothing: equal snapshots built
  /// separately are not identical.
  ///
  /// ```swift
  /// let copy = snapshot
  /// copy.isIdentical(to: snapshot)   // true, in O(1)
  /// ```
  /// - Complexity: O(1).
  @inlinable
  public func isIdentical(to other: ListSnapshot) -> Bool {
    // Every stored property is a reference or a trivial value, so equal bytes mean shared nodes.
    withUnsafeBytes(of: self) { lhs in withUnsafeBytes(of: other) { rhs in lhs.elementsEqual(rhs) } }
  }
}
