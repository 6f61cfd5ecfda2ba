import ListState

/// The visible rows of one section of a snapshot, as a random-access collection built on demand
/// (nothing is copied): `ForEach` and `List` read it like an array.
///
/// ```swift
/// let rows = model.sections[0].rows
/// rows.count          // visible rows of the section
/// rows[2].item        // the third row's value
/// ```
/// - Complexity: `count` O(log n); each element O(depth · log n + children).
public struct ListRows<Section: ListElement, Item: ListElement>: RandomAccessCollection, Sendable {
  /// The snapshot the rows come from.
  public let snapshot: ListSnapshot<Section, Item>
  /// The section's index in it.
  public let sectionIndex: Int
  public let startIndex = 0
  public let endIndex: Int

  /// The visible rows of the section at `sectionIndex` of `snapshot`.
  public init(_ snapshot: ListSnapshot<Section, Item>, sectionIndex: Int, sectionID: Section.ID) {
    self.snapshot = snapshot
    self.sectionIndex = sectionIndex
    self.endIndex = snapshot.numberOfVisibleItems(inSection: sectionID) ?? 0
  }

  public subscript(position: Int) -> ListRow<Item> {
    precondition(indices.contains(position), "row index out of range")
    let id = snapshot.visibleItem(at: ListIndexPath(section: sectionIndex, row: position))!
    return ListRow(
      id: id, item: snapshot.item(id)!, level: snapshot.level(of: id) ?? 0, isExpanded: snapshot.isExpanded(id),
      hasChildren: !snapshot.children(of: id).isEmpty)
  }
}
