import ListHistory
import ListState

/// The store operations behind gestures, shared by the presenter (index paths) and the SwiftUI
/// model (offsets): both resolve the rows to identifiers first, then record by identifier, so a
/// gesture means the same thing whichever way it arrives.
enum _Gestures<Section: ListElement, Item: ListElement> {
  typealias Store = ListStore<Section, Item>
  typealias Snapshot = ListSnapshot<Section, Item>

  /// Expands or collapses one item as one version.
  static func setExpanded(_ expanded: Bool, item id: Item.ID, in store: Store, labels: ListGestureLabels) throws {
    try store.transaction(label: expanded ? labels.expand : labels.collapse) { transaction in
      if expanded { try transaction.expand([id]) } else { try transaction.collapse([id]) }
    }
  }

  /// Deletes items with their subtrees as one version; an item inside another one's subtree goes
  /// with it.
  static func delete(_ ids: [Item.ID], in store: Store, labels: ListGestureLabels) throws {
    guard !ids.isEmpty else { return }
    try store.transaction(label: labels.delete) { transaction in
      let doomed = Set(ids)
      let roots = ids.filter { !hasAncestor(of: $0, in: doomed, snapshot: transaction.snapshot) }
      try transaction.deleteItems(Array(Set(roots)))
    }
  }

  /// Moves `moved` (visible rows, in display order) as one version so that they end, in that
  /// order, just before the first of `followers` (the rows that come after the drop point, in
  /// display order) that is neither moved nor inside a moved subtree — as its siblings — or, when
  /// there is none, as the last root items of `section`. A moved row inside another moved row's
  /// subtree travels with it.
  ///
  /// - Parameter followers: called with 0, 1, … until it returns nil or a usable anchor.
  static func move(
    _ moved: [Item.ID], before followers: (Int) -> Item.ID?, inSection section: Section.ID, in store: Store,
    labels: ListGestureLabels
  ) throws {
    guard !moved.isEmpty else { return }
    try store.transaction(label: labels.move) { transaction in
      let movedSet = Set(moved)
      let snapshot = transaction.snapshot
      var roots: [Item.ID] = []
      for id in moved where !hasAncestor(of: id, in: movedSet, snapshot: snapshot) && !roots.contains(id) {
        roots.append(id)
      }
      var anchor: Item.ID?
      var index = 0
      while let candidate = followers(index) {
        index += 1
        if !movedSet.contains(candidate) && !hasAncestor(of: candidate, in: movedSet, snapshot: snapshot) {
          anchor = candidate
          break
        }
      }
      for id in roots {
        if let anchor {
          try transaction.moveItem(id, beforeItem: anchor)
        } else {
          try transaction.moveItem(id, toSection: section)
        }
      }
    }
  }

  /// Whether an ancestor of `id` is in `set`.
  ///
  /// - Complexity: O(depth · log n).
  static func hasAncestor(of id: Item.ID, in set: Set<Item.ID>, snapshot: Snapshot) -> Bool {
    var current = snapshot.parent(of: id)
    while let parent = current {
      if set.contains(parent) { return true }
      current = snapshot.parent(of: parent)
    }
    return false
  }
}
