import ListHistory
import ListState

extension ListStore.Transaction {
  /// Makes `section` hold `sectionSnapshot`'s outline with the minimal operations; items that
  /// stay keep their expansion by default (`.keepCurrent`), new ones take the section
  /// snapshot's.
  ///
  /// - Throws: `.sectionsNotFound`, `.itemsAlreadyExist` (an item of another section).
  /// - Complexity: that of ``ListStore/Transaction/apply(_:expansion:)``.
  @inlinable
  public mutating func apply(
    _ sectionSnapshot: ListSectionSnapshot<Item>, to section: Section.ID, expansion: ListExpansionPolicy = .keepCurrent
  ) throws(ListError<Section.ID, Item.ID>) {
    var target = snapshot
    try target.apply(sectionSnapshot, to: section)
    try apply(target, expansion: expansion)
  }
}

extension ListStore {
  /// Applies a section snapshot to one section as one version recording only the minimal events
  /// (UIKit's `apply(_:to:)`); the items that stay keep their expansion by default.
  ///
  /// ```swift
  /// var fruit = ListSectionSnapshot<String>()
  /// try fruit.append(["Apple", "Pear"])
  /// try store.apply(fruit, to: "Fruit")
  /// ```
  @inlinable
  public func apply(
    _ sectionSnapshot: ListSectionSnapshot<Item>, to section: Section.ID,
    expansion: ListExpansionPolicy = .keepCurrent, label: String? = nil
  ) throws {
    try transaction(label: label) { try $0.apply(sectionSnapshot, to: section, expansion: expansion) }
  }
}
