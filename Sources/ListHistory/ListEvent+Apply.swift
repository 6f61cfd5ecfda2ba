import ListState

extension ListEvent {
  /// Applies the event to `snapshot`.
  ///
  /// With `verifying` (the default) the event is first checked against the snapshot — the moved
  /// item is at `from`, the deleted subtree and the old content are what the event says — so an
  /// event stream that does not belong to this state (a corrupt or foreign journal) is refused
  /// with a typed error instead of producing a silently different state or a wrong undo. Folding
  /// trusted events (already verified when they were recorded or replayed) skips the checks.
  ///
  /// ```swift
  /// try ListEvent<String, String>.insertSection("A", items: .init(), at: 0).apply(to: &snapshot)
  /// ```
  /// On error the snapshot is unchanged.
  ///
  /// - Complexity: O(log n) per touched item; verification of a deleted subtree adds O(subtree).
  // Inlinable so that clients (and the store's own specialized code) apply events with the
  // model specialized for their element types: through the generic entry point every model
  // operation would pay for metadata lookups and witness calls.
  //
  // Consuming: the switch takes the payloads out of the event instead of copying the whole
  // event first (a copy of a generic enum goes through its value witness, a sizeable part of
  // folding a simple event). A caller holding the only copy passes it on for free.
  @inlinable
  public consuming func apply(to snapshot: inout ListSnapshot<Section, Item>, verifying: Bool = true) throws(HistoryError) {
    // The kind is named per case: `kindName` switches over `self`, which copies it.
    var kind = ""
    do {
      switch consume self {
      case .insertSection(let section, let items, let index):
        kind = "insertSection"
        if items.roots.isEmpty {
          try snapshot.insertSections([section], at: index)
        } else {
          // Two steps: roll the first back by hand if the second fails, so errors leave no trace.
          var copy = snapshot
          try copy.insertSections([section], at: index)
          try copy.insert(items, at: Location(.section(section.id), index: 0))
          snapshot = copy
        }
      case .deleteSection(let section, let items, let index):
        kind = "deleteSection"
        if verifying {
          try Self.expect(kind, snapshot.index(ofSection: section.id) == index, "section \(section.id) is not at index \(index)")
          try Self.expect(kind, snapshot.section(section.id) == section, "section \(section.id) does not have the recorded content")
          try Self.expect(kind, snapshot.outline(ofSection: section.id) == items, "section \(section.id) does not hold the recorded items")
        }
        try snapshot.deleteSections([section.id])
      case .moveSection(let id, let from, let to):
        kind = "moveSection"
        if verifying {
          try Self.expect(kind, snapshot.index(ofSection: id) == from, "section \(id) is not at index \(from)")
        }
        try snapshot.moveSection(id, toIndex: to)
      case .updateSection(let old, let new):
        kind = "updateSection"
        if verifying {
          try Self.expect(kind, old.id == new.id, "section update changes the identifier \(old.id) to \(new.id)")
          try Self.expect(kind, snapshot.section(old.id) == old, "section \(old.id) does not have the recorded old content")
        }
        try snapshot.updateSection(new)
      case .replaceSection(let old, let new):
        kind = "replaceSection"
        if verifying {
          try Self.expect(kind, snapshot.section(old.id) == old, "section \(old.id) does not have the recorded old content")
        }
        try snapshot.replaceSection(old.id, with: new)
      case .reloadSections(let ids):
        kind = "reloadSections"
        try snapshot.reloadSections(ids)
      case .insertItems(let outline, let location):
        kind = "insertItems"
        try snapshot.insert(outline, at: location)
      case .deleteItems(let outline, let location):
        kind = "deleteItems"
        if verifying {
          for (offset, root) in outline.roots.enumerated() {
            var expected = location
            expected.index += offset
            try Self.expect(kind, snapshot.location(ofItem: root.item.id) == expected, "item \(root.item.id) is not at \(expected)")
            try Self.expect(
              kind, snapshot.outline(of: root.item.id, includingParent: true) == ListOutline([root]),
              "item \(root.item.id) does not hold the recorded subtree")
          }
        }
        try snapshot.deleteItems(outline.roots.map(\.item.id))
      case .moveItem(let id, let from, let to):
        kind = "moveItem"
        if verifying {
          try Self.expect(kind, snapshot.location(ofItem: id) == from, "item \(id) is not at \(from)")
        }
        try snapshot.moveItem(id, to: to)
      case .updateItem(let old, let new):
        kind = "updateItem"
        if verifying {
          try Self.expect(kind, old.id == new.id, "item update changes the identifier \(old.id) to \(new.id)")
          try Self.expect(kind, snapshot.item(old.id) == old, "item \(old.id) does not have the recorded old content")
        }
        try snapshot.updateItem(new)
      case .replaceItem(let old, let new):
        kind = "replaceItem"
        if verifying {
          try Self.expect(kind, snapshot.item(old.id) == old, "item \(old.id) does not have the recorded old content")
        }
        try snapshot.replaceItem(old.id, with: new)
      case .expand(let id, let wasExpanded):
        kind = "expand"
        if verifying {
          try Self.expect(kind, snapshot.contains(item: id) && snapshot.isExpanded(id) == wasExpanded, "item \(id) expansion is not as recorded")
        }
        try snapshot.expand([id])
      case .collapse(let id, let wasExpanded):
        kind = "collapse"
        if verifying {
          try Self.expect(kind, snapshot.contains(item: id) && snapshot.isExpanded(id) == wasExpanded, "item \(id) expansion is not as recorded")
        }
        try snapshot.collapse([id])
      case .reloadItems(let ids):
        kind = "reloadItems"
        try snapshot.reloadItems(ids)
      case .reconfigureItems(let ids):
        kind = "reconfigureItems"
        try snapshot.reconfigureItems(ids)
      }
    } catch let error as HistoryError {
      throw error
    } catch {
      throw HistoryError.inconsistentEvent(reason: "\(kind): \(error)")
    }
  }

