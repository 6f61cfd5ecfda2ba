import ListState

/// A snapshot's whole observable state (sections with contents, outlines with contents and
/// expansion) as an `Equatable` value, markers excluded.
struct Canonical<Section: ListElement, Item: ListElement>: Equatable, CustomStringConvertible {
  var sections: [Section]
  var outlines: [ListOutline<Item>]

  init(_ snapshot: ListSnapshot<Section, Item>) {
    sections = snapshot.sections
    outlines = sections.map { snapshot.outline(ofSection: $0.id) ?? ListOutline() }
  }

  var description: String {
    zip(sections, outlines).map { "\($0.0): \($0.1.itemIdentifiers)" }.joined(separator: " | ")
  }
}
