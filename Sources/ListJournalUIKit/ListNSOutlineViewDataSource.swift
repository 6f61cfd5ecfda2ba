// An NSOutlineView data source on ListPresenter's ListOutlineAdapter, compiled only where AppKit
// exists (not Mac Catalyst). It only forwards: the tree, the calls of each update, what a drop
// means and the versions clicks and drops record are the adapter's.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ListJournal
import ListPresenter

/// A drop-in data source and delegate for a view-based `NSOutlineView` showing a ``ListStore``:
/// sections as group items, items with their children, every store change animated, disclosure
/// clicks and drag-to-reorder as undoable versions, and the view's expansion kept equal to the
/// store's (an undo collapses what an "Expand" opened).
///
/// ```swift
/// dataSource = ListNSOutlineViewDataSource(outlineView: outlineView, presenter: presenter) { view, column, item in
///     let cell = view.makeView(withIdentifier: .init("Row"), owner: nil) as? NSTableCellView
///     cell?.textField?.stringValue = item.title
///     return cell
/// }
/// ```
@MainActor
public final class ListNSOutlineViewDataSource<Section: ListElement, Item: ListElement>: NSObject,
  NSOutlineViewDataSource, NSOutlineViewDelegate
{
  public typealias Node = ListOutlineNode<Section.ID, Item.ID>
  public typealias CellProvider = (NSOutlineView, NSTableColumn?, Item) -> NSView?
  public typealias HeaderProvider = (NSOutlineView, NSTableColumn?, Section) -> NSView?

  /// The core every answer comes from.
  public let adapter: ListOutlineAdapter<Section, Item>
  public let cellProvider: CellProvider
  /// The views of section group items.
  public var headerProvider: HeaderProvider?
  /// Whether an item may be dragged (default: every item).
  public var canMoveItem: (Item) -> Bool = { _ in true }
  /// Called with the error of a click or drop the store refused.
  public var onError: ((any Error) -> Void)? {
    get { adapter.onError }
    set { adapter.onError = newValue }
  }

  /// One object per node: the view tells items apart by object.
  private var objects: [Node: _ListOutlineObject<Section.ID, Item.ID>] = [:]
  /// The item being dragged from this view.
  private var dragged: Node?

  /// The pasteboard type of a dragged item (the drag stays in this view).
  public static var itemPasteboardType: NSPasteboard.PasteboardType { .init("org.listjournal.outline-item") }

  /// Becomes `outlineView`'s data source and delegate, and follows the presenter.
  public init(
    outlineView: NSOutlineView, presenter: ListPresenter<Section, Item>, showsSections: Bool = true,
    animation: NSTableView.AnimationOptions = .effectFade, cellProvider: @escaping CellProvider
  ) {
    adapter = ListOutlineAdapter(presenter: presenter, showsSections: showsSections)
    self.cellProvider = cellProvider
    super.init()
    adapter.target = _NSOutlineViewCalls(view: outlineView, animation: animation) { [unowned self] in self.object(for: $0) }
    outlineView.dataSource = self
    outlineView.delegate = self
    outlineView.registerForDraggedTypes([Self.itemPasteboardType])
    adapter.reloadView()
  }

  /// The view's object for a node (nil: the root).
  public func object(for node: Node?) -> Any? {
    guard let node else { return nil }
    if let object = objects[node] { return object }
    let object = _ListOutlineObject(node)
    objects[node] = object
    return object
  }

  /// The node behind one of the view's objects (nil: the root, or not this data source's).
  public func node(for object: Any?) -> Node? { (object as? _ListOutlineObject<Section.ID, Item.ID>)?.node }

  public func outlineView(_ outlineView: NSOutlineView, numberOfChildrenOfItem item: Any?) -> Int {
    adapter.numberOfChildren(of: node(for: item))
  }

  public func outlineView(_ outlineView: NSOutlineView, child index: Int, ofItem item: Any?) -> Any {
    guard let child = adapter.child(index, of: node(for: item)), let object = object(for: child) else {
      preconditionFailure("NSOutlineView asked for child \(index) of \(String(describing: item)), which the adapter does not list")
    }
    return object
  }

  public func outlineView(_ outlineView: NSOutlineView, isItemExpandable item: Any) -> Bool {
    node(for: item).map(adapter.isExpandable) ?? false
  }

  public func outlineView(_ outlineView: NSOutlineView, viewFor tableColumn: NSTableColumn?, item: Any) -> NSView? {
    guard let node = node(for: item) else { return nil }
    if let section = adapter.section(node) { return headerProvider?(outlineView, tableColumn, section) }
    return adapter.item(node).flatMap { cellProvider(outlineView, tableColumn, $0) }
  }

  public func outlineView(_ outlineView: NSOutlineView, isGroupItem item: Any) -> Bool {
    node(for: item).map(adapter.isGroupItem) ?? false
  }

  public func outlineView(_ outlineView: NSOutlineView, shouldCollapseItem item: Any) -> Bool {
    node(for: item).map(adapter.canCollapse) ?? true
  }

  public func outlineViewItemDidExpand(_ notification: Notification) {
    if let node = node(for: notification.userInfo?["NSObject"]) { adapter.viewDidExpand(node) }
  }

  public func outlineViewItemDidCollapse(_ notification: Notification) {
    if let node = node(for: notification.userInfo?["NSObject"]) { adapter.viewDidCollapse(node) }
  }

  public func outlineView(_ outlineView: NSOutlineView, pasteboardWriterForItem item: Any) -> (any NSPasteboardWriting)? {
    guard let node = node(for: item), let value = adapter.item(node), canMoveItem(value) else { return nil }
    dragged = node
    let writer = NSPasteboardItem()
    writer.setString("", forType: Self.itemPasteboardType)
    return writer
  }

  public func outlineView(
    _ outlineView: NSOutlineView, draggingSession session: NSDraggingSession, endedAt screenPoint: NSPoint,
    operation: NSDragOperation
  ) {
    dragged = nil
  }

  public func outlineView(
    _ outlineView: NSOutlineView, validateDrop info: any NSDraggingInfo, proposedItem item: Any?,
    proposedChildIndex index: Int
  ) -> NSDragOperation {
    guard (info.draggingSource as? NSOutlineView) === outlineView, case .item(let id)? = dragged,
      (try? adapter.moveDestination(of: id, toParent: node(for: item), childIndex: index)) != nil
    else { return [] }
    return .move
  }

  public func outlineView(
    _ outlineView: NSOutlineView, acceptDrop info: any NSDraggingInfo, item: Any?, childIndex index: Int
  ) -> Bool {
    guard case .item(let id)? = dragged else { return false }
    do {
      try adapter.moveItem(id, toParent: node(for: item), childIndex: index)
      return true
    } catch {
      onError?(error)
      return false
    }
  }
}

