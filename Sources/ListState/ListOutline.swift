/// A plain forest of items with expansion flags: the argument and result type of the
/// outline operations (`insert(_:beforeItem:)`, `replace(childrenOf:using:)`,
/// `outline(of:includingParent:)`).
///
/// It is an ordinary nested value, not the list's persistent storage: building one costs
/// O(k) for k nodes.
///
/// ```swift
/// let outline = ListOutline<String>([
///     .init("Fruit", isExpanded: true, children: [.init("Apple"), .init("Pear")]),
/// ])
/// ```
public struct ListOutline<Item: ListElement>: Equatable, Sendable {
  /// One item with its expansion flag and children.
  public struct Node: Equatable, Sendable {
    /// The item (identity and content).
    public var item: Item
    /// Whether the item's children are visible (leaves keep the flag too).
    public var isExpanded: Bool
    /// The item's children, in order.
    public var children: [Node]

    /// A node; collapsed and without children unless told otherwise.
    @inlinable
    public init(_ item: Item, isExpanded: Bool = false, children: [Node] = []) {
      self.item = item
      self.isExpanded = isExpanded
      self.children = children
    }
  }

  /// The root nodes, in order.
  public var roots: [Node]

  /// An outline of the given root nodes (empty by default).
  @inlinable
  public init(_ roots: [Node] = []) { self.roots = roots }

  /// A flat outline of leaves.
  @inlinable
  public init<S: Sequence>(items: S) where S.Element == Item {
    self.roots = items.map { Node($0) }
  }

  /// Every item identifier in pre-order (parents before their children).
  ///
  /// - Complexity: O(k) for k nodes.
  @inlinable
  public var itemIdentifiers: [Item.ID] {
    var result: [Item.ID] = []
    func visit(_ nodes: [Node]) {
      for node in nodes {
        result.append(node.item.id)
        visit(node.children)
      }
    }
    visit(roots)
    return result
  }

  /// The number of nodes at every level.
  @inlinable
  public var count: Int {
    func count(_ nodes: [Node]) -> Int { nodes.reduce(nodes.count) { $0 + count($1.children) } }
    return count(roots)
  }
}
