import ListState

extension ReferenceList {
  /// Compares `snapshot` with this model on every query of `ListSnapshot` and describes the
  /// first disagreement, or returns nil when they agree everywhere.
  ///
  /// Checked: counts, section identifiers and values, item identifiers (global and per section),
  /// `index(ofItem:)`, `index(ofSection:)`, `contains`, `sectionIdentifier(containingItem:)`,
  /// and for every item its value, location, parent, level, expansion, visibility, children,
  /// visible index path and sub-outlines; root and visible items per section,
  /// `visibleItem(at:)` for every row plus out-of-range probes, section outlines, and the three
  /// marker sets. `probeItems` and `probeSections` are identifiers to query as well; those not
  /// in the list must answer "unknown" (nil, false or empty).
  ///
  /// ```swift
  /// if let mismatch = reference.firstMismatch(with: snapshot) { Issue.record(mismatch) }
  /// ```
  ///
  /// - Complexity: O(n · d) for n items of depth at most d, plus the snapshot's query costs.
  public func firstMismatch(
    with snapshot: Snapshot, probeItems: [Item.ID] = [], probeSections: [Section.ID] = []
  ) -> String? {
    var checker = MismatchChecker()
    compare(snapshot, probeItems: probeItems, probeSections: probeSections, into: &checker)
    return checker.mismatch
  }

  /// A cheaper comparison that still pins the whole state down: section values and order, each
  /// section's full outline (items, contents, nesting, expansion flags) and the marker sets.
  /// Used where a state is known to have been checked thoroughly before (for example a copy
  /// taken before a mutation, to check value semantics).
  ///
  /// - Complexity: O(n) snapshot queries, against O(n · d) for the full comparison.
  public func firstStateMismatch(with snapshot: Snapshot) -> String? {
    var c = MismatchChecker()
    c.expect(snapshot.sections, entries.map { $0.section }, "sections")
    for entry in entries {
      c.expect(snapshot.outline(ofSection: entry.section.id), Outline(entry.roots), "outline(ofSection: \(entry.section.id))")
    }
    c.expect(snapshot.reloadedItemIdentifiers, reloadedItems, "reloadedItemIdentifiers")
    c.expect(snapshot.reconfiguredItemIdentifiers, reconfiguredItems, "reconfiguredItemIdentifiers")
    c.expect(snapshot.reloadedSectionIdentifiers, reloadedSections, "reloadedSectionIdentifiers")
    return c.mismatch
  }

  /// Like ``firstMismatch(with:probeItems:probeSections:)`` but with the per-item and per-row
  /// queries asked only for `sampleItems` and `sampleRows`; every whole-list and per-section
  /// query is still compared (including each section's full outline, so the whole state is
  /// pinned down). For large lists, where asking every query of every item per step is too slow.
  ///
  /// - Complexity: O(n) plus O(d) per sampled item, plus the snapshot's query costs.
  public func firstSampledMismatch(
    with snapshot: Snapshot, sampleItems: [Item.ID], sampleRows: [ListIndexPath],
    probeItems: [Item.ID] = [], probeSections: [Section.ID] = []
  ) -> String? {
    var checker = MismatchChecker()
    compare(
      snapshot, probeItems: probeItems, probeSections: probeSections, itemSample: Set(sampleItems), rowSample: sampleRows,
      into: &checker)
    return checker.mismatch
  }

  /// Collects only the first mismatch; later checks are skipped once one was found.
  struct MismatchChecker {
    var mismatch: String?

    mutating func expect<T: Equatable>(_ actual: @autoclosure () -> T, _ expected: @autoclosure () -> T, _ what: @autoclosure () -> String) {
      guard mismatch == nil else { return }
      let actualValue = actual()
      let expectedValue = expected()
      if actualValue != expectedValue {
        mismatch = "\(what()): snapshot has \(String(describing: actualValue)), reference has \(String(describing: expectedValue))"
      }
    }
  }

