/// The reload/reconfigure markers of a snapshot as one value, for producers that take a
/// snapshot's storage apart and put it back (``ListSnapshot/_markers``).
package struct _ListMarkers<Section: ListElement, Item: ListElement>: Sendable {
  var reloadedItems: _HashSet<Item.ID>
  var reconfiguredItems: _HashSet<Item.ID>
  var reloadedSections: _HashSet<Section.ID>
}

extension ListSnapshot {
  /// The reload/reconfigure markers; setting them replaces all three sets.
  ///
  /// ```swift
  /// let markers = snapshot._markers
  /// snapshot.clearMarkers()
  /// snapshot._markers = markers   // as before
  /// ```
  /// - Complexity: O(1).
  package var _markers: _ListMarkers<Section, Item> {
    get {
      _ListMarkers(
        reloadedItems: _reloadedItems, reconfiguredItems: _reconfiguredItems, reloadedSections: _reloadedSections)
    }
    set {
      _reloadedItems = newValue.reloadedItems
      _reconfiguredItems = newValue.reconfiguredItems
      _reloadedSections = newValue.reloadedSections
    }
  }
}
