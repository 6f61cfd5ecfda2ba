/// Why a table adapter refused a row index (``ListTableAdapter``).
///
/// ```swift
/// try adapter.toggleExpansion(atRow: 0)   // throws .notAnItem(row: 0): a section header
/// ```
public enum ListTableError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The table has no such row.
  case rowOutOfRange(row: Int, numberOfRows: Int)
  /// The row is a section header, where an item was needed.
  case notAnItem(row: Int)

  public var description: String {
    switch self {
    case .rowOutOfRange(let row, let count): "row \(row) is out of range: the table has \(count) rows"
    case .notAnItem(let row): "row \(row) is a section header, not an item"
    }
  }
}
