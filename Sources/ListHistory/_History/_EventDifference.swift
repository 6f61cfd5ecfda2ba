import ListState

/// Differences that the events give for free, so observers get them without an O(n) diff.
@usableFromInline
enum _EventDifference {
  /// Largest subtree whose move or insert is turned into an explicit difference.
  @inlinable
  static var maximumDerivedItems: Int { 4_096 }

  @inlinable
  static func transaction<Section, Item>(
    from initial: ListSnapshot<Section, Item>, to final: ListSnapshot<Section, Item>, events: [ListEvent<Section, Item>]?
  ) -> ListTransaction<Section, Item> {
    // Derived on access: most commits are never observed (or their difference never read).
    guard let events else { return ListTransaction(initialSnapshot: initial, finalSnapshot: final) }
    return ListTransaction(initialSnapshot: initial, finalSnapshot: final) { derive(from: initial, to: final, events: events) }
  }

  /// The difference over `itemIdentifiers` when it follows from the events in O(k log n):
  /// identity-neutral events (content, expansion, markers) give an empty difference; a single
  /// insert, delete or move gives its block of offsets. Nil otherwise (computed lazily).
  @inlinable
  static func derive<Section, Item>(
    from initial: ListSnapshot<Section, Item>, to final: ListSnapshot<Section, Item>, events: [ListEvent<Section, Item>]
  ) -> CollectionDifference<Item.ID>? {
    if events.allSatisfy({ $0.isIdentityNeutral || isEmptySectionChange($0) }) {
      return CollectionDifference<Item.ID>([])
    }
    guard events.count == 1, let event = events.first else { return nil }
    switch event {
    case .insertItems(let outline, _):
      guard let first = outline.roots.first?.item.id, outline.count <= maximumDerivedItems,
        let start = final.index(ofItem: first)
      else { return nil }
      return CollectionDifference(
        outline.itemIdentifiers.enumerated().map { .insert(offset: start + $0.offset, element: $0.element, associatedWith: nil) })
    case .deleteItems(let outline, _):
      guard let first = outline.roots.first?.item.id, outline.count <= maximumDerivedItems,
        let start = initial.index(ofItem: first)
      else { return nil }
      return CollectionDifference(
        outline.itemIdentifiers.enumerated().map { .remove(offset: start + $0.offset, element: $0.element, associatedWith: nil) })
    case .moveItem(let id, _, _):
      guard let old = initial.index(ofItem: id), let new = final.index(ofItem: id) else { return nil }
      if old == new { return CollectionDifference<Item.ID>([]) }
      let ids = final.children(of: id).isEmpty ? [id] : (final.outline(of: id, includingParent: true)?.itemIdentifiers ?? [id])
      guard ids.count <= maximumDerivedItems else { return nil }
      var changes: [CollectionDifference<Item.ID>.Change] = []
      for (offset, element) in ids.enumerated() {
        changes.append(.remove(offset: old + offset, element: element, associatedWith: new + offset))
        changes.append(.insert(offset: new + offset, element: element, associatedWith: old + offset))
      }
      return CollectionDifference(changes)
    default:
      return nil
    }
  }

  @inlinable
  static func isEmptySectionChange<Section, Item>(_ event: ListEvent<Section, Item>) -> Bool {
    switch event {
    case .insertSection(_, let items, _), .deleteSection(_, let items, _): items.roots.isEmpty
    case .moveSection: false
    case .replaceSection, .updateSection, .reloadSections: true
    default: false
    }
  }
}
