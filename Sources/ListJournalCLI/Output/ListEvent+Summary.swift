import ListHistory
import ListState

extension ListEvent where Section == TextSection, Item == TextItem {
  /// A short phrase for the REPL's "undid …" lines, naming the identifiers involved.
  ///
  /// ```swift
  /// ListEvent<TextSection, TextItem>.moveItem("apple", from: a, to: b).summary   // "move apple"
  /// ```
  ///
  /// - Complexity: O(identifiers named), at most a few per event.
  var summary: String {
    func ids(_ list: [String]) -> String {
      let shown = list.prefix(3).map { ListTokenizer.quoted($0) }.joined(separator: " ")
      return list.count > 3 ? "\(shown) (+\(list.count - 3))" : shown
    }
    switch self {
    case .insertSection(let section, _, _): return "insert section \(ListTokenizer.quoted(section.id))"
    case .deleteSection(let section, _, _): return "delete section \(ListTokenizer.quoted(section.id))"
    case .moveSection(let id, _, _): return "move section \(ListTokenizer.quoted(id))"
    case .updateSection(_, let new): return "set section \(ListTokenizer.quoted(new.id))"
    case .replaceSection(let old, let new):
      return "replace section \(ListTokenizer.quoted(old.id)) with \(ListTokenizer.quoted(new.id))"
    case .reloadSections(let list): return "reload sections \(ids(list))"
    case .insertItems(let outline, _): return "insert \(ids(outline.itemIdentifiers))"
    case .deleteItems(let outline, _): return "delete \(ids(outline.itemIdentifiers))"
    case .moveItem(let id, _, _): return "move \(ListTokenizer.quoted(id))"
    case .updateItem(_, let new): return "set \(ListTokenizer.quoted(new.id))"
    case .replaceItem(let old, let new): return "replace \(ListTokenizer.quoted(old.id)) with \(ListTokenizer.quoted(new.id))"
    case .expand(let id, _): return "expand \(ListTokenizer.quoted(id))"
    case .collapse(let id, _): return "collapse \(ListTokenizer.quoted(id))"
    case .reloadItems(let list): return "reload \(ids(list))"
    case .reconfigureItems(let list): return "reconfigure \(ids(list))"
    @unknown default: return "change"
    }
  }
}
