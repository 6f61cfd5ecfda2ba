import ListState

extension ListStore.Transaction {
  /// Replaces every item of `section` by `items` (root items); see
  /// ``ListSnapshot/replaceItems(inSection:with:)``. Recorded as the deletes and the insert it
  /// takes; nothing when the section already holds exactly these items, flat.
  @inlinable
  public mutating func replaceItems(inSection section: Section.ID, with items: [Item]) throws(Failure) {
    var result = snapshot
    try result.replaceItems(inSection: section, with: items)  // validates: a failure records nothing
    if result.outline(ofSection: section) == snapshot.outline(ofSection: section) { return }
    let mark = _events.count
    let labels = (_operationLabel, _mixedLabels)
    defer {
      (_operationLabel, _mixedLabels) = labels  // the parts below do not count on their own
      _noteLabel(.fixed("Replace Items"), since: mark)
    }
    deleteItemsIfPresent(snapshot.rootItems(inSection: section))
    do {
      try appendItems(items, toSection: section)
    } catch {
      preconditionFailure("replaceItems(inSection:with:) failed after validating: \(error)")
    }
  }

  /// Deletes every item whose value satisfies `shouldBeDeleted`; see
  /// ``ListSnapshot/deleteItems(where:)``. Recorded as one delete per deleted subtree.
  @inlinable
  @discardableResult
  public mutating func deleteItems(where shouldBeDeleted: (Item) throws -> Bool) rethrows -> [Item.ID] {
    let picked = try snapshot.itemIdentifiers.filter { try shouldBeDeleted(snapshot.item($0)!) }
    deleteItemsIfPresent(picked)
    return picked
  }
}

extension ListStore {
  /// Replaces every item of `section` by `items` as one version ("Replace Items" unless `label`
  /// says otherwise); see ``ListSnapshot/replaceItems(inSection:with:)``.
  ///
  /// ```swift
  /// try store.replaceItems(inSection: "Fruit", with: ["Pear", "Fig"])
  /// ```
  @inlinable
  public func replaceItems(inSection section: Section.ID, with items: [Item], label: String? = nil) throws {
    try transaction(label: label) { try $0.replaceItems(inSection: section, with: items) }
  }

  /// Deletes every item whose value satisfies `shouldBeDeleted` as one version ("Delete 3 Items"
  /// unless `label` says otherwise); none when the predicate picks nothing.
  ///
  /// ```swift
  /// try store.deleteItems(where: { $0.isDone })
  /// ```
  @inlinable
  @discardableResult
  public func deleteItems(where shouldBeDeleted: (Item) throws -> Bool, label: String? = nil) throws -> [Item.ID] {
    try transaction(label: label) { try $0.deleteItems(where: shouldBeDeleted) }
  }
}
