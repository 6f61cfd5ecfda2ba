import ListHistory
import ListState

extension ListChangeset {
  /// The event-derived diff: the changeset from `old` to `new` computed from the `events` that
  /// lead from one to the other (for example ``ListStore/events(from:to:)``), in time
  /// proportional to the rows the events touch — not to the list size. Inserts later deleted
  /// cancel, as do moves that return.
  ///
  /// Falls back to the full diff ``init(from:to:)`` when the events
  /// change sections or touch a large part of the list. Either way, applying the changeset to
  /// the rows of `old` gives exactly the rows of `new`. Reloads: rows and sections whose content
  /// differs at the end, plus those the events mark reloaded; reconfigures: rows the events mark
  /// reconfigured and not reloaded.
  ///
  /// ```swift
  /// let events = try store.events(from: shownVersion, to: store.head)
  /// let changeset = ListChangeset(from: shown, to: store.snapshot, events: events)
  /// ```
  ///
  /// - Complexity: O(r · depth · log n) for r touched rows; the full diff's when it falls back.
  @inlinable
  public init<Section: ListElement, Item: ListElement>(
    from old: ListSnapshot<Section, Item>, to new: ListSnapshot<Section, Item>, events: [ListEvent<Section, Item>]
  ) where Section.ID == SectionID, Item.ID == ItemID {
    let markers = _EventDiffer<Section, Item>.markers(in: events)
    if let derived = _EventDiffer<Section, Item>.changeset(from: old, to: new, events: events) {
      self = derived
      let reconfigures = Self._reconfigureOnly(reconfigured: [markers.reconfiguredItems], reloaded: [markers.items])
      if !reconfigures.isEmpty {
        _separateReconfigures(where: { reconfigures.contains($0) }, finalPath: { new.visibleIndexPath(ofItem: $0) })
      }
    } else {
      self.init(
        from: old, to: new, alsoMarkedSections: markers.sections, alsoMarkedItems: markers.items,
        alsoReconfiguredItems: markers.reconfiguredItems)
    }
  }
}

extension ListStore {
  /// The changeset between the states at two versions (on any branches), derived from the events
  /// between them when that is cheaper than a full diff.
  ///
  /// ```swift
  /// let changeset = try store.changeset(from: shownVersion, to: store.head)
  /// tableView.apply(changeset) { rows in … }
  /// ```
  ///
  /// - Throws: ``HistoryError/unknownVersion(_:)`` for a version not in the history.
  /// - Complexity: the cost of ``state(at:)`` for both versions plus the event-derived diff.
  public func changeset(from: Version, to: Version) throws(HistoryError) -> ListChangeset<Section.ID, Item.ID> {
    let events = try self.events(from: from, to: to)
    return ListChangeset(from: try state(at: from), to: try state(at: to), events: events)
  }
}
