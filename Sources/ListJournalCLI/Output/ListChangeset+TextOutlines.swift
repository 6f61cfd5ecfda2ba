import ListDiff
import ListHistory
import ListState

extension ListChangeset where SectionID == String, ItemID == String {
  /// The changeset between two text states given as outlines, the same as the full diff of
  /// their snapshots (`ListChangeset(from: TextSnapshot, to: TextSnapshot)`, which the CLI's
  /// snapshots, rebuilt without markers, make a diff of visible rows, reloading the sections
  /// and the rows visible in both whose content changed) — without building either snapshot.
  ///
  /// `changedItems` are the identifiers of the items present in both whose content differs
  /// (see ``TextOutlines/changedItems(along:)``).
  ///
  /// - Complexity: O(n) to list the visible rows, plus the row diff.
  init(from old: TextOutlines, to new: TextOutlines, changedItems: Set<String>) {
    let oldSections = old.sectionContents
    let newSections = new.sectionContents
    self.init(
      from: old.visibleRows, to: new.visibleRows, sectionNeedsReload: { oldSections[$0] != newSections[$0] },
      itemNeedsReload: changedItems.isEmpty ? nil : { changedItems.contains($0) })
  }
}

extension TextOutlines {
  /// The section identifiers and, per section, the visible rows (items whose ancestors are all
  /// expanded, in pre-order), as `ListVisibleRows(snapshot)` lists them.
  var visibleRows: ListVisibleRows<String, String> {
    func append<Item: _ShownItem>(_ nodes: [ListOutline<Item>.Node], to rows: inout [String]) {
      for node in nodes {
        rows.append(node.item.shownID)
        if node.isExpanded { append(node.children, to: &rows) }
      }
    }
    var sections: [String] = []
    var rows: [[String]] = []
    switch storage {
    case .text(let list):
      for (section, roots) in list {
        sections.append(section.id)
        var visible: [String] = []
        append(roots, to: &visible)
        rows.append(visible)
      }
    case .generic(let list):
      for (section, outline) in list {
        sections.append(section.id.displayText)
        var visible: [String] = []
        visible.reserveCapacity(outline.roots.count)
        append(outline.roots, to: &visible)
        rows.append(visible)
      }
    }
    return ListVisibleRows(sections: sections, rows: rows)
  }

  /// Each section's content, by identifier.
  var sectionContents: [String: String] {
    switch storage {
    case .text(let list): Dictionary(list.map { ($0.section.id, $0.section.content) }, uniquingKeysWith: { first, _ in first })
    case .generic(let list):
      Dictionary(list.map { ($0.0.id.displayText, $0.0.displayContent) }, uniquingKeysWith: { first, _ in first })
    }
  }

  /// The items present at both ends of `events` (a way between two states, as
  /// `JournalReadIndex.events(from:to:)` gives it) whose shown content differs at the ends,
  /// by shown identifier — without comparing the states.
  ///
  /// Only events that carry an item's content change it or its presence (updates, replaces,
  /// inserts and deletes with their subtrees), so an item's content at the start is the one
  /// the first of them recorded as before, and at the end the one the last recorded as after.
  ///
  /// - Complexity: O(items the events carry).
  static func changedItems(along events: [ListEvent<JournalValueElement, JournalValueElement>]) -> Set<String> {
    // Keyed by value, not by shown text: an identifier that only passes through may show like
    // another one.
    var first: [JournalValue: String?] = [:]
    var last: [JournalValue: String?] = [:]
    func saw(_ id: JournalValue, before: String?, after: String?) {
      if first.index(forKey: id) == nil { first[id] = .some(before) }
      last[id] = .some(after)
    }
    func saw(_ outline: ListOutline<JournalValueElement>, inserted: Bool) {
      func visit(_ nodes: [ListOutline<JournalValueElement>.Node]) {
        for node in nodes {
          let content = node.item.displayContent
          saw(node.item.id, before: inserted ? nil : content, after: inserted ? content : nil)
          visit(node.children)
        }
      }
      visit(outline.roots)
    }
    for event in events {
      switch event {
      case .updateItem(let old, let new):
        saw(old.id, before: old.displayContent, after: new.displayContent)
      case .replaceItem(let old, let new):
        if old.id == new.id {
          saw(old.id, before: old.displayContent, after: new.displayContent)
        } else {
          saw(old.id, before: old.displayContent, after: nil)
          saw(new.id, before: nil, after: new.displayContent)
        }
      case .insertItems(let outline, _), .insertSection(_, let outline, _): saw(outline, inserted: true)
      case .deleteItems(let outline, _), .deleteSection(_, let outline, _): saw(outline, inserted: false)
      default: break
      }
    }
    var changed = Set<String>()
    for (id, before) in first {
      guard let before, let after = last[id] ?? nil, before != after else { continue }
      changed.insert(id.displayText)
    }
    return changed
  }

  /// Whether the state keeps the generic values (every identifier a string, shown as itself).
  var showsGenericValues: Bool {
    if case .generic = storage { return true }
    return false
  }
}