/// A node as the object an outline view holds (one per node, equal by node).
final class _ListOutlineObject<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: NSObject {
  let node: ListOutlineNode<SectionID, ItemID>

  init(_ node: ListOutlineNode<SectionID, ItemID>) { self.node = node }

  override func isEqual(_ object: Any?) -> Bool { (object as? _ListOutlineObject<SectionID, ItemID>)?.node == node }
  override var hash: Int { node.hashValue }
}

/// An NSOutlineView as the adapter's target: each update is one call.
@MainActor
struct _NSOutlineViewCalls<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: ListOutlineUpdateTarget {
  let view: NSOutlineView
  let animation: NSTableView.AnimationOptions
  let object: (ListOutlineNode<SectionID, ItemID>?) -> Any?

  var isShowingRows: Bool { view.window != nil }
  func reloadData() { view.reloadData() }
  func beginUpdates() { view.beginUpdates() }
  func endUpdates() { view.endUpdates() }
  func apply(_ update: ListOutlineUpdate<SectionID, ItemID>) {
    switch update {
    case .remove(let indexes, let parent):
      view.removeItems(at: IndexSet(indexes), inParent: object(parent), withAnimation: animation)
    case .insert(let indexes, let parent):
      view.insertItems(at: IndexSet(indexes), inParent: object(parent), withAnimation: animation)
    case .move(let from, let parent, let to):
      view.moveItem(at: from, inParent: object(parent), to: to, inParent: object(parent))
    case .expand(let node): view.expandItem(object(node))
    case .collapse(let node): view.collapseItem(object(node))
    case .reload(let node): view.reloadItem(object(node), reloadChildren: false)
    }
  }
}
#endif
