import ListState

/// Where a replicated operation puts an item, by identifier: in a container (a section or a
/// parent item), right after a sibling — or first, when `after` is nil.
///
/// Positions by index would mean something else on a replica that has made other changes;
/// identifiers keep their meaning, and the merge rules say what happens when the anchor or the
/// container is gone (see the Merging article of ListReplica).
///
/// ```swift
/// ReplicaAnchor<String, String>(.section("Fruit"), after: "Apple")   // right after Apple
/// ReplicaAnchor<String, String>(.parent("Apple"), after: nil)        // Apple's first child
/// ```
public struct ReplicaAnchor<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  /// The section (for a root item) or parent item.
  public var container: ListItemContainer<SectionID, ItemID>
  /// The sibling the item follows; nil: the container's first place.
  public var after: ItemID?

  @inlinable
  public init(_ container: ListItemContainer<SectionID, ItemID>, after: ItemID?) {
    self.container = container
    self.after = after
  }
}
