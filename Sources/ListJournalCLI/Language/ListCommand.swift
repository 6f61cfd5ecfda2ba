import ListState

/// One parsed command of the list language.
///
/// Sections and items have separate namespaces, so every identifier is a plain `String` whose
/// kind the case tells. See ``ListCommandParser`` for the grammar and ``ListCommandHelp`` for
/// the text `help` prints.
///
/// ```swift
/// try ListCommandParser.parse("move apple under fruit")
/// // .moveItem("apple", .under("fruit"))
/// ```
enum ListCommand: Equatable, Sendable {
  /// `before|after` an anchor.
  enum Side: String, Equatable, Sendable {
    case before, after
  }

  /// Where `move I …` puts the item.
  enum ItemDestination: Equatable, Sendable {
    case before(String)
    case after(String)
    /// The last root item of the section.
    case toSection(String)
    /// The last child of the parent.
    case under(String)
  }

  // Sections
  // A creating command's `contents` give new elements their contents (`a="Apple"`); the
  // others are created with an empty one.
  case appendSections([String], contents: [String: String] = [:])
  case insertSections([String], Side, anchor: String, contents: [String: String] = [:])
  case deleteSections([String])
  case moveSection(String, Side, anchor: String)
  case setSection(String, content: String)
  case reloadSections([String])
  case replaceSection(String, with: String, content: String?)

  // Items
  case append([String], section: String?, parent: String?, contents: [String: String] = [:])
  case insert([String], Side, anchor: String, contents: [String: String] = [:])
  case delete([String])
  case deleteAll
  case move(String, ItemDestination)
  case set(String, content: String)
  case reload([String])
  case reconfigure([String])
  case expand([String])
  case collapse([String])
  case replace(String, with: String, content: String?)
  /// A drag between visible rows: section index and visible row index, both 0-based.
  case reorder(from: ListRowReference, to: ListRowReference)

  // Transactions and history
  case begin
  case commit
  case rollback
  case undo(Int)
  case redo(Int)
  case checkout(VersionReference)

  // Inspection
  case show(json: Bool)
  case log
  case diff(VersionReference, VersionReference, json: Bool)
  case help(String?)

  /// True for the commands that change the list (and so belong to a transaction).
  var isMutation: Bool {
    switch self {
    case .appendSections, .insertSections, .deleteSections, .moveSection, .setSection, .reloadSections,
      .replaceSection, .append, .insert, .delete, .deleteAll, .move, .set, .reload, .reconfigure, .expand,
      .collapse, .replace, .reorder:
      return true
    case .begin, .commit, .rollback, .undo, .redo, .checkout, .show, .log, .diff, .help:
      return false
    }
  }
}
