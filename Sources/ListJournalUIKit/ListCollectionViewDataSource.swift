// A UICollectionView data source on ListPresenter, compiled only where UIKit has collection
// views (not watchOS). It only forwards: the rows, the batches, the gestures and their undo
// labels are the presenter's.
#if canImport(UIKit) && !os(watchOS)
import ListJournal
import ListPresenter
import UIKit

/// A drop-in data source for a `UICollectionView` showing a ``ListStore`` — what
/// `UICollectionViewDiffableDataSource` is for snapshots, with the store's history behind it:
/// every commit, undo, redo or checkout animates, and a drag or a delete becomes an undoable
/// version.
///
/// ```swift
/// dataSource = ListCollectionViewDataSource(collectionView: collectionView, presenter: presenter) { view, indexPath, item in
///     view.dequeueConfiguredReusableCell(using: cellRegistration, for: indexPath, item: item)
/// }
/// dataSource.supplementaryViewProvider = { view, kind, indexPath, section in … }   // headers
/// ```
@MainActor
public final class ListCollectionViewDataSource<Section: ListElement, Item: ListElement>: NSObject,
  UICollectionViewDataSource
{
  public typealias CellProvider = (UICollectionView, IndexPath, Item) -> UICollectionViewCell
  public typealias SupplementaryViewProvider = (UICollectionView, String, IndexPath, Section?) -> UICollectionReusableView

  /// The core every answer comes from.
  public let presenter: ListPresenter<Section, Item>
  public let cellProvider: CellProvider
  /// Section headers and footers (`elementKindSectionHeader`, …), handed the section's value.
  public var supplementaryViewProvider: SupplementaryViewProvider?
  /// Whether a row may be dragged (default: every row).
  public var canMoveItem: (Item) -> Bool = { _ in true }
  /// Called with the error of a gesture the store refused (the view is brought back in step).
  public var onError: ((any Error) -> Void)?

  /// Becomes `collectionView`'s data source and the presenter's renderer.
  public init(collectionView: UICollectionView, presenter: ListPresenter<Section, Item>, cellProvider: @escaping CellProvider) {
    self.presenter = presenter
    self.cellProvider = cellProvider
    super.init()
    collectionView.dataSource = self
    presenter.renderer = _CollectionViewBatches(view: collectionView)
    collectionView.reloadData()
  }

  /// A disclosure tap (from a cell's outline accessory or button): expands or collapses the row.
  public func toggleExpansion(at indexPath: IndexPath) {
    do { try presenter.toggleExpansion(at: ListIndexPath(indexPath)) } catch { onError?(error) }
  }

  /// A delete (a swipe action, a context menu): deletes the rows with their subtrees.
  public func deleteItems(at indexPaths: [IndexPath]) {
    do { try presenter.deleteRows(at: indexPaths.map(ListIndexPath.init)) } catch { onError?(error) }
  }

  public func numberOfSections(in collectionView: UICollectionView) -> Int { presenter.numberOfSections }

  public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    presenter.numberOfItems(inSection: section)
  }

  public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    guard let item = presenter.item(at: ListIndexPath(indexPath)) else {
      preconditionFailure("UICollectionView asked for a cell at \(indexPath), which the presenter does not show")
    }
    return cellProvider(collectionView, indexPath, item)
  }

  public func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
  ) -> UICollectionReusableView {
    guard let supplementaryViewProvider else {
      preconditionFailure("a supplementary view was asked for without a supplementaryViewProvider")
    }
    return supplementaryViewProvider(collectionView, kind, indexPath, presenter.section(at: indexPath.section))
  }

  public func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
    presenter.item(at: ListIndexPath(indexPath)).map(canMoveItem) ?? false
  }

  public func collectionView(_ collectionView: UICollectionView, moveItemAt source: IndexPath, to destination: IndexPath) {
    // The view has moved the cell itself: the presenter answers with that layout at once.
    do {
      try presenter.moveRow(from: ListIndexPath(source), to: ListIndexPath(destination), viewAlreadyMoved: true)
    } catch {
      onError?(error)
    }
  }
}

extension ListIndexPath {
  /// The visible-row position of a UIKit index path.
  init(_ indexPath: IndexPath) { self.init(section: indexPath.section, row: indexPath.item) }
}
#endif
