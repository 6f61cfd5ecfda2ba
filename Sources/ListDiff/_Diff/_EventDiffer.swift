import ListHistory
import ListState

/// The changeset between two snapshots from the events that lead from one to the other, in time
/// proportional to the rows the events touch (times O(log n) per lookup), not to the list size.
///
/// Rows the events never touched keep their relative order, so only touched rows can be
/// inserted, deleted or moved. A touched row visible in both states stays in place when it keeps
/// the same number of untouched rows before it in the same section and, among the touched rows
/// sharing that gap, belongs to a longest increasing run; every other one moves. So moves never
/// exceed the rows the events moved (two moved rows: two moves), and inserts later deleted (or
/// the reverse) cancel out.
///
/// Returns nil — the caller then runs the full diff — when the events change sections
/// (their staging rules need the whole rows) or touch so many rows that the full diff is cheaper.
enum _EventDiffer<Section: ListElement, Item: ListElement> {
  typealias Snapshot = ListSnapshot<Section, Item>
  typealias Event = ListEvent<Section, Item>
  typealias Changeset = ListChangeset<Section.ID, Item.ID>

  /// Above this fraction of the visible rows, the full diff is cheaper.
  static var touchedRowLimitDivisor: Int { 16 }

  /// The reload markers the events carry (snapshots read back from a history have none).
  static func markers(in events: [Event]) -> (sections: Set<Section.ID>, items: Set<Item.ID>) {
    var sections = Set<Section.ID>()
    var items = Set<Item.ID>()
    for event in events {
      switch event {
      case .reloadSections(let ids): sections.formUnion(ids)
      case .reloadItems(let ids), .reconfigureItems(let ids): items.formUnion(ids)
      default: break
      }
    }
    return (sections, items)
  }

