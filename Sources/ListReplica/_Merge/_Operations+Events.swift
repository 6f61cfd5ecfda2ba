import ListState
import ListHistory

extension ReplicaOperation {
  /// The operations of a local transaction: each event with its positions turned into anchors,
  /// read from the state before the event (where things were) and after it (where they went).
  /// Markers are dropped.
  ///
  /// - Complexity: O(log n) per event (each is applied once to a copy of `initial`).
  @inlinable
  static func operations(
    for events: [ListEvent<Section, Item>], from initial: ListSnapshot<Section, Item>, to final: ListSnapshot<Section, Item>
  ) throws(HistoryError) -> [ReplicaOperation] {
    // One event (most transactions): the states before and after it are at hand.
    if events.count == 1 { return try operations(for: events, from: initial, final: final) }
    return try operations(for: events, from: initial, final: nil)
  }

  @inlinable
  static func operations(
    for events: [ListEvent<Section, Item>], from initial: ListSnapshot<Section, Item>, final: ListSnapshot<Section, Item>?
  ) throws(HistoryError) -> [ReplicaOperation] {
    var state = initial
    var operations: [ReplicaOperation] = []
    operations.reserveCapacity(events.count)
    func predecessor(_ location: ListItemLocation<Section.ID, Item.ID>, in snapshot: ListSnapshot<Section, Item>) -> Item.ID? {
      location.index > 0 ? snapshot.itemIdentifier(at: ListItemLocation(location.container, index: location.index - 1)) : nil
    }
    func anchor(_ location: ListItemLocation<Section.ID, Item.ID>, in snapshot: ListSnapshot<Section, Item>) -> Anchor {
      Anchor(location.container, after: predecessor(location, in: snapshot))
    }
    func sectionBefore(_ index: Int, in snapshot: ListSnapshot<Section, Item>) -> Section.ID? {
      index > 0 ? snapshot.sectionIdentifier(for: index - 1) : nil
    }
    for event in events {
      switch event {
      case .insertSection(let section, let items, let index):
        operations.append(.insertSection(section, items: items, after: sectionBefore(index, in: state)))
      case .deleteSection(let section, let items, let index):
        operations.append(.deleteSection(section, items: items, after: sectionBefore(index, in: state)))
      case .moveSection(let id, let from, let to):
        let origin = sectionBefore(from, in: state)
        if let final {
          operations.append(.moveSection(id, from: origin, to: sectionBefore(to, in: final)))
          continue
        }
        try event.apply(to: &state, verifying: false)
        operations.append(.moveSection(id, from: origin, to: sectionBefore(to, in: state)))
        continue
      case .updateSection(let old, let new): operations.append(.updateSection(old: old, new: new))
      case .replaceSection(let old, let new): operations.append(.replaceSection(old: old, new: new))
      case .insertItems(let outline, let location): operations.append(.insertItems(outline, at: anchor(location, in: state)))
      case .deleteItems(let outline, let location): operations.append(.deleteItems(outline, from: anchor(location, in: state)))
      case .moveItem(let id, let from, let to):
        let origin = anchor(from, in: state)
        if let final {
          operations.append(.moveItem(id, from: origin, to: anchor(to, in: final)))
          continue
        }
        try event.apply(to: &state, verifying: false)
        operations.append(.moveItem(id, from: origin, to: anchor(to, in: state)))
        continue
      case .updateItem(let old, let new): operations.append(.updateItem(old: old, new: new))
      case .replaceItem(let old, let new): operations.append(.replaceItem(old: old, new: new))
      case .expand(let id, let wasExpanded):
        if !wasExpanded { operations.append(.setExpanded(id, true, was: false)) }
      case .collapse(let id, let wasExpanded):
        if wasExpanded { operations.append(.setExpanded(id, false, was: true)) }
      case .reloadSections, .reloadItems, .reconfigureItems:
        continue
      }
      if final == nil { try event.apply(to: &state, verifying: false) }
    }
    return operations
  }

