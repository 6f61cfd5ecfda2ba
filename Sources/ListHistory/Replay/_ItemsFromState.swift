import ListState

/// A batch's events decoded with a stand-in for a remembered item (``_ItemFromState``, listed
/// by a codec in the mode `HistoryCodec.DecodingMode.leavingRememberedItemsToTheState`), in
/// event order, and how far the replay has filled them in.
@usableFromInline
struct _ItemsFromState<ItemID: Hashable & Sendable>: Sendable {
  @usableFromInline var entries: [_ItemFromState<ItemID>] = []
  /// The first entry not yet filled in.
  @usableFromInline var next = 0

  @inlinable
  init(entries: [_ItemFromState<ItemID>] = [], next: Int = 0) {
    self.entries = entries
    self.next = next
  }

  /// The identifier of the remembered item event `index` (of the batch's buffer) stands in
  /// for, if it does; events are asked about in order.
  ///
  /// - Complexity: O(1).
  @inlinable
  @inline(__always)
  mutating func id(forEvent index: Int) -> ItemID? {
    // An entry passed by would leave its stand-in in place (a deletion of nothing): never.
    assert(next == entries.count || entries[next].event >= index, "a stand-in passed by unfilled")
    guard next < entries.count, entries[next].event == index else { return nil }
    defer { next += 1 }
    return entries[next].id
  }

  @inlinable
  mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    next = 0
  }
}

extension ListEvent {
  /// Replaces the stand-in a decoder left for the remembered item `id` (see ``_ItemFromState``)
  /// with `item`, the state's item of that identifier just before this event: an update's old
  /// item, or the leaf a deletion removes. With no such item in the state, an update is left
  /// as it is (applying it then fails on the unknown item) and a deletion fails here, as its
  /// application would.
  ///
  /// The state's item is the remembered one exactly when the stream is consistent, and the
  /// application that follows verifies the event against the state as before (the deleted
  /// leaf's place, that it is a collapsed leaf).
  ///
  /// - Complexity: O(1).
  @inlinable
  mutating func _fillStandIn(for id: Item.ID, with item: Item?) throws(HistoryError) {
    switch self {
    case .updateItem(_, let new):
      if let item { self = .updateItem(old: item, new: new) }
    case .deleteItems(let outline, let location) where outline.roots.isEmpty:
      guard let item else { throw .inconsistentEvent(reason: "deleteItems: item \(id) is not at \(location)") }
      self = .deleteItems(ListOutline([.init(item)]), from: location)
    default:
      // Never listed by the decoder; refused rather than applied without its item.
      throw .inconsistentEvent(reason: "an event with no stand-in listed for item \(id)")
    }
  }
}
