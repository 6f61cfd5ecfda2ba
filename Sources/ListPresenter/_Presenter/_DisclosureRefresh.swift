import ListDiff
import ListHistory
import ListState

/// Reconfigures the rows whose disclosure state changed — they expanded or collapsed, or gained
/// their first child or lost their last — and stay on screen, so a cell that draws its own
/// chevron redraws it (what UIKit's section snapshots do for a parent they expand).
///
/// The rows go, at their final index paths, into a batch with no structural change (the last
/// one when it has none, else one more), where UIKit allows reconfigures; rows the changeset
/// already refreshes (inserted, reloaded, reconfigured, or inside an inserted or reloaded section)
/// are left alone, as UIKit refuses a row both reloaded and reconfigured.
enum _DisclosureRefresh<Section: ListElement, Item: ListElement> {
  typealias Snapshot = ListSnapshot<Section, Item>
  typealias Changeset = ListChangeset<Section.ID, Item.ID>

  /// The rows whose disclosure state the events may change: expanded or collapsed items, and the
  /// parents that gain or lose children.
  ///
  /// - Complexity: O(events).
  static func candidates(in events: [ListEvent<Section, Item>]) -> [Item.ID] {
    var ids: [Item.ID] = []
    func parent(_ location: ListItemLocation<Section.ID, Item.ID>) {
      if case .parent(let id) = location.container { ids.append(id) }
    }
    for event in events {
      switch event {
      case .expand(let id, let wasExpanded) where !wasExpanded: ids.append(id)
      case .collapse(let id, let wasExpanded) where wasExpanded: ids.append(id)
      case .insertItems(_, let location), .deleteItems(_, let location): parent(location)
      case .moveItem(_, let from, let to):
        parent(from)
        parent(to)
      default: break
      }
    }
    return ids
  }

  /// `changeset` with the candidates that stay visible from `old` to `new` and show another
  /// disclosure state reconfigured.
  ///
  /// - Complexity: O(operations + c · (depth · log n + children)) for c candidates.
  static func adding(
    to changeset: Changeset, from old: Snapshot, to new: Snapshot, candidates: some Sequence<Item.ID>
  ) -> Changeset {
    var refreshed: Set<Item.ID> = []
    var freshSections: Set<Section.ID> = []
    for stage in changeset.stages {
      refreshed.formUnion(stage.insertedItems)
      refreshed.formUnion(stage.reloadedItems)
      refreshed.formUnion(stage.reconfiguredItems)
      freshSections.formUnion(stage.insertedSections)
      freshSections.formUnion(stage.reloadedSections)
    }
    var added: [(ListIndexPath, Item.ID)] = []
    var seen: Set<Item.ID> = []
    for id in candidates where seen.insert(id).inserted && !refreshed.contains(id) {
      guard old.isVisible(id), let path = new.visibleIndexPath(ofItem: id),
        let section = new.sectionIdentifier(containingItem: id), !freshSections.contains(section),
        old.isExpanded(id) != new.isExpanded(id) || old.children(of: id).isEmpty != new.children(of: id).isEmpty
      else { continue }
      added.append((path, id))
    }
    guard !added.isEmpty else { return changeset }
    var result = changeset
    var stage = Changeset.Stage()
    if let last = result.stages.last, !last.hasStructuralChanges, last.after == nil {
      stage = result.stages.removeLast()
      added.append(contentsOf: zip(stage.itemReconfigures, stage.reconfiguredItems))
    }
    added.sort { $0.0 < $1.0 }
    stage.itemReconfigures = added.map(\.0)
    stage.reconfiguredItems = added.map(\.1)
    result.stages.append(stage)
    return result
  }
}
