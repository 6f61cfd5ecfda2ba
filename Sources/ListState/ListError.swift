/// Why a list operation was refused.
///
/// Each of UIKit's `NSInternalInconsistencyException` cases for diffable snapshots becomes a
/// value that names the offending identifiers. An operation that throws leaves the snapshot
/// exactly as it was.
///
/// ```swift
/// do { try snapshot.appendItems(["a", "a"]) }
/// catch .duplicateItems(let ids) { print(ids) }   // ["a"]
/// ```
public enum ListError<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Error, Equatable,
  CustomStringConvertible
{
  /// The argument names the same item more than once.
  case duplicateItems([ItemID])
  /// The argument names the same section more than once.
  case duplicateSections([SectionID])
  /// Items to add are already in the list (UIKit silently moves them; we refuse).
  case itemsAlreadyExist([ItemID])
  /// Sections to add are already in the list.
  case sectionsAlreadyExist([SectionID])
  /// Items the operation names (targets or anchors) are not in the list.
  case itemsNotFound([ItemID])
  /// Sections the operation names (targets or anchors) are not in the list.
  case sectionsNotFound([SectionID])
  /// Items were appended without naming a section while the list has none.
  case noSections
  /// An item was moved, inserted or replaced relative to itself.
  case itemRelativeToItself(ItemID)
  /// A section was moved or inserted relative to itself.
  case sectionRelativeToItself(SectionID)
  /// An item was moved under (or next to) one of its own descendants.
  case itemUnderOwnDescendant(item: ItemID, destination: ItemID)
  /// The anchor of an insert is one of the items being inserted.
  case anchorAmongInsertedItems(ItemID)
  /// The anchor of a section insert is one of the sections being inserted.
  case anchorAmongInsertedSections(SectionID)
  /// A positional index is outside `0...count` (or `0..<count`, depending on the operation).
  case indexOutOfRange(index: Int, count: Int)
  /// A visible-row index path does not exist.
  case indexPathOutOfRange(section: Int, row: Int)

  @inlinable
  public var description: String {
    func list<T>(_ ids: [T]) -> String { ids.map { "'\($0)'" }.joined(separator: ", ") }
    switch self {
    case .duplicateItems(let ids): return "duplicate item identifiers in the argument: \(list(ids))"
    case .duplicateSections(let ids): return "duplicate section identifiers in the argument: \(list(ids))"
    case .itemsAlreadyExist(let ids): return "items already in the list: \(list(ids))"
    case .sectionsAlreadyExist(let ids): return "sections already in the list: \(list(ids))"
    case .itemsNotFound(let ids): return "unknown items: \(list(ids))"
    case .sectionsNotFound(let ids): return "unknown sections: \(list(ids))"
    case .noSections: return "cannot add items: the list has no sections"
    case .itemRelativeToItself(let id): return "item '\(id)' cannot be placed relative to itself"
    case .sectionRelativeToItself(let id): return "section '\(id)' cannot be placed relative to itself"
    case .itemUnderOwnDescendant(let item, let destination):
      return "item '\(item)' cannot be placed under its own descendant '\(destination)'"
    case .anchorAmongInsertedItems(let id): return "anchor item '\(id)' is among the inserted items"
    case .anchorAmongInsertedSections(let id): return "anchor section '\(id)' is among the inserted sections"
    case .indexOutOfRange(let index, let count): return "index \(index) is out of range (count \(count))"
    case .indexPathOutOfRange(let section, let row): return "no visible row at section \(section), row \(row)"
    }
  }
}
