import ListState

/// One section as a SwiftUI list shows it: its value (for the header) and its visible rows.
///
/// ```swift
/// ForEach(model.sections) { section in
///     Section(section.section.title) { ForEach(section.rows) { row in … } }
/// }
/// ```
public struct ListModelSection<Section: ListElement, Item: ListElement>: Identifiable, Sendable {
  /// The section's identifier.
  public var id: Section.ID
  /// The section's value.
  public var section: Section
  /// Its visible rows (items whose ancestors are all expanded), in order.
  public var rows: ListRows<Section, Item>
}
