// An NSTableView data source on ListPresenter's ListTableAdapter, compiled only where AppKit
// exists (not Mac Catalyst). It only forwards: which row is a header, the steps of each update,
// what a drop means and the gestures' versions are the adapter's and the presenter's.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ListJournal
import ListPresenter

/// A drop-in data source and delegate for a view-based `NSTableView` showing a ``ListStore``:
/// section headers as group rows, rows animating through every store change, drag-to-reorder as
/// an undoable version.
///
/// ```swift
/// dataSource = ListNSTableViewDataSource(tableView: tableView, presenter: presenter) { view, column, row, item in
///     let cell = view.makeView(withIdentifier: .init("Row"), owner: nil) as? NSTableCellView
///     cell?.textField?.stringValue = item.title
///     return cell
/// }
/// ```
@MainActor
public final class ListNSTableViewDataSource<Section: ListElement, Item: ListElement>: NSObject,
  NSTableViewDataSource, NSTableViewDelegate
{
  public typealias CellProvider = (NSTableView, NSTableColumn?, Int, Item) -> NSView?
  public typealias HeaderProvider = (NSTableView, Int, Section) -> NSView?

  /// The core every answer comes from.
  public let adapter: ListTableAdapter<Section, Item>
  public let cellProvider: CellProvider
  /// The views of section headers (group rows).
  public var headerProvider: HeaderProvider?
  /// Whether a row may be dragged (default: every row).
  public var canMoveItem: (Item) -> Bool = { _ in true }
  /// Called with the error of a gesture the store refused.
  public var onError: ((any Error) -> Void)?

  /// The pasteboard type of a dragged row (its table row number).
  public static var rowPasteboardType: NSPasteboard.PasteboardType { .init("org.listjournal.table-row") }

  /// Becomes `tableView`'s data source and delegate, and the presenter's renderer.
  public init(
    tableView: NSTableView, presenter: ListPresenter<Section, Item>, showsSectionHeaders: Bool = true,
    animation: NSTableView.AnimationOptions = .effectFade, cellProvider: @escaping CellProvider
  ) {
    adapter = ListTableAdapter(presenter: presenter, showsSectionHeaders: showsSectionHeaders)
    self.cellProvider = cellProvider
    super.init()
    adapter.target = _NSTableViewSteps(view: tableView, animation: animation)
    tableView.dataSource = self
    tableView.delegate = self
    tableView.registerForDraggedTypes([Self.rowPasteboardType])
    tableView.reloadData()
  }

  /// A disclosure click on a row's button: expands or collapses it.
  public func toggleExpansion(atRow row: Int) {
    do { try adapter.toggleExpansion(atRow: row) } catch { onError?(error) }
  }

  /// A delete (the delete key, a menu item) of the selected rows, with their subtrees.
  public func deleteRows(_ rows: IndexSet) {
    do { try adapter.deleteRows(Array(rows)) } catch { onError?(error) }
  }

  public func numberOfRows(in tableView: NSTableView) -> Int { adapter.numberOfRows }

  public func tableView(_ tableView: NSTableView, viewFor tableColumn: NSTableColumn?, row: Int) -> NSView? {
    if let section = adapter.section(atRow: row) { return headerProvider?(tableView, row, section) }
    return adapter.item(atRow: row).flatMap { cellProvider(tableView, tableColumn, row, $0) }
  }

  public func tableView(_ tableView: NSTableView, isGroupRow row: Int) -> Bool { adapter.isGroupRow(row) }

  public func tableView(_ tableView: NSTableView, shouldSelectRow row: Int) -> Bool { !adapter.isGroupRow(row) }

  public func tableView(_ tableView: NSTableView, pasteboardWriterForRow row: Int) -> (any NSPasteboardWriting)? {
    guard let item = adapter.item(atRow: row), canMoveItem(item) else { return nil }
    let writer = NSPasteboardItem()
    writer.setString(String(row), forType: Self.rowPasteboardType)
    return writer
  }

  public func tableView(
    _ tableView: NSTableView, validateDrop info: any NSDraggingInfo, proposedRow row: Int,
    proposedDropOperation dropOperation: NSTableView.DropOperation
  ) -> NSDragOperation {
    guard dropOperation == .above, let source = Self.draggedRow(info, from: tableView),
      adapter.canMoveRow(source, aboveRow: row)
    else { return [] }
    return .move
  }

  public func tableView(
    _ tableView: NSTableView, acceptDrop info: any NSDraggingInfo, row: Int, dropOperation: NSTableView.DropOperation
  ) -> Bool {
    guard dropOperation == .above, let source = Self.draggedRow(info, from: tableView) else { return false }
    do {
      try adapter.moveRow(source, aboveRow: row)
      return true
    } catch {
      onError?(error)
      return false
    }
  }

  /// The table row a drag from this table carries.
  static func draggedRow(_ info: any NSDraggingInfo, from tableView: NSTableView) -> Int? {
    guard (info.draggingSource as? NSTableView) === tableView else { return nil }
    return info.draggingPasteboard.pasteboardItems?.first?.string(forType: rowPasteboardType).flatMap { Int($0) }
  }
}

/// An NSTableView as the adapter's target: each step is one call, as `NSTableView` reads them.
@MainActor
struct _NSTableViewSteps: ListTableUpdateTarget {
  let view: NSTableView
  let animation: NSTableView.AnimationOptions

  var isShowingRows: Bool { view.window != nil }
  func reloadData() { view.reloadData() }
  func beginUpdates() { view.beginUpdates() }
  func apply(_ update: ListSequentialUpdate) {
    switch update {
    case .remove(let rows): view.removeRows(at: IndexSet(rows), withAnimation: animation)
    case .insert(let rows): view.insertRows(at: IndexSet(rows), withAnimation: animation)
    case .move(let from, let to): view.moveRow(at: from, to: to)
    }
  }
  func endUpdates() { view.endUpdates() }
  func reloadRows(_ rows: [Int]) {
    view.reloadData(forRowIndexes: IndexSet(rows), columnIndexes: IndexSet(0..<view.numberOfColumns))
  }
}
#endif
