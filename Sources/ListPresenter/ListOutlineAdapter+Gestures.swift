import ListHistory
import ListState

extension ListOutlineAdapter {
  /// The view expanded a node itself (`outlineViewItemDidExpand`, a disclosure click): records
  /// it as one version labelled ``ListGestureLabels/expand``. Expansions the adapter makes, and
  /// sections', record nothing. Should the store refuse, the view is collapsed again and
  /// ``onError`` told.
  public func viewDidExpand(_ node: Node) { viewDidToggle(node, expanded: true) }

  /// The view collapsed a node itself (`outlineViewItemDidCollapse`): one version labelled
  /// ``ListGestureLabels/collapse``; see ``viewDidExpand(_:)``.
  public func viewDidCollapse(_ node: Node) { viewDidToggle(node, expanded: false) }

  func viewDidToggle(_ node: Node, expanded: Bool) {
    guard !isApplying, case .item(let id) = node, presenter.snapshot.contains(item: id),
      presenter.snapshot.isExpanded(id) != expanded
    else { return }
    do {
      try presenter.setExpanded(expanded, forItem: id)
    } catch {
      isApplying = true
      target?.apply(expanded ? .collapse(node) : .expand(node))
      isApplying = false
      onError?(error)
    }
  }

  /// Where a drop at child index `index` of `parent` (nil: the top) puts an item — as an outline
  /// view proposes drops, `index` counts the parent's children with the dragged item still
  /// among them; -1 (a drop on the parent) means after its last child.
  ///
  /// ```swift
  /// try adapter.moveDestination(of: "Pear", toParent: .item("Apple"), childIndex: -1)   // Apple's last child
  /// ```
  /// - Throws: ``ListError/itemsNotFound(_:)`` or ``ListError/sectionsNotFound(_:)`` for an
  ///   absent item or parent, ``ListError/itemUnderOwnDescendant(item:destination:)`` for a drop
  ///   inside the item's own subtree, ``ListError/indexOutOfRange(index:count:)`` for an index
  ///   outside the parent's children or a drop at the top of an outline whose top holds sections.
  /// - Complexity: O(depth · log n + children).
  public func moveDestination(of id: Item.ID, toParent parent: Node?, childIndex index: Int)
    throws(ListError<Section.ID, Item.ID>) -> ListItemLocation<Section.ID, Item.ID>
  {
    let snapshot = presenter.snapshot
    guard snapshot.contains(item: id) else { throw .itemsNotFound([id]) }
    let siblings = children(of: parent)
    guard index == -1 || (0...siblings.count).contains(index), parent != nil || !showsSections else {
      throw .indexOutOfRange(index: index, count: parent == nil && showsSections ? 0 : siblings.count + 1)
    }
    var position = index == -1 ? siblings.count : index
    if let current = siblings.firstIndex(of: .item(id)), current < position { position -= 1 }
    switch parent {
    case .item(let parentID)?:
      guard snapshot.contains(item: parentID) else { throw .itemsNotFound([parentID]) }
      var ancestor: Item.ID? = parentID
      while let candidate = ancestor {
        if candidate == id { throw .itemUnderOwnDescendant(item: id, destination: parentID) }
        ancestor = snapshot.parent(of: candidate)
      }
      return ListItemLocation(.parent(parentID), index: position)
    case .section(let section)?:
      guard snapshot.contains(section: section) else { throw .sectionsNotFound([section]) }
      return ListItemLocation(.section(section), index: position)
    case nil:
      // The top lists every section's roots in turn (without the dragged item): find the section.
      let sections = snapshot.sectionIdentifiers
      var start = 0
      for (offset, section) in sections.enumerated() {
        let roots = snapshot.rootItems(inSection: section)
        let count = roots.count - (roots.contains(id) ? 1 : 0)
        if position < start + count || offset == sections.count - 1 {
          return ListItemLocation(.section(section), index: position - start)
        }
        start += count
      }
      throw .noSections
    }
  }

  /// A drop (`acceptDrop`): moves the item, with its subtree, to child index `index` of
  /// `parent` (see ``moveDestination(of:toParent:childIndex:)``) as one version labelled
  /// ``ListGestureLabels/move``; the view animates it.
  ///
  /// ```swift
  /// try adapter.moveItem("Pear", toParent: .section("Fruit"), childIndex: 0)
  /// ```
  /// - Throws: what ``moveDestination(of:toParent:childIndex:)`` throws (nothing changes); the
  ///   store's errors.
  public func moveItem(_ id: Item.ID, toParent parent: Node?, childIndex index: Int) throws {
    let location = try moveDestination(of: id, toParent: parent, childIndex: index)
    presenter.applyPendingUpdates()
    try presenter.store.transaction(label: presenter.labels.move) { try $0.moveItem(id, to: location) }
    presenter.applyPendingUpdates()
  }

  /// A delete (the delete key, a menu item) of items with their subtrees, as one version.
  ///
  /// - Throws: ``ListError/itemsNotFound(_:)`` for items not in the list; the store's errors.
  public func deleteItems(_ ids: [Item.ID]) throws {
    let missing = ids.filter { !presenter.snapshot.contains(item: $0) }
    guard missing.isEmpty else { throw ListError<Section.ID, Item.ID>.itemsNotFound(missing) }
    let paths = ids.compactMap(presenter.indexPath(for:))
    if paths.count == ids.count {
      try presenter.deleteRows(at: paths)
    } else {
      presenter.applyPendingUpdates()
      try _Gestures.delete(ids, in: presenter.store, labels: presenter.labels)
      presenter.applyPendingUpdates()
    }
  }
}
