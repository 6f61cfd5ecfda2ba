import ListState

extension ListChangeset {
  /// The changeset between two visible-row states: identity by identifier, reloads where the
  /// predicates say so.
  ///
  /// `sectionNeedsReload` is asked about sections present in both states; `itemNeedsReload` about
  /// rows visible in both (nil: no row's content changed — the fast path for identifier-only rows);
  /// `itemNeedsReconfigure` picks rows to reconfigure instead (``Stage/itemReconfigures``: the
  /// cell is kept), unless `itemNeedsReload` also picks them.
  /// Identifiers must be unique per kind, as in a ``ListSnapshot``; with duplicates the result is
  /// unspecified (but the call does not trap).
  ///
  /// ```swift
  /// let changeset = ListChangeset(
  ///     from: ListVisibleRows(sections: [0], rows: [[1, 2, 3]]),
  ///     to: ListVisibleRows(sections: [0], rows: [[3, 1, 2, 4]]))
  /// changeset.stages[0].itemMoves    // [0:2 → 0:0]
  /// changeset.stages[0].itemInserts  // [0:3]
  /// ```
  ///
  /// - Complexity: O(n + k log k) for n visible rows and k rows common to a changed section, plus
  ///   the predicate calls; O(sections) plus the predicate calls when no section's rows changed.
  @inlinable
  public init(
    from old: Rows, to new: Rows,
    sectionNeedsReload: (SectionID) -> Bool = { _ in false },
    itemNeedsReload: ((ItemID) -> Bool)? = nil,
    itemNeedsReconfigure: ((ItemID) -> Bool)? = nil
  ) {
    guard let itemNeedsReconfigure else {
      self.init(from: old, to: new, sectionNeedsReload: sectionNeedsReload, reload: _ReloadTest(predicate: itemNeedsReload))
      return
    }
    let needsReload = itemNeedsReload ?? { _ in false }
    self.init(
      from: old, to: new, sectionNeedsReload: sectionNeedsReload,
      reload: _ReloadTest(predicate: { needsReload($0) || itemNeedsReconfigure($0) }))
    var finalPaths: [ItemID: ListIndexPath]?  // built only when a structural stage reconfigures
    _separateReconfigures(
      where: { itemNeedsReconfigure($0) && !needsReload($0) },
      finalPath: { id in
        if finalPaths == nil {
          var paths: [ItemID: ListIndexPath] = [:]
          for (section, rows) in new.rows.enumerated() {
            for (row, id) in rows.enumerated() { paths[id] = ListIndexPath(section: section, row: row) }
          }
          finalPaths = paths
        }
        return finalPaths![id]
      })
  }

  /// The changeset with a row reload test (positions in `new`).
  @inlinable
  init(from old: Rows, to new: Rows, sectionNeedsReload: (SectionID) -> Bool, reload: _ReloadTest<ItemID>) {
    typealias Differ = _StageDiffer<SectionID, ItemID>
    let plan = _SectionPlan(from: old.sectionIdentifiers, to: new.sectionIdentifiers, needsReload: sectionNeedsReload)
    var movedSectionChanged = false
    for (oldSection, kind) in plan.oldKind.enumerated() where kind == .moved {
      if !Differ.rowsEqual(old.rows[oldSection], new.rows[plan.oldToNew[oldSection]]) {
        movedSectionChanged = true
        break
      }
    }
    var stages: [Stage] = []
    var trailing: [(ListIndexPath, ItemID)]
    if !movedSectionChanged {
      let (stage, reloads) = Differ.stage(from: old, to: new, plan: plan, reload: reload)
      if !stage.isEmpty { stages.append(stage) }
      trailing = reloads
    } else {
      // Rows first, over the old section order; then the sections, with no row listed. The rows
      // stage ends in `middle`, whose open sections hold their rows of `new` at old indexes.
      let middle = Self.rowsFirstState(from: old, to: new, plan: plan)
      let suppressed = plan.oldKind.map { !$0.isOpen }
      let rowsPlan = _SectionPlan(identityOver: old.rows.count, suppressingItemReloadsIn: suppressed)
      var (rowsStage, reloads) = Differ.stage(
        from: old, to: middle, plan: rowsPlan, reload: reload.mappingSections(plan.oldToNew))
      let (sectionsStage, _) = Differ.stage(from: middle, to: new, plan: plan, reload: _ReloadTest())
      rowsStage.after = middle
      if !rowsStage.isEmpty { stages.append(rowsStage) }
      if !sectionsStage.isEmpty { stages.append(sectionsStage) }
      trailing = reloads.map { (ListIndexPath(section: plan.oldToNew[$0.0.section], row: $0.0.row), $0.1) }
      trailing.sort { $0.0 < $1.0 }
    }
    if !trailing.isEmpty {
      var reloadStage = Stage()
      reloadStage.itemReloads = trailing.map(\.0)
      reloadStage.reloadedItems = trailing.map(\.1)
      stages.append(reloadStage)
    }
    self.init(stages: stages)
  }

  /// The state between the rows stage and the sections stage: the old sections, open ones
  /// (stationary or moved) already holding their final rows, closed ones (deleted, reloaded,
  /// replaced) their old rows minus those that went to open sections.
  @inlinable
  static func rowsFirstState(from old: Rows, to new: Rows, plan: _SectionPlan) -> Rows {
    var closedRows = Set<ItemID>()
    for (section, kind) in plan.oldKind.enumerated() where !kind.isOpen {
      closedRows.formUnion(old.rows[section])
    }
    var leaving = Set<ItemID>()
    if !closedRows.isEmpty {
      for (section, kind) in plan.newKind.enumerated() where kind.isOpen {
        for id in new.rows[section] where closedRows.contains(id) { leaving.insert(id) }
      }
    }
    var rows = old.rows
    for (section, kind) in plan.oldKind.enumerated() {
      if kind.isOpen {
        rows[section] = new.rows[plan.oldToNew[section]]
      } else if !leaving.isEmpty {
        rows[section] = old.rows[section].filter { !leaving.contains($0) }
      }
    }
    return Rows(sections: old.sectionIdentifiers, rows: rows)
  }
}