  /// With `itemSample`/`rowSample`, the per-item and per-row queries are limited to them.
  func compare(
    _ snapshot: Snapshot, probeItems: [Item.ID], probeSections: [Section.ID], itemSample: Set<Item.ID>? = nil,
    rowSample: [ListIndexPath]? = nil, into c: inout MismatchChecker
  ) {
    let rows = self.rows()

    // Whole-list queries.
    c.expect(snapshot.numberOfSections, entries.count, "numberOfSections")
    c.expect(snapshot.sectionIdentifiers, entries.map { $0.section.id }, "sectionIdentifiers")
    c.expect(snapshot.sections, entries.map { $0.section }, "sections")
    c.expect(snapshot.numberOfItems, rows.count, "numberOfItems")
    c.expect(snapshot.itemIdentifiers, rows.map { $0.id }, "itemIdentifiers")
    c.expect(snapshot.visibleItems, rows.filter { $0.isVisible }.map { $0.id }, "visibleItems")
    c.expect(snapshot.reloadedItemIdentifiers, reloadedItems, "reloadedItemIdentifiers")
    c.expect(snapshot.reconfiguredItemIdentifiers, reconfiguredItems, "reconfiguredItemIdentifiers")
    c.expect(snapshot.reloadedSectionIdentifiers, reloadedSections, "reloadedSectionIdentifiers")

    // Per section.
    var rowsBySection = Array(repeating: [Row](), count: entries.count)
    for row in rows { rowsBySection[row.sectionIndex].append(row) }
    for (sectionIndex, entry) in entries.enumerated() {
      let id = entry.section.id
      let items = rowsBySection[sectionIndex]
      let visible = items.filter { $0.isVisible }.map { $0.id }
      c.expect(snapshot.index(ofSection: id), sectionIndex, "index(ofSection: \(id))")
      c.expect(snapshot.section(id), entry.section, "section(\(id))")
      c.expect(snapshot.contains(section: id), true, "contains(section: \(id))")
      c.expect(snapshot.numberOfItems(inSection: id), items.count, "numberOfItems(inSection: \(id))")
      c.expect(snapshot.itemIdentifiersIfPresent(inSection: id), items.map { $0.id }, "itemIdentifiersIfPresent(inSection: \(id))")
      c.expect(snapshot.itemIdentifiers(inSection: id), items.map { $0.id }, "itemIdentifiers(inSection: \(id))")
      c.expect(snapshot.rootItems(inSection: id), entry.roots.map { $0.item.id }, "rootItems(inSection: \(id))")
      c.expect(snapshot.visibleItems(inSection: id), visible, "visibleItems(inSection: \(id))")
      c.expect(snapshot.numberOfVisibleItems(inSection: id), visible.count, "numberOfVisibleItems(inSection: \(id))")
      c.expect(snapshot.outline(ofSection: id), Outline(entry.roots), "outline(ofSection: \(id))")
      for (row, item) in visible.enumerated() where rowSample.map({ $0.contains(ListIndexPath(section: sectionIndex, row: row)) }) ?? true {
        let path = ListIndexPath(section: sectionIndex, row: row)
        c.expect(snapshot.visibleItem(at: path), item, "visibleItem(at: \(path))")
      }
      for row in [-1, visible.count, visible.count + 1] {
        let path = ListIndexPath(section: sectionIndex, row: row)
        c.expect(snapshot.visibleItem(at: path), nil, "visibleItem(at: \(path)) (out of range)")
      }
    }
    for sectionIndex in [-1, entries.count] {
      let path = ListIndexPath(section: sectionIndex, row: 0)
      c.expect(snapshot.visibleItem(at: path), nil, "visibleItem(at: \(path)) (no such section)")
    }

    // Per item.
    for (index, row) in rows.enumerated() where itemSample.map({ $0.contains(row.id) }) ?? true {
      let id = row.id
      c.expect(snapshot.item(id), row.item, "item(\(id))")
      c.expect(snapshot.contains(item: id), true, "contains(item: \(id))")
      c.expect(snapshot.sectionIdentifier(containingItem: id), row.sectionID, "sectionIdentifier(containingItem: \(id))")
      c.expect(snapshot.index(ofItem: id), index, "index(ofItem: \(id))")
      c.expect(snapshot.location(ofItem: id), Location(row.container, index: row.siblingIndex), "location(ofItem: \(id))")
      c.expect(snapshot.parent(of: id), row.parent, "parent(of: \(id))")
      c.expect(snapshot.level(of: id), row.level, "level(of: \(id))")
      c.expect(snapshot.isExpanded(id), row.isExpanded, "isExpanded(\(id))")
      c.expect(snapshot.isVisible(id), row.isVisible, "isVisible(\(id))")
      c.expect(snapshot.children(of: id), row.children, "children(of: \(id))")
      c.expect(
        snapshot.visibleIndexPath(ofItem: id), row.visibleRow.map { ListIndexPath(section: row.sectionIndex, row: $0) },
        "visibleIndexPath(ofItem: \(id))")
      let node = self.node(section: row.sectionIndex, path: row.path)
      c.expect(snapshot.outline(of: id), Outline(node.children), "outline(of: \(id))")
      c.expect(snapshot.outline(of: id, includingParent: true), Outline([node]), "outline(of: \(id), includingParent: true)")
      if c.mismatch != nil { return }
    }

    // Identifiers that may or may not be in the list.
    for id in probeItems where !rows.contains(where: { $0.id == id }) {
      c.expect(snapshot.item(id), nil, "item(\(id)) (unknown)")
      c.expect(snapshot.contains(item: id), false, "contains(item: \(id)) (unknown)")
      c.expect(snapshot.sectionIdentifier(containingItem: id), nil, "sectionIdentifier(containingItem: \(id)) (unknown)")
      c.expect(snapshot.index(ofItem: id), nil, "index(ofItem: \(id)) (unknown)")
      c.expect(snapshot.location(ofItem: id), nil, "location(ofItem: \(id)) (unknown)")
      c.expect(snapshot.parent(of: id), nil, "parent(of: \(id)) (unknown)")
      c.expect(snapshot.level(of: id), nil, "level(of: \(id)) (unknown)")
      c.expect(snapshot.isExpanded(id), false, "isExpanded(\(id)) (unknown)")
      c.expect(snapshot.isVisible(id), false, "isVisible(\(id)) (unknown)")
      c.expect(snapshot.children(of: id), [], "children(of: \(id)) (unknown)")
      c.expect(snapshot.visibleIndexPath(ofItem: id), nil, "visibleIndexPath(ofItem: \(id)) (unknown)")
      c.expect(snapshot.outline(of: id), nil, "outline(of: \(id)) (unknown)")
    }
    for id in probeSections where !contains(section: id) {
      c.expect(snapshot.index(ofSection: id), nil, "index(ofSection: \(id)) (unknown)")
      c.expect(snapshot.section(id), nil, "section(\(id)) (unknown)")
      c.expect(snapshot.contains(section: id), false, "contains(section: \(id)) (unknown)")
      c.expect(snapshot.numberOfItems(inSection: id), nil, "numberOfItems(inSection: \(id)) (unknown)")
      c.expect(snapshot.itemIdentifiersIfPresent(inSection: id), nil, "itemIdentifiersIfPresent(inSection: \(id)) (unknown)")
      c.expect(snapshot.itemIdentifiers(inSection: id), [], "itemIdentifiers(inSection: \(id)) (unknown)")
      c.expect(snapshot.rootItems(inSection: id), [], "rootItems(inSection: \(id)) (unknown)")
      c.expect(snapshot.visibleItems(inSection: id), [], "visibleItems(inSection: \(id)) (unknown)")
      c.expect(snapshot.numberOfVisibleItems(inSection: id), nil, "numberOfVisibleItems(inSection: \(id)) (unknown)")
      c.expect(snapshot.outline(ofSection: id), nil, "outline(ofSection: \(id)) (unknown)")
    }
  }

  /// A drawing of the model, for failure messages: one line per item, indented per level,
  /// `▾` expanded / `▸` collapsed, `*` reloaded, `~` reconfigured.
  public var debugDrawing: String {
    var lines: [String] = []
    for entry in entries {
      lines.append("[\(entry.section)]\(reloadedSections.contains(entry.section.id) ? "*" : "")")
      func draw(_ nodes: [Node], depth: Int) {
        for node in nodes {
          let marks = (reloadedItems.contains(node.item.id) ? "*" : "") + (reconfiguredItems.contains(node.item.id) ? "~" : "")
          lines.append(String(repeating: "  ", count: depth + 1) + (node.isExpanded ? "▾ " : "▸ ") + "\(node.item)\(marks)")
          draw(node.children, depth: depth + 1)
        }
      }
      draw(entry.roots, depth: 0)
    }
    return lines.isEmpty ? "(empty)" : lines.joined(separator: "\n")
  }
}
