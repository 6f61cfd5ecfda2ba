import BenchmarkSupport
import ListJournal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A list's state in a plain file, one row a line, parents before their children:
/// `section TAB parent-or-empty TAB expanded(0|1) TAB id TAB title`. A separate process builds
/// the same state from it without any journal, to weigh what the state alone takes in memory.
enum HeadDump {
  static func write(_ snapshot: RowStore.Snapshot, to path: String) {
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    defer { fclose(file) }
    func write(_ id: String, parent: String?, section: String) {
      let row = snapshot.item(id)!
      let expanded = snapshot.isExpanded(id) ? "1" : "0"
      fputs("\(section)\t\(parent ?? "")\t\(expanded)\t\(id)\t\(row.title)\n", file)
      for child in snapshot.children(of: id) { write(child, parent: id, section: section) }
    }
    for section in snapshot.sectionIdentifiers {
      for root in snapshot.rootItems(inSection: section) { write(root, parent: nil, section: section) }
    }
  }

  /// The state the file at `path` describes.
  static func read(_ path: String) throws -> RowStore.Snapshot {
    var sections: [String] = []
    var roots: [String: [Row]] = [:]
    // Children by parent, the parents in the order they first appear: each appears after
    // its own parent's children began, so appending the lists in this order finds every parent.
    var childLists: [(parent: String, rows: [Row])] = []
    var childListOf: [String: Int] = [:]
    var expanded: [String] = []
    forEachLine(ofFile: path) { line in
      let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
      precondition(fields.count == 5, "not a head dump line: \(line)")
      let section = String(fields[0])
      let parent = String(fields[1])
      let row = Row(id: String(fields[3]), title: String(fields[4]))
      if fields[2] == "1" { expanded.append(row.id) }
      if parent.isEmpty {
        if roots[section] == nil { sections.append(section) }
        roots[section, default: []].append(row)
      } else if let list = childListOf[parent] {
        childLists[list].rows.append(row)
      } else {
        childListOf[parent] = childLists.count
        childLists.append((parent, [row]))
      }
    }
    var snapshot = RowStore.Snapshot()
    try snapshot.appendSections(sections)
    for section in sections { try snapshot.appendItems(roots[section]!, toSection: section) }
    for list in childLists { try snapshot.appendItems(list.rows, underParent: list.parent) }
    if !expanded.isEmpty { try snapshot.expand(expanded) }
    snapshot.clearMarkers()
    return snapshot
  }
}
