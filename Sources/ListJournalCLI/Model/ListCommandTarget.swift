import ListState

/// What a list-language command can be applied to: a ``TextSnapshot`` directly, or a history
/// store's transaction, which has the same operations and records them as events.
///
/// ```swift
/// var snapshot = TextSnapshot()
/// try snapshot.apply(.appendSections(["Fruit"]))   // via ListCommandTarget
/// ```
protocol ListCommandTarget {
  typealias Failure = ListError<String, String>
  /// The list as it is now, for the queries a command needs (existing contents).
  var currentList: TextSnapshot { get }

  mutating func appendSections(_ sections: [TextSection]) throws(Failure)
  mutating func insertSections(_ sections: [TextSection], beforeSection anchor: String) throws(Failure)
  mutating func insertSections(_ sections: [TextSection], afterSection anchor: String) throws(Failure)
  mutating func deleteSections(_ ids: [String]) throws(Failure)
  mutating func moveSection(_ id: String, beforeSection anchor: String) throws(Failure)
  mutating func moveSection(_ id: String, afterSection anchor: String) throws(Failure)
  mutating func reloadSections(_ ids: [String]) throws(Failure)
  mutating func updateSection(_ section: TextSection) throws(Failure)
  mutating func replaceSection(_ id: String, with newSection: TextSection) throws(Failure)
  mutating func appendItems(_ items: [TextItem], toSection section: String?) throws(Failure)
  mutating func appendItems(_ items: [TextItem], underParent parent: String) throws(Failure)
  mutating func insertItems(_ items: [TextItem], beforeItem anchor: String) throws(Failure)
  mutating func insertItems(_ items: [TextItem], afterItem anchor: String) throws(Failure)
  mutating func deleteItems(_ ids: [String]) throws(Failure)
  mutating func deleteAllItems()
  mutating func moveItem(_ id: String, beforeItem anchor: String) throws(Failure)
  mutating func moveItem(_ id: String, afterItem anchor: String) throws(Failure)
  mutating func moveItem(_ id: String, toSection section: String) throws(Failure)
  mutating func moveItem(_ id: String, underParent parent: String) throws(Failure)
  mutating func reloadItems(_ ids: [String]) throws(Failure)
  mutating func reconfigureItems(_ ids: [String]) throws(Failure)
  mutating func updateItem(_ item: TextItem) throws(Failure)
  mutating func replaceItem(_ id: String, with newItem: TextItem) throws(Failure)
  mutating func expand(_ ids: [String]) throws(Failure)
  mutating func collapse(_ ids: [String]) throws(Failure)
  mutating func reorderVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure)
}

extension ListSnapshot: ListCommandTarget where Section == TextSection, Item == TextItem {
  var currentList: TextSnapshot { self }

  mutating func reorderVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure) {
    try moveVisibleRow(from: source, to: destination)
  }
}
