import ListHistory
import ListState

/// The changeset between two snapshots from the events that lead from one to the other, in time
/// proportional to the rows the events touch (times O(log n) per lookup), not to the list size.
///
/// Rows the events never touched keep their relative order, so only touched rows can be
/// inserted or deleted, and the moves are found on a sequence of O(touched) units: each touched
/// row, and each segment of untouched rows between consecutive touched positions (old or new) —
/// such a segment is kept or moved whole. A heaviest increasing run of units stays; the rest
/// moves. That is exactly the longest-increasing-subsequence minimum of the full diff (a moved
/// expanded folder may be reported as the one row it jumped over), and inserts later deleted (or
/// the reverse) cancel out.
///
/// Returns nil — the caller then runs the full diff — when the events change sections
/// (their staging rules need the whole rows) or touch so many rows that the full diff is cheaper.
@usableFromInline
enum _EventDiffer<Section: ListElement, Item: ListElement> {
  @usableFromInline
  typealias Snapshot = ListSnapshot<Section, Item>
  @usableFromInline
  typealias Event = ListEvent<Section, Item>
  @usableFromInline
  typealias Changeset = ListChangeset<Section.ID, Item.ID>

  /// Above this fraction of the visible rows, the full diff is cheaper.
  @inlinable
  static var touchedRowLimitDivisor: Int { 16 }

  /// The reload markers the events carry (snapshots read back from a history have none).
  @inlinable
  static func markers(
    in events: [Event]
  ) -> (sections: Set<Section.ID>, items: Set<Item.ID>, reconfiguredItems: Set<Item.ID>) {
    var sections = Set<Section.ID>()
    var items = Set<Item.ID>()
    var reconfigured = Set<Item.ID>()
    for event in events {
      switch event {
      case .reloadSections(let ids): sections.formUnion(ids)
      case .reloadItems(let ids): items.formUnion(ids)
      case .reconfigureItems(let ids): reconfigured.formUnion(ids)
      default: break
      }
    }
    return (sections, items, reconfigured)
  }

