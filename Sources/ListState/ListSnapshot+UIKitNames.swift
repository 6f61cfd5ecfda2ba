// UIKit's spellings, for code ported from `NSDiffableDataSourceSnapshot`,
// `NSDiffableDataSourceSectionSnapshot` and the diffable data sources: each is unavailable and
// names its counterpart, so the compiler offers the rename as a fix-it (the table in the
// Snapshots article lists the same pairs).

extension ListSnapshot {
  @available(*, unavailable, renamed: "index(ofItem:)")
  public func indexOfItem(_ id: Item.ID) -> Int? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "index(ofSection:)")
  public func indexOfSection(_ id: Section.ID) -> Int? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "index(ofItem:)")
  public func index(of id: Item.ID) -> Int? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "index(ofSection:)")
  public func index(for sectionIdentifier: Section.ID) -> Int? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "contains(item:)")
  public func contains(_ id: Item.ID) -> Bool { fatalError("unavailable") }

  @available(*, unavailable, renamed: "outline(of:includingParent:)")
  public func snapshot(of parent: Item.ID, includingParent: Bool = false) -> ListOutline<Item>? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "itemIdentifiers")
  public var items: [Item.ID] { fatalError("unavailable") }

  @available(*, unavailable, renamed: "visibleItem(at:)")
  public func itemIdentifier(for indexPath: ListIndexPath) -> Item.ID? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "visibleIndexPath(ofItem:)")
  public func indexPath(for id: Item.ID) -> ListIndexPath? { fatalError("unavailable") }

  @available(*, unavailable, renamed: "appendItems(_:underParent:)")
  public mutating func append(_ items: [Item], to parent: Item.ID?) { fatalError("unavailable") }

  @available(*, unavailable, renamed: "insertItems(_:beforeItem:)")
  public mutating func insert(_ items: [Item], before item: Item.ID) { fatalError("unavailable") }

  @available(*, unavailable, renamed: "insertItems(_:afterItem:)")
  public mutating func insert(_ items: [Item], after item: Item.ID) { fatalError("unavailable") }

  @available(*, unavailable, renamed: "deleteItems(_:)")
  public mutating func delete(_ items: [Item.ID]) { fatalError("unavailable") }

  @available(*, unavailable, renamed: "deleteAllItems()")
  public mutating func deleteAll() { fatalError("unavailable") }
}
