// An NSCollectionView data source on ListPresenter, compiled only where AppKit exists (not Mac
// Catalyst). It only forwards: the rows, the batches, the gestures are the presenter's.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ListJournal
import ListPresenter

/// A drop-in data source for an `NSCollectionView` showing a ``ListStore``: items animate
/// through every store change; the app's drag-and-drop delegate and menu actions call
/// ``moveItem(from:to:)``, ``toggleExpansion(at:)`` and ``deleteItems(at:)``, each an undoable
/// version.
///
/// ```swift
/// dataSource = ListNSCollectionViewDataSource(collectionView: collectionView, presenter: presenter) { view, indexPath, item in
///     let cell = view.makeItem(withIdentifier: .init("Row"), for: indexPath)
///     cell.textField?.stringValue = item.title
///     return cell
/// }
/// ```
@MainActor
public final class ListNSCollectionViewDataSource<Section: ListElement, Item: ListElement>: NSObject,
  NSCollectionViewDataSource
{
  public typealias ItemProvider = (NSCollectionView, IndexPath, Item) -> NSCollectionViewItem
  public typealias SupplementaryViewProvider = (NSCollectionView, NSCollectionView.SupplementaryElementKind, IndexPath, Section?) -> NSView

  /// The core every answer comes from.
  public let presenter: ListPresenter<Section, Item>
  public let itemProvider: ItemProvider
  /// Section headers and footers, handed the section's value.
  public var supplementaryViewProvider: SupplementaryViewProvider?
  /// Called with the error of a gesture the store refused.
  public var onError: ((any Error) -> Void)?

  /// Becomes `collectionView`'s data source and the presenter's renderer.
  public init(collectionView: NSCollectionView, presenter: ListPresenter<Section, Item>, itemProvider: @escaping ItemProvider) {
    self.presenter = presenter
    self.itemProvider = itemProvider
    super.init()
    collectionView.dataSource = self
    presenter.renderer = _NSCollectionViewBatches(view: collectionView)
    collectionView.reloadData()
  }

  /// A drop at `destination` of a row dragged from `source` (call it from the delegate's
  /// `acceptDrop`; the view has not moved anything, so the presenter animates the move).
  public func moveItem(from source: IndexPath, to destination: IndexPath) {
    do {
      try presenter.moveRow(from: Self.listIndexPath(source), to: Self.listIndexPath(destination))
    } catch {
      onError?(error)
    }
  }

  /// A disclosure click: expands or collapses the row.
  public func toggleExpansion(at indexPath: IndexPath) {
    do { try presenter.toggleExpansion(at: Self.listIndexPath(indexPath)) } catch { onError?(error) }
  }

  /// A delete (a menu item, the delete key): deletes the rows with their subtrees.
  public func deleteItems(at indexPaths: [IndexPath]) {
    do { try presenter.deleteRows(at: indexPaths.map(Self.listIndexPath)) } catch { onError?(error) }
  }

  public func numberOfSections(in collectionView: NSCollectionView) -> Int { presenter.numberOfSections }

  public func collectionView(_ collectionView: NSCollectionView, numberOfItemsInSection section: Int) -> Int {
    presenter.numberOfItems(inSection: section)
  }

  public func collectionView(
    _ collectionView: NSCollectionView, itemForRepresentedObjectAt indexPath: IndexPath
  ) -> NSCollectionViewItem {
    guard let item = presenter.item(at: Self.listIndexPath(indexPath)) else {
      preconditionFailure("NSCollectionView asked for an item at \(indexPath), which the presenter does not show")
    }
    return itemProvider(collectionView, indexPath, item)
  }

  public func collectionView(
    _ collectionView: NSCollectionView, viewForSupplementaryElementOfKind kind: NSCollectionView.SupplementaryElementKind,
    at indexPath: IndexPath
  ) -> NSView {
    guard let supplementaryViewProvider else {
      preconditionFailure("a supplementary view was asked for without a supplementaryViewProvider")
    }
    return supplementaryViewProvider(collectionView, kind, indexPath, presenter.section(at: indexPath.section))
  }

  static func listIndexPath(_ indexPath: IndexPath) -> ListIndexPath {
    ListIndexPath(section: indexPath.section, row: indexPath.item)
  }
}
#endif
