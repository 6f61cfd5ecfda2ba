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
    func ids(_ list: [Item.ID]) -> String {
      let shown = list.prefix(3).map(itemText).joined(separator: " ")
      return list.count > 3 ? "\(shown) (+\(list.count - 3))" : shown
    }
    func sectionIDs(_ list: [Section.ID]) -> String {
      let shown = list.prefix(3).map(sectionText).joined(separator: " ")
      return list.count > 3 ? "\(shown) (+\(list.count - 3))" : shown
    }
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