  /// Undoes the event on `snapshot` (the state right after it): `apply(inverse)`.
  ///
  /// - Complexity: as ``apply(to:verifying:)``.
  @inlinable
  public consuming func revert(from snapshot: inout ListSnapshot<Section, Item>, verifying: Bool = true)
    throws(HistoryError)
  {
    try _consumingInverse().apply(to: &snapshot, verifying: verifying)
  }

  /// ``inverse``, built from the payloads of this event instead of copies of them.
  @inlinable
  consuming func _consumingInverse() -> ListEvent {
    switch consume self {
    case .insertSection(let section, let items, let index): .deleteSection(section, items: items, at: index)
    case .deleteSection(let section, let items, let index): .insertSection(section, items: items, at: index)
    case .moveSection(let id, let from, let to): .moveSection(id, from: to, to: from)
    case .updateSection(let old, let new): .updateSection(old: new, new: old)
    case .replaceSection(let old, let new): .replaceSection(old: new, new: old)
    case .reloadSections(let ids): .reloadSections(ids)
    case .insertItems(let outline, let location): .deleteItems(outline, from: location)
    case .deleteItems(let outline, let location): .insertItems(outline, at: location)
    case .moveItem(let id, let from, let to): .moveItem(id, from: to, to: from)
    case .updateItem(let old, let new): .updateItem(old: new, new: old)
    case .replaceItem(let old, let new): .replaceItem(old: new, new: old)
    case .expand(let id, let wasExpanded): wasExpanded ? .expand(id, wasExpanded: true) : .collapse(id, wasExpanded: true)
    case .collapse(let id, let wasExpanded): wasExpanded ? .expand(id, wasExpanded: false) : .collapse(id, wasExpanded: false)
    case .reloadItems(let ids): .reloadItems(ids)
    case .reconfigureItems(let ids): .reconfigureItems(ids)
    }
  }

  @usableFromInline
  static func expect(_ kind: String, _ condition: Bool, _ reason: @autoclosure () -> String) throws(HistoryError) {
    if !condition { throw HistoryError.inconsistentEvent(reason: "\(kind): \(reason())") }
  }
}
