/// The reload/reconfigure markers of a snapshot as one value, for producers that take a
/// snapshot's storage apart and put it back (``ListSnapshot/_markers``).
@usableFromInline
package struct _ListMarkers<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var reloadedItems: _HashSet<Item.ID>
  @usableFromInline var reconfiguredItems: _HashSet<Item.ID>
  @usableFromInline var reloadedSections: _HashSet<Section.ID>

  @inlinable
  init(reloadedItems: _HashSet<Item.ID>, reconfiguredItems: _HashSet<Item.ID>, reloadedSections: _HashSet<Section.ID>) {
    self.reloadedItems = reloadedItems
    self.reconfiguredItems = reconfiguredItems
    self.reloadedSections = reloadedSections
  }
}

extension ListSnapshot {
  /// The reload/reconfigure markers; setting them replaces all three sets.
  ///
  /// ```swift
  /// let markers = snapshot._markers
  /// snapshot.clearMarkers()
  /// snapshot._markers = markers   // as before
  /// ```
  /// - Complexity: O(1) to get; O(m log n) to set, for m reloaded items.
  @inlinable
  package var _markers: _ListMarkers<Section, Item> {
    get {
      _ListMarkers(
        reloadedItems: _reloadedItems, reconfiguredItems: _reconfiguredItems, reloadedSections: _reloadedSections)
    }
    set {
      // A new epoch (stamps from before are stale), then the new set's items are stamped:
      // O(m log n) for m marked items.
      _markerEpoch = Self._nextMarkerEpoch(after: _markerEpoch)
      _reloadedItems = _HashSet()
      let epoch = _markerEpoch
      for id in newValue.reloadedItems {
        let hash = Self._hash(id)
        if _itemRecords.modifyIfPresent(id, hash: hash, { Self._stamp(&$0, epoch) }) != nil {
          _reloadedItems.insert(id, hash: hash)
        }
      }
      _reconfiguredItems = newValue.reconfiguredItems
      _reloadedSections = newValue.reloadedSections
    }
  }
}
