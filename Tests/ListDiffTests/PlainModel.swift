import ListDiff
import TestSupport

/// A plain sectioned list with content versions, for diff tests that need no snapshot.
struct PlainModel: Equatable {
  struct Element: Equatable {
    var id: Int
    var content: Int
  }
  var sections: [Element] = []
  var rows: [[Element]] = []

  var visibleRows: ListVisibleRows<Int, Int> {
    ListVisibleRows(sections: sections.map(\.id), rows: rows.map { $0.map(\.id) })
  }

  var sectionContent: [Int: Int] { Dictionary(uniqueKeysWithValues: sections.map { ($0.id, $0.content) }) }
  var itemContent: [Int: Int] {
    Dictionary(uniqueKeysWithValues: rows.joined().map { ($0.id, $0.content) })
  }

  /// The changeset from `self` to `new`, with reloads by content.
  func changeset(to new: PlainModel) -> ListChangeset<Int, Int> {
    let oldSections = sectionContent, newSections = new.sectionContent
    let oldItems = itemContent, newItems = new.itemContent
    return ListChangeset(
      from: visibleRows, to: new.visibleRows,
      sectionNeedsReload: { oldSections[$0] != newSections[$0] },
      itemNeedsReload: { oldItems[$0] != newItems[$0] })
  }

  /// Sections in both whose content differs, and rows in both whose content differs.
  func expectedReloads(to new: PlainModel) -> (sections: Set<Int>, items: Set<Int>) {
    let oldSections = sectionContent, oldItems = itemContent
    var sections = Set<Int>(), items = Set<Int>()
    for section in new.sections where oldSections[section.id].map({ $0 != section.content }) == true {
      sections.insert(section.id)
    }
    for item in new.rows.joined() where oldItems[item.id].map({ $0 != item.content }) == true { items.insert(item.id) }
    return (sections, items)
  }

  static func random(using generator: inout SeededRandom, nextID: inout Int, maxSections: Int = 4, maxRows: Int = 7)
    -> PlainModel
  {
    var model = PlainModel()
    for _ in 0..<Int.random(in: 0...maxSections, using: &generator) {
      model.sections.append(Element(id: nextID, content: 0))
      nextID += 1
      var rows: [Element] = []
      for _ in 0..<Int.random(in: 0...maxRows, using: &generator) {
        rows.append(Element(id: nextID, content: 0))
        nextID += 1
      }
      model.rows.append(rows)
    }
    return model
  }

  struct Options {
    var sectionChanges = true
    var contentChanges = true
  }

  /// A random edit of `self`: section and row inserts, deletes, moves (also across sections) and
  /// content changes.
  func mutated(using generator: inout SeededRandom, nextID: inout Int, options: Options = Options()) -> PlainModel {
    var model = self
    for _ in 0..<Int.random(in: 1...6, using: &generator) {
      let choice = Int.random(in: 0..<(options.sectionChanges ? 10 : 6), using: &generator)
      switch choice {
      case 0:  // insert row
        guard !model.sections.isEmpty else { continue }
        let section = Int.random(in: model.sections.indices, using: &generator)
        let row = Int.random(in: 0...model.rows[section].count, using: &generator)
        model.rows[section].insert(Element(id: nextID, content: 0), at: row)
        nextID += 1
      case 1:  // delete row
        let candidates = model.rows.indices.filter { !model.rows[$0].isEmpty }
        guard let section = candidates.randomElement(using: &generator) else { continue }
        model.rows[section].remove(at: Int.random(in: model.rows[section].indices, using: &generator))
      case 2, 3:  // move row, maybe to another section
        let candidates = model.rows.indices.filter { !model.rows[$0].isEmpty }
        guard let section = candidates.randomElement(using: &generator) else { continue }
        let element = model.rows[section].remove(at: Int.random(in: model.rows[section].indices, using: &generator))
        let target = Int.random(in: model.sections.indices, using: &generator)
        model.rows[target].insert(element, at: Int.random(in: 0...model.rows[target].count, using: &generator))
      case 4, 5:  // change row content
        guard options.contentChanges else { continue }
        let candidates = model.rows.indices.filter { !model.rows[$0].isEmpty }
        guard let section = candidates.randomElement(using: &generator) else { continue }
        let row = Int.random(in: model.rows[section].indices, using: &generator)
        model.rows[section][row].content += 1
      case 6:  // insert section
        let index = Int.random(in: 0...model.sections.count, using: &generator)
        model.sections.insert(Element(id: nextID, content: 0), at: index)
        nextID += 1
        var rows: [Element] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          rows.append(Element(id: nextID, content: 0))
          nextID += 1
        }
        model.rows.insert(rows, at: index)
      case 7:  // delete section
        guard !model.sections.isEmpty else { continue }
        let index = Int.random(in: model.sections.indices, using: &generator)
        model.sections.remove(at: index)
        model.rows.remove(at: index)
      case 8:  // move section
        guard !model.sections.isEmpty else { continue }
        let index = Int.random(in: model.sections.indices, using: &generator)
        let section = model.sections.remove(at: index), rows = model.rows.remove(at: index)
        let target = Int.random(in: 0...model.sections.count, using: &generator)
        model.sections.insert(section, at: target)
        model.rows.insert(rows, at: target)
      default:  // change section content
        guard options.contentChanges, !model.sections.isEmpty else { continue }
        model.sections[Int.random(in: model.sections.indices, using: &generator)].content += 1
      }
    }
    return model
  }
}
