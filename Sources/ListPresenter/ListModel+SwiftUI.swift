// SwiftUI glue for ListModel, compiled only where SwiftUI exists; elsewhere this file is empty.
// It only wraps the model's getter and setter: every decision is in ListModel.
#if canImport(SwiftUI)
import ListState
import SwiftUI

extension ListModel {
  /// A binding to an item's expansion, for `DisclosureGroup(isExpanded:)` or a disclosure
  /// button; setting it records one undoable "Expand"/"Collapse" version.
  ///
  /// ```swift
  /// DisclosureGroup(isExpanded: model.isExpandedBinding(for: row.id)) { … } label: { Text(row.item.title) }
  /// ```
  public func isExpandedBinding(for id: Item.ID) -> Binding<Bool> {
    Binding(
      get: { MainActor.assumeIsolated { self.isExpanded(id) } },
      set: { expanded in MainActor.assumeIsolated { self.setExpanded(expanded, forItem: id) } })
  }
}
#endif
