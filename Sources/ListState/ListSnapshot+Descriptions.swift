extension ListSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
  /// A one-line summary, e.g. `ListSnapshot(2 sections, 5 items)`.
  @inlinable
  public var description: String {
    "ListSnapshot(\(numberOfSections) section\(numberOfSections == 1 ? "" : "s"), "
      + "\(numberOfItems) item\(numberOfItems == 1 ? "" : "s"))"
  }

  /// The summary followed by ``visualDescription()`` for lists of at most 50 visible rows.
  @inlinable
  public var debugDescription: String {
    _sectionOrder.w2 <= 50 ? description + "\n" + visualDescription() : description
  }
}
