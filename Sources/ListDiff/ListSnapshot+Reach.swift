import ListState

extension ListSnapshot {
  /// The positional operations that turn this snapshot into `target`, as few as the structure
  /// allows: sections and siblings keep a longest increasing subsequence of their order in place
  /// and only the others move; surviving items are moved (with their subtrees), never deleted
  /// and re-inserted; only changed contents are updated.
  ///
  /// This is how a whole rebuilt snapshot is applied (UIKit's `apply(_:)`) while recording only
  /// minimal events. With `.keepCurrent` (the default), items present in both keep their current
  /// expansion state — a rebuilt snapshot usually knows nothing about what the user opened.
  ///
  /// ```swift
  /// let operations = try current.operations(toReach: rebuilt)
  /// // [.moveItem("Pear", to: …), .insertItems(ListOutline(items: ["Fig"]), at: …)]
  /// ```
  ///
  /// - Throws: only if a snapshot breaks its own invariants (a bug), never for valid snapshots.
  /// - Complexity: O(n) checks plus O(log n) per operation, for n items.
  @inlinable
  public func operations(toReach target: ListSnapshot, expansion: ListExpansionPolicy = .keepCurrent)
    throws(Failure) -> [ListSnapshotOperation<Section, Item>]
  {
    var working = self
    return try working.apply(target, expansion: expansion)
  }

  /// Turns this snapshot into `target` (with the expansion policy's say on surviving items)
  /// through the operations of ``operations(toReach:expansion:)``, and returns them.
  ///
  /// ```swift
  /// try snapshot.apply(rebuilt)   // open folders stay open
  /// ```
  ///
  /// - Complexity: O(n) checks plus O(log n) per operation.
  @discardableResult
  @inlinable
  public mutating func apply(_ target: ListSnapshot, expansion: ListExpansionPolicy = .keepCurrent)
    throws(Failure) -> [ListSnapshotOperation<Section, Item>]
  {
    var reacher = _SnapshotReacher(working: self)
    try reacher.reach(target, expansion: expansion)
    self = reacher.working
    return reacher.operations
  }
}
