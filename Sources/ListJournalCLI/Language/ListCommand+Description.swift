import ListState

extension ListCommand: CustomStringConvertible {
  /// The command written back in the list language; parsing it gives the same command.
  ///
  /// ```swift
  /// ListCommand.set("a", content: "x y").description   // #"set a "x y""#
  /// ```
  /// The words that are keywords when unquoted.
  static let keywords: Set<String> = ["to", "under", "before", "after", "with", "json"]

  var description: String {
    // Identifiers spelled like keywords are quoted, since only unquoted words are keywords.
    func q(_ text: String) -> String { ListTokenizer.quoted(text, force: Self.keywords.contains(text)) }
    func ids(_ list: [String]) -> String { list.map(q).joined(separator: " ") }
    func ids(_ list: [String], _ contents: [String: String]) -> String {
      list.map { id in
        // A bound identifier needs no keyword quoting: `to="x"` is never the keyword.
        contents[id].map { ListTokenizer.quoted(id) + "=" + ListTokenizer.quoted($0, force: true) } ?? q(id)
      }.joined(separator: " ")
    }
    switch self {
    case .appendSections(let list, let contents): return "append-sections \(ids(list, contents))"
    case .insertSections(let list, let side, let anchor, let contents):
      return "insert-sections \(ids(list, contents)) \(side.rawValue) \(q(anchor))"
    case .deleteSections(let list): return "delete-sections \(ids(list))"
    case .moveSection(let id, let side, let anchor): return "move-section \(q(id)) \(side.rawValue) \(q(anchor))"
    case .setSection(let id, let content): return "set-section \(q(id)) \(ListTokenizer.quoted(content, force: true))"
    case .reloadSections(let list): return "reload-sections \(ids(list))"
    case .replaceSection(let old, let new, let content):
      return "replace-section \(q(old)) with \(q(new))" + (content.map { " " + ListTokenizer.quoted($0, force: true) } ?? "")
    case .append(let list, let section, let parent, let contents):
      return "append \(ids(list, contents))" + (section.map { " to \(q($0))" } ?? "") + (parent.map { " under \(q($0))" } ?? "")
    case .insert(let list, let side, let anchor, let contents):
      return "insert \(ids(list, contents)) \(side.rawValue) \(q(anchor))"
    case .delete(let list): return "delete \(ids(list))"
    case .deleteAll: return "delete-all"
    case .move(let id, let destination):
      switch destination {
      case .before(let anchor): return "move \(q(id)) before \(q(anchor))"
      case .after(let anchor): return "move \(q(id)) after \(q(anchor))"
      case .toSection(let section): return "move \(q(id)) to \(q(section))"
      case .under(let parent): return "move \(q(id)) under \(q(parent))"
      }
    case .set(let id, let content): return "set \(q(id)) \(ListTokenizer.quoted(content, force: true))"
    case .reload(let list): return "reload \(ids(list))"
    case .reconfigure(let list): return "reconfigure \(ids(list))"
    case .expand(let list): return "expand \(ids(list))"
    case .collapse(let list): return "collapse \(ids(list))"
    case .replace(let old, let new, let content):
      return "replace \(q(old)) with \(q(new))" + (content.map { " " + ListTokenizer.quoted($0, force: true) } ?? "")
    case .reorder(let source, let destination): return "reorder \(source) to \(destination)"
    case .begin: return "begin"
    case .commit: return "commit"
    case .rollback: return "rollback"
    case .undo(let count): return count == 1 ? "undo" : "undo \(count)"
    case .redo(let count): return count == 1 ? "redo" : "redo \(count)"
    case .checkout(let version): return "checkout \(version)"
    case .show(let json): return json ? "show json" : "show"
    case .log: return "log"
    case .diff(let from, let to, let json): return "diff \(from) \(to)" + (json ? " json" : "")
    case .help(let topic): return topic.map { "help \($0)" } ?? "help"
    }
  }

  /// A short undo-menu label: "Append 2 Items", "Move Item" — the words the library's store
  /// operations label their versions with (`ListStore.Transaction.defaultLabel`).
  var label: String {
    func items(_ verb: String, _ count: Int, _ noun: String = "Item") -> String {
      count == 1 ? "\(verb) \(noun)" : "\(verb) \(count) \(noun)s"
    }
    switch self {
    case .appendSections(let list, _): return items("Append", list.count, "Section")
    case .insertSections(let list, _, _, _): return items("Insert", list.count, "Section")
    case .deleteSections(let list): return items("Delete", list.count, "Section")
    case .moveSection: return "Move Section"
    case .setSection: return "Edit Section"
    case .reloadSections(let list): return items("Reload", list.count, "Section")
    case .replaceSection: return "Replace Section"
    case .append(let list, _, _, _): return items("Append", list.count)
    case .insert(let list, _, _, _): return items("Insert", list.count)
    case .delete(let list): return items("Delete", list.count)
    case .deleteAll: return "Delete All"
    case .move: return "Move Item"
    case .set: return "Edit Item"
    case .reload(let list): return items("Reload", list.count)
    case .reconfigure(let list): return items("Reconfigure", list.count)
    case .expand(let list): return items("Expand", list.count)
    case .collapse(let list): return items("Collapse", list.count)
    case .replace: return "Replace Item"
    case .reorder: return "Reorder"
    default: return description
    }
  }
}
