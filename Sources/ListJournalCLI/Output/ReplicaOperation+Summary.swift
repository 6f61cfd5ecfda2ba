import ListHistory
import ListState

extension ReplicaOperation {
  /// A short phrase for a replica's `log` and the REPL's "undid …" lines, as
  /// ``ListEvent/summary(sectionText:itemText:)`` words events.
  ///
  /// ```swift
  /// operation.summary(sectionText: { $0 }, itemText: { $0 })   // "move apple"
  /// ```
  ///
  /// - Complexity: O(identifiers named), at most a few per operation.
  func summary(sectionText: (Section.ID) -> String, itemText: (Item.ID) -> String) -> String {
    func ids(_ list: [Item.ID]) -> String { shortList(list, itemText) }
    switch self {
    case .insertSection(let section, _, _): return "insert section \(sectionText(section.id))"
    case .deleteSection(let section, _, _): return "delete section \(sectionText(section.id))"
    case .moveSection(let id, _, _): return "move section \(sectionText(id))"
    case .updateSection(_, let new): return "set section \(sectionText(new.id))"
    case .replaceSection(let old, let new): return "replace section \(sectionText(old.id)) with \(sectionText(new.id))"
    case .insertItems(let outline, _): return "insert \(ids(outline.itemIdentifiers))"
    case .deleteItems(let outline, _): return "delete \(ids(outline.itemIdentifiers))"
    case .moveItem(let id, _, _): return "move \(itemText(id))"
    case .updateItem(_, let new): return "set \(itemText(new.id))"
    case .replaceItem(let old, let new): return "replace \(itemText(old.id)) with \(itemText(new.id))"
    case .setExpanded(let id, let expanded, _): return "\(expanded ? "expand" : "collapse") \(itemText(id))"
    }
  }
}