  @inlinable
  static func changeset(from old: Snapshot, to new: Snapshot, events: [Event]) -> Changeset? {
    if events.isEmpty { return Changeset() }
    var touched = Set<Item.ID>()
    var reloadCandidates = Set<Item.ID>()
    var marked = Set<Item.ID>()
    var reinserted = Set<Item.ID>()  // in an inserted or deleted outline: content may differ
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
        let ids = outline.itemIdentifiers
        touched.formUnion(ids)
        reinserted.formUnion(ids)
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

    // Moves: rows that changed section, plus, per section, those outside a heaviest increasing
    // run of units (touched rows, and segments of untouched rows, which keep their order).
    var moves: [(ListMove<ListIndexPath>, Item.ID)] = []
    var sameSection: [Int: [(id: Item.ID, old: ListIndexPath, new: ListIndexPath)]] = [:]
    for row in common {
      if row.old.section == row.new.section {
        sameSection[row.old.section, default: []].append(row)
      } else {
        moves.append((ListMove(from: row.old, to: row.new), row.id))
      }
    }
    let sectionIDs = old.sectionIdentifiers
    for (section, rows) in sameSection {
      let touchedOld = oldRows[section] ?? []
      let untouched = (old.numberOfVisibleItems(inSection: sectionIDs[section]) ?? 0) - touchedOld.count
      minimalMoves(
        in: section, rows, touchedOld: touchedOld, touchedNew: newRows[section] ?? [], untouchedCount: untouched,
        old: old, into: &moves)
    }

    // Reloads: content changed or marked, visible in both; a moved row reloads in a later stage.
    var reloads: [(ListIndexPath, Item.ID)] = []
    var trailing: [(ListIndexPath, Item.ID)] = []
    let movedIDs = Set(moves.map(\.1))
    // A row deleted and inserted again (say, across branches) may come back with other content.
    for row in common where reinserted.contains(row.id) { reloadCandidates.insert(row.id) }
    for id in reloadCandidates.union(marked) {
      guard marked.contains(id) || old.item(id) != new.item(id),
        let before = old.visibleIndexPath(ofItem: id), let after = new.visibleIndexPath(ofItem: id)
      else { continue }
      if movedIDs.contains(id) { trailing.append((after, id)) } else { reloads.append((before, id)) }
    }

    deletes.sort { $0.0 > $1.0 }  // highest first: safe to apply one by one to an array
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

  /// A position in a section's old order: untouched rows by rank (`rank`, 1, 0); a touched row
  /// (which sits after `gap` untouched rows) as (`gap`, 0, old row).
  @usableFromInline
  struct OldKey: Comparable {
    @usableFromInline var rank: Int
    @usableFromInline var kind: Int
    @usableFromInline var row: Int
    @inlinable init(rank: Int, kind: Int, row: Int) {
      self.rank = rank
      self.kind = kind
      self.row = row
    }
    @inlinable static func < (a: OldKey, b: OldKey) -> Bool { (a.rank, a.kind, a.row) < (b.rank, b.kind, b.row) }
  }

  /// A unit of the same-section sequence in new order: one touched row, or a segment of untouched
  /// rows (ranks `ranks`) with no touched row's old position inside it — such a segment is kept
  /// or moved as a whole by some minimal solution.
  @usableFromInline
  struct Unit {
    @usableFromInline var low: OldKey
    @usableFromInline var high: OldKey
    @usableFromInline var weight: Int
    @usableFromInline var touched: Int  // index into the rows, or -1
    @usableFromInline var ranks: Range<Int>
    @inlinable init(low: OldKey, high: OldKey, weight: Int, touched: Int, ranks: Range<Int>) {
      self.low = low
      self.high = high
      self.weight = weight
      self.touched = touched
      self.ranks = ranks
    }
  }

  /// Appends the minimal moves of one section: the complement of a heaviest increasing run of
  /// units (O(u log u) for u units, u = O(touched rows)); untouched rows that must move are read
  /// back by position (there are never more of them than touched rows).
  @inlinable
  static func minimalMoves(
    in section: Int, _ rows: [(id: Item.ID, old: ListIndexPath, new: ListIndexPath)],
    touchedOld: [Int], touchedNew: [Int], untouchedCount: Int, old: Snapshot,
    into moves: inout [(ListMove<ListIndexPath>, Item.ID)]
  ) {
    let rows = rows.sorted { $0.new.row < $1.new.row }
    let oldGaps = rows.map { $0.old.row - lowerBound(of: $0.old.row, in: touchedOld) }
    let splits = Array(Set(oldGaps)).sorted()
    var units: [Unit] = []
    func appendUntouched(_ ranks: Range<Int>) {
      var start = ranks.lowerBound
      var index = lowerBound(of: start + 1, in: splits)
      while start < ranks.upperBound {
        let end = index < splits.count ? min(splits[index], ranks.upperBound) : ranks.upperBound
        if end > start {
          units.append(Unit(
            low: OldKey(rank: start, kind: 1, row: 0), high: OldKey(rank: end - 1, kind: 1, row: 0),
            weight: end - start, touched: -1, ranks: start..<end))
        }
        start = end
        index += 1
      }
    }
    var cursor = 0
    for (index, row) in rows.enumerated() {
      let newGap = row.new.row - lowerBound(of: row.new.row, in: touchedNew)
      appendUntouched(cursor..<max(cursor, newGap))
      cursor = max(cursor, newGap)
      let key = OldKey(rank: oldGaps[index], kind: 0, row: row.old.row)
      units.append(Unit(low: key, high: key, weight: 1, touched: index, ranks: 0..<0))
    }
    appendUntouched(cursor..<max(cursor, untouchedCount))

    // Heaviest chain with unit.high < next.low: a Fenwick tree of prefix maxima over the keys.
    let keys = Array(Set(units.flatMap { [$0.low, $0.high] }.map { [$0.rank, $0.kind, $0.row] })).map {
      OldKey(rank: $0[0], kind: $0[1], row: $0[2])
    }.sorted()
    func keyIndex(_ key: OldKey) -> Int {
      var low = 0
      var high = keys.count
      while low < high {
        let middle = (low + high) >> 1
        if keys[middle] < key { low = middle + 1 } else { high = middle }
      }
      return low
    }
    var tree = [(weight: Int, unit: Int)](repeating: (0, -1), count: keys.count + 1)
    var best = [Int](repeating: 0, count: units.count)
    var previous = [Int](repeating: -1, count: units.count)
    for (index, unit) in units.enumerated() {
      var position = keyIndex(unit.low)  // keys strictly below `low`: tree positions 1...position
      var found = (weight: 0, unit: -1)
      while position > 0 {
        if tree[position].weight > found.weight { found = tree[position] }
        position &= position - 1
      }
      best[index] = found.weight + unit.weight
      previous[index] = found.unit
      position = keyIndex(unit.high) + 1
      while position <= keys.count {
        if best[index] > tree[position].weight { tree[position] = (best[index], index) }
        position += position & -position
      }
    }
    var kept = [Bool](repeating: false, count: units.count)
    var chain = best.indices.max { best[$0] < best[$1] } ?? -1
    while chain >= 0 {
      kept[chain] = true
      chain = previous[chain]
    }
    for (index, unit) in units.enumerated() where !kept[index] {
      if unit.touched >= 0 {
        let row = rows[unit.touched]
        moves.append((ListMove(from: row.old, to: row.new), row.id))
      } else {
        for rank in unit.ranks {
          let from = ListIndexPath(section: section, row: position(ofUntouchedRank: rank, touched: touchedOld))
          let to = ListIndexPath(section: section, row: position(ofUntouchedRank: rank, touched: touchedNew))
          if let id = old.visibleItem(at: from) { moves.append((ListMove(from: from, to: to), id)) }
        }
      }
    }
  }

  /// The row of the untouched row of rank `rank`, given the sorted rows of the touched ones: the
  /// least fixed point of p = rank + #(touched ≤ p).
  @inlinable
  static func position(ofUntouchedRank rank: Int, touched: [Int]) -> Int {
    var position = rank
    while true {
      let next = rank + lowerBound(of: position + 1, in: touched)
      if next == position { return position }
      position = next
    }
  }

  /// Adds the rows shown under `id` (its descendants whose ancestors are all expanded), if `id`
  /// is itself shown and expanded.
  @inlinable
  static func collectVisibleDescendants(of id: Item.ID, in snapshot: Snapshot, into result: inout Set<Item.ID>) {
    guard snapshot.isExpanded(id), snapshot.isVisible(id) else { return }
    var stack = snapshot.children(of: id)
    while let next = stack.popLast() {
      result.insert(next)
      if snapshot.isExpanded(next) { stack.append(contentsOf: snapshot.children(of: next)) }
    }
  }

  /// The number of values in the sorted `values` that are smaller than `value`.
  @inlinable
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