  /// The operations that undo `operations` (a commit of this replica) on `state`, the list as
  /// it is now: each inverted, newest first, against what is there now. An item someone else
  /// deleted since stays deleted; content that someone else changed since keeps their change;
  /// what someone else added under an inserted item or into an inserted section stays (the
  /// delete that undoes the insert records only this commit's items).
  ///
  /// - Complexity: O(log n) per operation and touched item.
  @inlinable
  static func inverting(_ operations: [ReplicaOperation], on initial: ListSnapshot<Section, Item>) -> [ReplicaOperation] {
    var result: [ReplicaOperation] = []
    let state = initial
    func currentAnchor(_ id: Item.ID) -> Anchor? {
      guard let location = state.location(ofItem: id) else { return nil }
      let before = location.index > 0 ? state.itemIdentifier(at: ListItemLocation(location.container, index: location.index - 1)) : nil
      return Anchor(location.container, after: before)
    }
    // What the commit inserted: its undo deletes these and keeps what others added among them.
    var inserted = Set<Item.ID>()
    for operation in operations {
      switch operation {
      case .insertItems(let outline, _), .insertSection(_, let outline, _): inserted.formUnion(outline.itemIdentifiers)
      default: continue
      }
    }
    // Deleted by an earlier inverse: a later one (its section, say) does not record them again.
    var removed = Set<Item.ID>()
    func own(_ outline: ListOutline<Item>) -> ListOutline<Item> {
      func keep(_ nodes: [ListOutline<Item>.Node]) -> [ListOutline<Item>.Node] {
        nodes.compactMap { node in
          inserted.contains(node.item.id) && !removed.contains(node.item.id)
            ? ListOutline<Item>.Node(node.item, isExpanded: node.isExpanded, children: keep(node.children)) : nil
        }
      }
      return ListOutline(keep(outline.roots))
    }
    func currentSectionAnchor(_ id: Section.ID) -> Section.ID?? {
      guard let index = state.index(ofSection: id) else { return nil }
      return .some(index > 0 ? state.sectionIdentifier(for: index - 1) : nil)
    }
    for operation in operations.reversed() {
      switch operation {
      case .insertItems(let outline, _):
        for root in outline.roots.reversed() {
          guard let anchor = currentAnchor(root.item.id), let current = state.outline(of: root.item.id, includingParent: true)
          else { continue }
          let deleted = own(current)
          removed.formUnion(deleted.itemIdentifiers)
          result.append(.deleteItems(deleted, from: anchor))
        }
      case .deleteItems(let outline, let anchor):
        let missing = outline.roots.filter { !state.contains(item: $0.item.id) }
        if !missing.isEmpty { result.append(.insertItems(ListOutline(missing), at: anchor)) }
      case .moveItem(let id, let from, _):
        guard let anchor = currentAnchor(id) else { continue }
        result.append(.moveItem(id, from: anchor, to: from))
      case .updateItem(let old, let new), .replaceItem(let old, let new):
        // Only while the content is still this commit's: a later change by anyone stays.
        guard let current = state.item(new.id), current == new else { continue }
        if old.id == new.id {
          result.append(.updateItem(old: current, new: old))
        } else if !state.contains(item: old.id) {
          result.append(.replaceItem(old: current, new: old))
        }
      case .setExpanded(let id, let expanded, let was):
        guard state.contains(item: id), state.isExpanded(id) == expanded else { continue }
        result.append(.setExpanded(id, was, was: expanded))
      case .insertSection(let section, _, _):
        guard let anchor = currentSectionAnchor(section.id), let items = state.outline(ofSection: section.id),
          let current = state.section(section.id)
        else { continue }
        result.append(.deleteSection(current, items: own(items), after: anchor))
      case .deleteSection(let section, let items, let after):
        guard !state.contains(section: section.id) else { continue }
        let missing = ListOutline(items.roots.filter { !state.contains(item: $0.item.id) })
        result.append(.insertSection(section, items: missing, after: after))
      case .moveSection(let id, let from, _):
        guard let anchor = currentSectionAnchor(id) else { continue }
        result.append(.moveSection(id, from: anchor, to: from))
      case .updateSection(let old, let new), .replaceSection(let old, let new):
        guard let current = state.section(new.id), current == new else { continue }
        if old.id == new.id {
          result.append(.updateSection(old: current, new: old))
        } else if !state.contains(section: old.id) {
          result.append(.replaceSection(old: current, new: old))
        }
      }
    }
    return result
  }
}
