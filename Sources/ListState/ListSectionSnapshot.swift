/// One section's outline as a value of its own — the role of UIKit's
/// `NSDiffableDataSourceSectionSnapshot`: build or edit an outline apart from any list, query it,
/// then put it into a section of a ``ListSnapshot`` (``ListSnapshot/apply(_:to:)``) or of a store
/// (`ListStore.apply(_:to:label:)`, which keeps the expansion of the items that stay).
///
/// It has the list's operations for one section under UIKit's section-snapshot names, and the
/// same storage (persistent trees: copies are O(1), edits O(log n)); errors are ``ListError``s,
/// the value unchanged.
///
/// ```swift
/// var outline = ListSectionSnapshot<String>()
/// try outline.append(["Fruit", "Vegetables"])
/// try outline.append(["Apple", "Pear"], to: "Fruit")
/// try outline.expand(["Fruit"])
/// outline.visibleItems        // ["Fruit", "Apple", "Pear", "Vegetables"]
/// outline.level(of: "Pear")   // 1
/// ```
public struct ListSectionSnapshot<Item: ListElement>: Equatable, Sendable {
  /// The errors of its operations (the section identifier never appears in them).
  public typealias Failure = ListError<Int, Item.ID>

  /// The outline, kept in the one section of a list.
  @usableFromInline var _list: ListSnapshot<_OneSection, Item>

  /// An empty outline.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init() {
    _list = ListSnapshot()
    do { try _list.appendSections([_OneSection()]) } catch { preconditionFailure("one section into an empty list: \(error)") }
  }

  /// The outline `outline` (its items, nesting and expansion flags).
  ///
  /// - Throws: `.duplicateItems` when an identifier appears twice.
  /// - Complexity: O(k log k) for k items.
  @inlinable
  public init(_ outline: ListOutline<Item>) throws(Failure) {
    self.init()
    try _list.append(outline, toSection: 0)
  }

  /// The whole outline as a plain value.
  ///
  /// - Complexity: O(k) for k items.
  @inlinable
  public var outline: ListOutline<Item> { _list.outline(ofSection: 0) ?? ListOutline() }
}