  static func changeset(from old: Snapshot, to new: Snapshot, events: [Event]) -> Changeset? {
    if events.isEmpty { return Changeset() }
    var touched = Set<Item.ID>()
    var reloadCandidates = Set<Item.ID>()
    var marked = Set<Item.ID>()
    var visibleRows: Int?
    func limit() -> Int {
      if let visibleRows { return visibleRows / touchedRowLimitDivisor + 64 }
      let count = old.sectionIdentifiers.reduce(0) { $0 + (old.numberOfVisibleItems(inSection: $1) ?? 0) }
      visibleRows = count
      return count / touchedRowLimitDivisor + 64
    }
    for event in events {
      switch event {
      case .insertSection, .deleteSection, .moveSection, .updateSection, .replaceSection, .reloadSections:
        return nil
      case .insertItems(let outline, _), .deleteItems(let outline, _):
        touched.formUnion(outline.itemIdentifiers)
      case .moveItem(let id, _, _), .expand(let id, _), .collapse(let id, _):
        touched.insert(id)
        collectVisibleDescendants(of: id, in: old, into: &touched)
        collectVisibleDescendants(of: id, in: new, into: &touched)
      case .updateItem(_, let item):
        reloadCandidates.insert(item.id)
      case .replaceItem(let previous, let item):
        if previous.id == item.id {
          reloadCandidates.insert(item.id)
        } else {
          touched.insert(previous.id)
          touched.insert(item.id)
        }
      case .reloadItems(let ids), .reconfigureItems(let ids):
        marked.formUnion(ids)
      }
      if touched.count > 64, touched.count > limit() { return nil }
    }
    guard old.sectionIdentifiers == new.sectionIdentifiers else { return nil }

    // Where each touched row is shown before and after.
    var oldRows: [Int: [Int]] = [:]  // section → sorted old rows of touched rows
    var newRows: [Int: [Int]] = [:]
    var common: [(id: Item.ID, old: ListIndexPath, new: ListIndexPath)] = []
    var stage = Changeset.Stage()
    var deletes: [(ListIndexPath, Item.ID)] = []
    var inserts: [(ListIndexPath, Item.ID)] = []
    for id in touched {
      let before = old.visibleIndexPath(ofItem: id)
      let after = new.visibleIndexPath(ofItem: id)
      if let before { oldRows[before.section, default: []].append(before.row) }
      if let after { newRows[after.section, default: []].append(after.row) }
      switch (before, after) {
      case (let before?, let after?): common.append((id, before, after))
      case (let before?, nil): deletes.append((before, id))
      case (nil, let after?): inserts.append((after, id))
      case (nil, nil): break
      }
    }
    for key in oldRows.keys { oldRows[key]!.sort() }
    for key in newRows.keys { newRows[key]!.sort() }
    func untouchedBefore(_ path: ListIndexPath, in rows: [Int: [Int]]) -> Int {
      path.row - lowerBound(of: path.row, in: rows[path.section] ?? [])
    }

    // Touched rows that kept their section and their gap among untouched rows may stay.
    var groups: [Slot: [(id: Item.ID, old: ListIndexPath, new: ListIndexPath)]] = [:]
    var moves: [(ListMove<ListIndexPath>, Item.ID)] = []
    for row in common {
      let oldGap = untouchedBefore(row.old, in: oldRows)
      if row.old.section == row.new.section, oldGap == untouchedBefore(row.new, in: newRows) {
        groups[Slot(section: row.old.section, gap: oldGap), default: []].append(row)
      } else {
        moves.append((ListMove(from: row.old, to: row.new), row.id))
      }
    }
    var staying: [(id: Item.ID, old: ListIndexPath)] = []
    for var group in groups.values {
      group.sort { $0.new < $1.new }
      let inPlace = _longestIncreasingSubsequenceMembership(group.map(\.old.row))
      for (index, row) in group.enumerated() {
        if inPlace[index] { staying.append((row.id, row.old)) } else { moves.append((ListMove(from: row.old, to: row.new), row.id)) }
      }
    }

    // Reloads: content changed or marked, visible in both; a moved row reloads in a later stage.
    var reloads: [(ListIndexPath, Item.ID)] = []
    var trailing: [(ListIndexPath, Item.ID)] = []
    let movedIDs = Set(moves.map(\.1))
    // A row deleted and inserted again (say, across branches) may come back with other content.
    for row in common { reloadCandidates.insert(row.id) }
    for id in reloadCandidates.union(marked) {
      guard marked.contains(id) || old.item(id) != new.item(id),
        let before = old.visibleIndexPath(ofItem: id), let after = new.visibleIndexPath(ofItem: id)
      else { continue }
      if movedIDs.contains(id) { trailing.append((after, id)) } else { reloads.append((before, id)) }
    }

    deletes.sort { $0.0 < $1.0 }
    inserts.sort { $0.0 < $1.0 }
    moves.sort { $0.0.to < $1.0.to }
    reloads.sort { $0.0 < $1.0 }
    trailing.sort { $0.0 < $1.0 }
    stage.itemDeletes = deletes.map(\.0)
    stage.deletedItems = deletes.map(\.1)
    stage.itemInserts = inserts.map(\.0)
    stage.insertedItems = inserts.map(\.1)
    stage.itemMoves = moves.map(\.0)
    stage.movedItems = moves.map(\.1)
    stage.itemReloads = reloads.map(\.0)
    stage.reloadedItems = reloads.map(\.1)
    var stages: [Changeset.Stage] = []
    if !stage.isEmpty { stages.append(stage) }
    if !trailing.isEmpty {
      var reloadStage = Changeset.Stage()
      reloadStage.itemReloads = trailing.map(\.0)
      reloadStage.reloadedItems = trailing.map(\.1)
      stages.append(reloadStage)
    }
    return Changeset(stages: stages)
  }

  /// A section and a number of untouched rows before: where a touched row may stay.
  struct Slot: Hashable {
    var section: Int
    var gap: Int
  }

  /// Adds the rows shown under `id` (its descendants whose ancestors are all expanded), if `id`
  /// is itself shown and expanded.
  static func collectVisibleDescendants(of id: Item.ID, in snapshot: Snapshot, into result: inout Set<Item.ID>) {
    guard snapshot.isExpanded(id), snapshot.isVisible(id) else { return }
    var stack = snapshot.children(of: id)
    while let next = stack.popLast() {
      result.insert(next)
      if snapshot.isExpanded(next) { stack.append(contentsOf: snapshot.children(of: next)) }
    }
  }

  /// The number of values in the sorted `values` that are smaller than `value`.
  static func lowerBound(of value: Int, in values: [Int]) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) >> 1
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
