import ListHistory
import ListState

extension ListEvent {
  /// A short phrase for `log` and the REPL's "undid …" lines, naming the identifiers involved
  /// as `sectionText`/`itemText` print them.
  ///
  /// ```swift
  /// event.summary(sectionText: { $0 }, itemText: { $0 })   // "move apple"
  /// ```
  ///
  /// - Complexity: O(identifiers named), at most a few per event.
  func summary(sectionText: (Section.ID) -> String, itemText: (Item.ID) -> String) -> String {
    func ids(_ list: [Item.ID]) -> String { shortList(list, itemText) }
    func sectionIDs(_ list: [Section.ID]) -> String { shortList(list, sectionText) }
    switch self {
    case .insertSection(let section, _, _): return "insert section \(sectionText(section.id))"
    case .deleteSection(let section, _, _): return "delete section \(sectionText(section.id))"
    case .moveSection(let id, _, _): return "move section \(sectionText(id))"
    case .updateSection(_, let new): return "set section \(sectionText(new.id))"
    case .replaceSection(let old, let new): return "replace section \(sectionText(old.id)) with \(sectionText(new.id))"
    case .reloadSections(let list): return "reload sections \(sectionIDs(list))"
    case .insertItems(let outline, _): return "insert \(ids(outline.itemIdentifiers))"
    case .deleteItems(let outline, _): return "delete \(ids(outline.itemIdentifiers))"
    case .moveItem(let id, _, _): return "move \(itemText(id))"
    case .updateItem(_, let new): return "set \(itemText(new.id))"
    case .replaceItem(let old, let new): return "replace \(itemText(old.id)) with \(itemText(new.id))"
    case .expand(let id, _): return "expand \(itemText(id))"
    case .collapse(let id, _): return "collapse \(itemText(id))"
    case .reloadItems(let list): return "reload \(ids(list))"
    case .reconfigureItems(let list): return "reconfigure \(ids(list))"
    @unknown default: return "change"
    }
  }

  /// How many changes the event counts for in `log`'s `ops`: one per section or item it
  /// inserts, deletes, moves, updates, replaces, reloads, reconfigures, expands or collapses
  /// (an item with its subtree counts once).
  ///
  /// Not one per event: events group changes by how they are encoded — `append a b` is one
  /// event, `delete a b` two, `reload a b` one — while a reader of `log` counts what changed,
  /// as the label of the command does ("Append 2 Items", "Delete 2 Items", "Reload 2 Items").
  /// Not one per command either: a journal records events, not the commands (or app calls)
  /// that made them.
  ///
  /// ```swift
  /// ListEvent<TextSection, TextItem>.reloadItems(["a", "b"]).changeCount   // 2
  /// ```
  var changeCount: Int {
    switch self {
    case .insertItems(let outline, _), .deleteItems(let outline, _): return outline.roots.count
    case .reloadItems(let ids), .reconfigureItems(let ids): return ids.count
    case .reloadSections(let ids): return ids.count
    default: return 1
    }
  }

  /// The summaries of a version's events, at most `limit` of them then "… N more".
  static func summaries(
    _ events: [ListEvent], limit: Int = 4, sectionText: (Section.ID) -> String, itemText: (Item.ID) -> String
  ) -> [String] {
    var operations = events.prefix(limit).map { $0.summary(sectionText: sectionText, itemText: itemText) }
    if events.count > limit { operations.append("… \(events.count - limit) more") }
    return operations
  }
}

extension ListEvent where Section == TextSection, Item == TextItem {
  /// The summary with identifiers quoted as the list language writes them.
  ///
  /// ```swift
  /// ListEvent<TextSection, TextItem>.moveItem("apple", from: a, to: b).summary   // "move apple"
  /// ```
  var summary: String {
    summary(sectionText: { ListTokenizer.quoted($0) }, itemText: { ListTokenizer.quoted($0) })
  }
}

extension ListEvent where Section == JournalValueElement, Item == JournalValueElement {
  /// The summary of an event of any app's journal: identifiers as their display text, quoted
  /// as the list language writes them.
  var summary: String {
    summary(
      sectionText: { ListTokenizer.quoted($0.displayText) }, itemText: { ListTokenizer.quoted($0.displayText) })
  }
}
