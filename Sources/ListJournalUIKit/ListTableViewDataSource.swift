// A UITableView data source on ListPresenter, compiled only where UIKit has table views (not
// watchOS). It only forwards: the rows, the batches, the gestures and their undo labels are the
// presenter's.
#if canImport(UIKit) && !os(watchOS)
import ListJournal
import ListPresenter
import UIKit

/// A drop-in data source for a `UITableView` showing a ``ListStore``: rows animate through every
/// store change, swipe-to-delete and reordering become undoable versions.
///
/// ```swift
/// dataSource = ListTableViewDataSource(tableView: tableView, presenter: presenter) { view, indexPath, item in
///     let cell = view.dequeueReusableCell(withIdentifier: "Row", for: indexPath)
///     cell.textLabel?.text = item.title
///     return cell
/// }
/// dataSource.sectionTitle = { $0.title }
/// ```
@MainActor
public final class ListTableViewDataSource<Section: ListElement, Item: ListElement>: NSObject, UITableViewDataSource {
  public typealias CellProvider = (UITableView, IndexPath, Item) -> UITableViewCell

  /// The core every answer comes from.
  public let presenter: ListPresenter<Section, Item>
  public let cellProvider: CellProvider
  /// Section header titles.
  public var sectionTitle: ((Section) -> String?)?
  /// Whether a row may be deleted or reordered (default: every row).
  public var canEditItem: (Item) -> Bool = { _ in true }
  /// Called with the error of a gesture the store refused (the view is brought back in step).
  public var onError: ((any Error) -> Void)?

  /// Becomes `tableView`'s data source and the presenter's renderer.
  public init(
    tableView: UITableView, presenter: ListPresenter<Section, Item>, animation: UITableView.RowAnimation = .automatic,
    cellProvider: @escaping CellProvider
  ) {
    self.presenter = presenter
    self.cellProvider = cellProvider
    super.init()
    tableView.dataSource = self
    presenter.renderer = _TableViewBatches(view: tableView, animation: animation)
    tableView.reloadData()
  }

  /// A disclosure tap (from a cell's button): expands or collapses the row.
  public func toggleExpansion(at indexPath: IndexPath) {
    do { try presenter.toggleExpansion(at: ListIndexPath(indexPath)) } catch { onError?(error) }
  }

  public func numberOfSections(in tableView: UITableView) -> Int { presenter.numberOfSections }

  public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    presenter.numberOfItems(inSection: section)
  }

  public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    guard let item = presenter.item(at: ListIndexPath(indexPath)) else {
      preconditionFailure("UITableView asked for a cell at \(indexPath), which the presenter does not show")
    }
    return cellProvider(tableView, indexPath, item)
  }

  public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
    presenter.section(at: section).flatMap { sectionTitle?($0) }
  }

  public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool {
    presenter.item(at: ListIndexPath(indexPath)).map(canEditItem) ?? false
  }

  public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
    presenter.item(at: ListIndexPath(indexPath)).map(canEditItem) ?? false
  }

  public func tableView(
    _ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath
  ) {
    guard editingStyle == .delete else { return }
    do { try presenter.deleteRows(at: [ListIndexPath(indexPath)]) } catch { onError?(error) }
  }

  public func tableView(_ tableView: UITableView, moveRowAt source: IndexPath, to destination: IndexPath) {
    // The view has moved the row itself: the presenter answers with that layout at once.
    do {
      try presenter.moveRow(from: ListIndexPath(source), to: ListIndexPath(destination), viewAlreadyMoved: true)
    } catch {
      onError?(error)
    }
  }
}
#endif
