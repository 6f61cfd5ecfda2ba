import ListState

/// A visible row as the list language names it, `SECTION:ROW`: the section by identifier (as
/// every other command names sections) or by 0-based index, the row by 0-based visible index.
///
/// ```swift
/// let row = ListRowReference(section: "Fruit", row: 2)
/// try row.resolved(in: snapshot)   // ListIndexPath(section: 0, row: 2)
/// ```
struct ListRowReference: Equatable, Sendable, CustomStringConvertible {
  /// The section as written: an identifier, or an index when no section has that identifier.
  var section: String
  var row: Int

  var description: String { "\(section):\(row)" }

  /// The index path in `list`: `section` names a section by identifier when one has it, else by
  /// index.
  ///
  /// - Throws: `.sectionsNotFound` for an identifier no section has that is no index either.
  /// - Complexity: O(log s) for s sections.
  func resolved(in list: TextSnapshot) throws(ListError<String, String>) -> ListIndexPath {
    if let index = list.index(ofSection: section) { return ListIndexPath(section: index, row: row) }
    guard let index = Int(section), index >= 0 else { throw .sectionsNotFound([section]) }
    return ListIndexPath(section: index, row: row)
  }
}
