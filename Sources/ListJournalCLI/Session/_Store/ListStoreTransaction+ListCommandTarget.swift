import ListHistory
import ListState

extension ListStore.Transaction: ListCommandTarget where Section == TextSection, Item == TextItem {
  var currentList: TextSnapshot { snapshot }

  mutating func reorderVisibleRow(from source: ListIndexPath, to destination: ListIndexPath) throws(Failure) {
    try moveVisibleRow(from: source, to: destination)
  }
}
