import ListHistory
import ListState

/// A presenter's list as a tree for an outline view (`NSOutlineView`): sections as group items
/// (or, without them, every section's root items at the top), each item's children under it, and
/// every store change as the removes, inserts, moves, expansions and reloads that bring the view
/// along (``ListOutlineUpdateTarget``).
///
/// An outline view keeps expansion itself; the adapter keeps it equal to the store's: the view's
/// disclosure clicks become versions (``viewDidExpand(_:)``, ``viewDidCollapse(_:)``), and an
/// undo collapses or expands the view. Every decision of an `NSOutlineView` data source is here,
/// on any platform; the one in ListJournalUIKit only forwards.
///
/// ```swift
/// let adapter = ListOutlineAdapter(presenter: presenter)
/// adapter.target = outlineCalls                    // any ListOutlineUpdateTarget
/// adapter.numberOfChildren(of: .section("Fruit"))  // its root items
/// adapter.child(0, of: .section("Fruit"))          // .item("Apple")
/// adapter.viewDidExpand(.item("Apple"))            // the user opened it: one "Expand"
/// ```
/// - Complexity: children of a node O(children) once per change, then O(1) per child.
@MainActor
public final class ListOutlineAdapter<Section: ListElement, Item: ListElement> {
  public typealias Node = ListOutlineNode<Section.ID, Item.ID>
  public typealias Update = ListOutlineUpdate<Section.ID, Item.ID>
  public typealias Snapshot = ListSnapshot<Section, Item>

  /// The core the list comes from and gestures go to.
  public let presenter: ListPresenter<Section, Item>
  /// Whether sections are group items at the top (otherwise every section's root items are).
  public let showsSections: Bool
  /// The view updates go to; nil: the adapter only answers.
  public var target: (any ListOutlineUpdateTarget<Section.ID, Item.ID>)?
  /// Called with the error of a disclosure click the store refused (the view is set back).
  public var onError: ((any Error) -> Void)?

  /// The list the view shows.
  var shown: Snapshot
  /// Children already listed for the shown list, by parent.
  var childCache: [Node?: [Node]] = [:]
  var cachedSnapshot: Snapshot
  /// While the adapter drives the view, the view's expansion notifications are its own.
  var isApplying = false

  /// An adapter showing the presenter's list; it follows the presenter's updates from then on
  /// (the presenter may have a renderer too, but follows one outline adapter: the latest).
  ///
  /// - Complexity: O(1).
  public init(presenter: ListPresenter<Section, Item>, showsSections: Bool = true) {
    self.presenter = presenter
    self.showsSections = showsSections
    shown = presenter.snapshot
    cachedSnapshot = presenter.snapshot
    presenter.treeObserver = { [weak self] old, new, events in
      self?.update(from: old, to: new, events: events)
    }
  }

  /// The children of `node` (nil: the top), as the data source lists them.
  func children(of node: Node?) -> [Node] {
    let snapshot = presenter.snapshot
    if !cachedSnapshot.isIdentical(to: snapshot) {
      childCache = [:]
      cachedSnapshot = snapshot
    }
    if let children = childCache[node] { return children }
    let children = _OutlineScript<Section, Item>.children(of: node, in: snapshot, showsSections: showsSections)
    childCache[node] = children
    return children
  }

  /// The number of children of a node (nil: the top) — `numberOfChildrenOfItem`.
  ///
  /// - Complexity: O(children) once per change, then O(1).
  public func numberOfChildren(of node: Node?) -> Int { children(of: node).count }

  /// The child at `index` of a node (nil: the top) — `child(_:ofItem:)`; nil when out of range.
  ///
  /// - Complexity: O(children) once per change, then O(1).
  public func child(_ index: Int, of node: Node?) -> Node? {
    let children = children(of: node)
    return children.indices.contains(index) ? children[index] : nil
  }

  /// Whether the view shows a disclosure triangle for the node — `isItemExpandable`: a section,
  /// or an item with children.
  ///
  /// - Complexity: O(children).
  public func isExpandable(_ node: Node) -> Bool {
    switch node {
    case .section(let id): showsSections && presenter.snapshot.contains(section: id)
    case .item(let id): !presenter.snapshot.children(of: id).isEmpty
    }
  }

  /// Whether the node is a section's group item — `isGroupItem`.
  public func isGroupItem(_ node: Node) -> Bool {
    if case .section = node { return true }
    return false
  }

  /// Whether the view may collapse the node (`shouldCollapseItem`): sections stay open, as the
  /// list keeps no expansion for them.
  public func canCollapse(_ node: Node) -> Bool { !isGroupItem(node) }

  /// The item a node shows (for its cell); nil for a section or an absent item.
  ///
  /// - Complexity: O(log n).
  public func item(_ node: Node) -> Item? {
    guard case .item(let id) = node else { return nil }
    return presenter.item(id)
  }

  /// The section a group item shows; nil for an item or an absent section.
  ///
  /// - Complexity: O(log n).
  public func section(_ node: Node) -> Section? {
    guard case .section(let id) = node else { return nil }
    return presenter.snapshot.section(id)
  }

  /// The node's parent (nil: the top).
  ///
  /// - Complexity: O(log n).
  public func parent(of node: Node) -> Node? {
    guard case .item(let id) = node else { return nil }
    return _OutlineScript<Section, Item>.parentNode(of: id, in: presenter.snapshot, showsSections: showsSections)
  }
}
