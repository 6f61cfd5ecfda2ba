/// What one change did to a list, in the shape of `NSDiffableDataSourceTransaction`:
/// the snapshot before and after, and the differences between them.
///
/// Differences are computed on access (never eagerly per change), unless the producer already
/// knows them (for example from events) and passes them in.
public struct ListTransaction<Section: ListElement, Item: ListElement>: Sendable {
  /// The snapshot type of both sides.
  public typealias Snapshot = ListSnapshot<Section, Item>

  /// The list before the change.
  public let initialSnapshot: Snapshot
  /// The list after the change.
  public let finalSnapshot: Snapshot
  @usableFromInline let knownDifference: CollectionDifference<Item.ID>?
  /// A cheaper way to the difference than diffing the snapshots (for example from the events of
  /// the change), tried on access; nil from it means "diff the snapshots".
  @usableFromInline let differenceDeriver: (@Sendable () -> CollectionDifference<Item.ID>?)?

  /// A transaction between two snapshots; pass `difference` only when it is already known (it
  /// must then be the difference over `itemIdentifiers`), otherwise it is computed on access.
  @inlinable
  public init(initialSnapshot: Snapshot, finalSnapshot: Snapshot, difference: CollectionDifference<Item.ID>? = nil) {
    self.initialSnapshot = initialSnapshot
    self.finalSnapshot = finalSnapshot
    self.knownDifference = difference
    self.differenceDeriver = nil
  }

  /// A transaction whose difference is derived on access by `deriveDifference` (falling back to
  /// diffing the snapshots when it returns nil), so producers that commit often pay nothing for
  /// differences nobody reads.
  @inlinable
  package init(
    initialSnapshot: Snapshot, finalSnapshot: Snapshot,
    derivingDifference deriveDifference: @escaping @Sendable () -> CollectionDifference<Item.ID>?
  ) {
    self.initialSnapshot = initialSnapshot
    self.finalSnapshot = finalSnapshot
    self.knownDifference = nil
    self.differenceDeriver = deriveDifference
  }

  /// The difference over all item identifiers in list order (`itemIdentifiers`).
  ///
  /// - Complexity: O(1) when supplied by the producer; O(k log n) when the producer can derive
  ///   it from k changes; otherwise O((n + m) · d) on access.
  @inlinable
  public var difference: CollectionDifference<Item.ID> {
    if let knownDifference { return knownDifference }
    if let derived = differenceDeriver?() { return derived }
    return finalSnapshot.itemIdentifiers.difference(from: initialSnapshot.itemIdentifiers).inferringMoves()
  }

  /// One transaction per section present after the change, each with the difference over that
  /// section's items (pre-order).
  ///
  /// - Complexity: O(total items) on access.
  @inlinable
  public var sectionTransactions: [ListSectionTransaction<Section, Item>] {
    finalSnapshot.sectionIdentifiers.map { sectionID in
      ListSectionTransaction(
        sectionIdentifier: sectionID,
        initialItems: initialSnapshot.itemIdentifiersIfPresent(inSection: sectionID) ?? [],
        finalItems: finalSnapshot.itemIdentifiersIfPresent(inSection: sectionID) ?? [])
    }
  }
}

/// The part of a ``ListTransaction`` that concerns one section.
public struct ListSectionTransaction<Section: ListElement, Item: ListElement>: Sendable {
  /// The section this part concerns.
  public let sectionIdentifier: Section.ID
  /// The section's item identifiers before the change (pre-order), empty if it was not there.
  public let initialItems: [Item.ID]
  /// The section's item identifiers after the change (pre-order).
  public let finalItems: [Item.ID]

  @inlinable
  init(sectionIdentifier: Section.ID, initialItems: [Item.ID], finalItems: [Item.ID]) {
    self.sectionIdentifier = sectionIdentifier
    self.initialItems = initialItems
    self.finalItems = finalItems
  }

  /// The difference from `initialItems` to `finalItems`.
  @inlinable
  public var difference: CollectionDifference<Item.ID> {
    finalItems.difference(from: initialItems).inferringMoves()
  }
}
