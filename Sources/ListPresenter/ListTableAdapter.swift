import ListDiff
import ListState

/// A presenter's rows as one list, for a table without sections (`NSTableView`): each section's
/// header is a group row followed by the section's visible rows, and every batch the presenter
/// hands over becomes steps the table applies one after another (``ListTableUpdateTarget``).
///
/// Every decision of an `NSTableView` data source is here, on any platform: which row is a group
/// row, which index path a row shows, what a drop above a row means, and the order of removes,
/// inserts and moves. The data source in ListJournalUIKit only forwards.
///
/// ```swift
/// let adapter = ListTableAdapter(presenter: presenter)   // becomes the presenter's renderer
/// adapter.target = tableBatches                           // any ListTableUpdateTarget
/// adapter.numberOfRows                                    // headers and visible rows
/// adapter.row(at: 3)                                      // .item(0:2)
/// try adapter.moveRow(3, aboveRow: 1)                     // a drag, one undoable "Move"
/// ```
/// - Complexity: row lookups O(log sections) after an O(sections · log n) layout rebuilt once
///   per change; a batch O(rows + operations · log rows).
@MainActor
public final class ListTableAdapter<Section: ListElement, Item: ListElement> {
  /// The core the rows come from and gestures go to.
  public let presenter: ListPresenter<Section, Item>
  /// Whether each section starts with a header row.
  public let showsSectionHeaders: Bool
  /// The table updates go to; nil: the adapter only answers.
  public var target: (any ListTableUpdateTarget)?

  /// `starts[s]`: the table row where section `s` starts; the last entry is the row count.
  var starts: [Int] = [0]
  /// The presenter's layout generation `starts` was built for.
  var startsGeneration = -1
  /// The batch being recorded, while the presenter hands one over.
  var batch: ListChangeset<Section.ID, Item.ID>.Stage?

  /// An adapter showing the presenter's rows; it becomes the presenter's renderer.
  ///
  /// - Complexity: O(1).
  public init(presenter: ListPresenter<Section, Item>, showsSectionHeaders: Bool = true) {
    self.presenter = presenter
    self.showsSectionHeaders = showsSectionHeaders
    presenter.renderer = _WeakRenderer(self)
  }

  /// The section starts, rebuilt when the presenter's rows changed.
  func layout() -> [Int] {
    if startsGeneration != presenter.layoutGeneration {
      let header = showsSectionHeaders ? 1 : 0
      var starts = [0]
      starts.reserveCapacity(presenter.numberOfSections + 1)
      for section in 0..<presenter.numberOfSections {
        starts.append(starts[section] + header + presenter.numberOfItems(inSection: section))
      }
      self.starts = starts
      startsGeneration = presenter.layoutGeneration
    }
    return starts
  }

  /// The number of table rows: headers and visible rows.
  ///
  /// - Complexity: O(1) once the layout is built.
  public var numberOfRows: Int { layout().last! }

  /// What the table row at `index` shows; nil when out of range.
  ///
  /// - Complexity: O(log sections).
  public func row(at index: Int) -> ListTableRow? {
    let starts = layout()
    guard index >= 0, index < starts.last! else { return nil }
    // The last section starting at or before `index` (empty sections without headers start where the next does).
    var low = 0
    var high = starts.count - 2
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    let offset = index - starts[low]
    if showsSectionHeaders {
      return offset == 0 ? .sectionHeader(low) : .item(ListIndexPath(section: low, row: offset - 1))
    }
    return .item(ListIndexPath(section: low, row: offset))
  }

  /// The table row showing `row`; nil when there is none.
  ///
  /// - Complexity: O(log n).
  public func index(of row: ListTableRow) -> Int? {
    let starts = layout()
    switch row {
    case .sectionHeader(let section):
      guard showsSectionHeaders, section >= 0, section < starts.count - 1 else { return nil }
      return starts[section]
    case .item(let path):
      guard path.section >= 0, path.section < starts.count - 1, path.row >= 0,
        path.row < presenter.numberOfItems(inSection: path.section)
      else { return nil }
      return starts[path.section] + (showsSectionHeaders ? 1 : 0) + path.row
    }
  }

  /// The table row showing an item; nil when it is hidden or absent.
  ///
  /// - Complexity: O(depth · log n).
  public func index(ofItem id: Item.ID) -> Int? {
    presenter.indexPath(for: id).flatMap { index(of: .item($0)) }
  }

  /// Whether the row is a section header (`tableView(_:isGroupRow:)`).
  ///
  /// - Complexity: O(log sections).
  public func isGroupRow(_ index: Int) -> Bool {
    if case .sectionHeader? = row(at: index) { return true }
    return false
  }

  /// The identifier of the item shown at a table row; nil for a header or out of range.
  ///
  /// - Complexity: O(log sections + depth · log n).
  public func itemIdentifier(atRow index: Int) -> Item.ID? {
    guard case .item(let path)? = row(at: index) else { return nil }
    return presenter.itemIdentifier(at: path)
  }

  /// The item shown at a table row (for its cell); nil for a header or out of range.
  ///
  /// - Complexity: O(log sections + depth · log n).
  public func item(atRow index: Int) -> Item? {
    guard case .item(let path)? = row(at: index) else { return nil }
    return presenter.item(at: path)
  }

  /// The section whose header is shown at a table row; nil for an item or out of range.
  ///
  /// - Complexity: O(log n).
  public func section(atRow index: Int) -> Section? {
    guard case .sectionHeader(let section)? = row(at: index) else { return nil }
    return presenter.section(at: section)
  }
}
