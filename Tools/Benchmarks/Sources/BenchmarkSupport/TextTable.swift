/// A table printed with its columns aligned, for a runner's summary: left-aligned text columns,
/// right-aligned figures.
///
/// ```swift
/// var table = TextTable(["what", "measured", "target"], rightAligned: [1])
/// table.add(["open", "12.3 ms", "≤ 30 ms"])
/// for line in table.lines() { Results.write(line) }
/// ```
public struct TextTable: Sendable {
  public let header: [String]
  /// The columns (by index) whose cells are right-aligned.
  public let rightAligned: Set<Int>
  public private(set) var rows: [[String]] = []

  public init(_ header: [String], rightAligned: Set<Int> = []) {
    self.header = header
    self.rightAligned = rightAligned
  }

  /// Adds a row; missing trailing cells are empty.
  public mutating func add(_ row: [String]) {
    rows.append(row + Array(repeating: "", count: max(0, header.count - row.count)))
  }

  /// The header and the rows, each a line with trailing spaces trimmed.
  public func lines() -> [String] {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      var line = ""
      for column in header.indices {
        let cell = row[column]
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        if column > 0 { line += "  " }
        line += rightAligned.contains(column) ? padding + cell : cell + padding
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
