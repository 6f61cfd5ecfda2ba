import ListState

/// One mutating operation of ``ListSnapshot``, as a value: every public mutating method has a
/// case, with the same arguments.
///
/// Operations can be applied to a snapshot (``apply(to:)-(ListSnapshot)``) and to the reference
/// model (``apply(to:)-(ReferenceList)``), which is what model-based property tests do; the
/// history tests reuse them to drive undo/redo. ``ListOperationGenerator`` makes random ones.
/// `description` prints the call the case stands for, so a failing sequence reads as code.
///
/// ```swift
/// let operation = ListOperation<TestSection, TestItem>.appendItems([TestItem("a")], toSection: nil)
/// try operation.apply(to: &snapshot)
/// try operation.apply(to: &reference)
/// ```
public enum ListOperation<Section: ListElement, Item: ListElement>: Sendable, Equatable, CustomStringConvertible {
  public typealias Failure = ListError<Section.ID, Item.ID>
  public typealias Location = ListItemLocation<Section.ID, Item.ID>
  public typealias Outline = ListOutline<Item>

  // Sections
  case appendSections([Section])
  case insertSectionsBefore([Section], anchor: Section.ID)
  case insertSectionsAfter([Section], anchor: Section.ID)
  case insertSectionsAt([Section], index: Int)
  case deleteSections([Section.ID])
  case moveSectionBefore(Section.ID, anchor: Section.ID)
  case moveSectionAfter(Section.ID, anchor: Section.ID)
  case moveSectionToIndex(Section.ID, index: Int)
  case reloadSections([Section.ID])
  case updateSection(Section)
  case replaceSection(Section.ID, with: Section)

  // Items
  case appendItems([Item], toSection: Section.ID?)
  case appendItemsUnderParent([Item], parent: Item.ID)
  case insertItemsBefore([Item], anchor: Item.ID)
  case insertItemsAfter([Item], anchor: Item.ID)
  case deleteItems([Item.ID])
  case deleteItemsIfPresent([Item.ID])
  case deleteAllItems
  case moveItemBefore(Item.ID, anchor: Item.ID)
  case moveItemAfter(Item.ID, anchor: Item.ID)
  case moveItemToSection(Item.ID, section: Section.ID)
  case moveItemUnderParent(Item.ID, parent: Item.ID)
  case moveItemToLocation(Item.ID, Location)
  case reloadItems([Item.ID])
  case reconfigureItems([Item.ID])
  case updateItems([Item])
  case updateItem(Item)
  case replaceItem(Item.ID, with: Item)

  // Outline
  case expand([Item.ID])
  case collapse([Item.ID])
  case replaceChildren(of: Item.ID, using: Outline)
  case insertOutlineBefore(Outline, anchor: Item.ID)
  case insertOutlineAfter(Outline, anchor: Item.ID)
  case appendOutline(Outline, toSection: Section.ID?)
  case appendOutlineUnderParent(Outline, parent: Item.ID)
  case insertOutlineAt(Outline, Location)

  // Reorder and markers
  case moveVisibleRow(from: ListIndexPath, to: ListIndexPath)
  case clearMarkers

  /// The operation's name, for statistics and messages.
  public var name: String {
    switch self {
    case .appendSections: "appendSections"
    case .insertSectionsBefore: "insertSectionsBefore"
    case .insertSectionsAfter: "insertSectionsAfter"
    case .insertSectionsAt: "insertSectionsAt"
    case .deleteSections: "deleteSections"
    case .moveSectionBefore: "moveSectionBefore"
    case .moveSectionAfter: "moveSectionAfter"
    case .moveSectionToIndex: "moveSectionToIndex"
    case .reloadSections: "reloadSections"
    case .updateSection: "updateSection"
    case .replaceSection: "replaceSection"
    case .appendItems: "appendItems"
    case .appendItemsUnderParent: "appendItemsUnderParent"
    case .insertItemsBefore: "insertItemsBefore"
    case .insertItemsAfter: "insertItemsAfter"
    case .deleteItems: "deleteItems"
    case .deleteItemsIfPresent: "deleteItemsIfPresent"
    case .deleteAllItems: "deleteAllItems"
    case .moveItemBefore: "moveItemBefore"
    case .moveItemAfter: "moveItemAfter"
    case .moveItemToSection: "moveItemToSection"
    case .moveItemUnderParent: "moveItemUnderParent"
    case .moveItemToLocation: "moveItemToLocation"
    case .reloadItems: "reloadItems"
    case .reconfigureItems: "reconfigureItems"
    case .updateItems: "updateItems"
    case .updateItem: "updateItem"
    case .replaceItem: "replaceItem"
    case .expand: "expand"
    case .collapse: "collapse"
    case .replaceChildren: "replaceChildren"
    case .insertOutlineBefore: "insertOutlineBefore"
    case .insertOutlineAfter: "insertOutlineAfter"
    case .appendOutline: "appendOutline"
    case .appendOutlineUnderParent: "appendOutlineUnderParent"
    case .insertOutlineAt: "insertOutlineAt"
    case .moveVisibleRow: "moveVisibleRow"
    case .clearMarkers: "clearMarkers"
    }
  }

  /// The `ListSnapshot` call this operation stands for, as Swift-like source.
  public var description: String {
    func list<T>(_ values: [T]) -> String { "[" + values.map { "\($0)" }.joined(separator: ", ") + "]" }
    func outline(_ outline: Outline) -> String {
      func draw(_ nodes: [Outline.Node]) -> String {
        list(nodes.map { node in "\(node.item)\(node.isExpanded ? "▾" : "")" + (node.children.isEmpty ? "" : draw(node.children)) })
      }
      return "outline" + draw(outline.roots)
    }
    func location(_ location: Location) -> String {
      switch location.container {
      case .section(let id): "Location(.section(\(id)), index: \(location.index))"
      case .parent(let id): "Location(.parent(\(id)), index: \(location.index))"
      }
    }
    switch self {
    case .appendSections(let s): return "appendSections(\(list(s)))"
    case .insertSectionsBefore(let s, let a): return "insertSections(\(list(s)), beforeSection: \(a))"
    case .insertSectionsAfter(let s, let a): return "insertSections(\(list(s)), afterSection: \(a))"
    case .insertSectionsAt(let s, let i): return "insertSections(\(list(s)), at: \(i))"
    case .deleteSections(let ids): return "deleteSections(\(list(ids)))"
    case .moveSectionBefore(let id, let a): return "moveSection(\(id), beforeSection: \(a))"
    case .moveSectionAfter(let id, let a): return "moveSection(\(id), afterSection: \(a))"
    case .moveSectionToIndex(let id, let i): return "moveSection(\(id), toIndex: \(i))"
    case .reloadSections(let ids): return "reloadSections(\(list(ids)))"
    case .updateSection(let s): return "updateSection(\(s))"
    case .replaceSection(let id, let s): return "replaceSection(\(id), with: \(s))"
    case .appendItems(let items, let s): return "appendItems(\(list(items)), toSection: \(s.map { "\($0)" } ?? "nil"))"
    case .appendItemsUnderParent(let items, let p): return "appendItems(\(list(items)), underParent: \(p))"
    case .insertItemsBefore(let items, let a): return "insertItems(\(list(items)), beforeItem: \(a))"
    case .insertItemsAfter(let items, let a): return "insertItems(\(list(items)), afterItem: \(a))"
    case .deleteItems(let ids): return "deleteItems(\(list(ids)))"
    case .deleteItemsIfPresent(let ids): return "deleteItemsIfPresent(\(list(ids)))"
    case .deleteAllItems: return "deleteAllItems()"
    case .moveItemBefore(let id, let a): return "moveItem(\(id), beforeItem: \(a))"
    case .moveItemAfter(let id, let a): return "moveItem(\(id), afterItem: \(a))"
    case .moveItemToSection(let id, let s): return "moveItem(\(id), toSection: \(s))"
    case .moveItemUnderParent(let id, let p): return "moveItem(\(id), underParent: \(p))"
    case .moveItemToLocation(let id, let l): return "moveItem(\(id), to: \(location(l)))"
    case .reloadItems(let ids): return "reloadItems(\(list(ids)))"
    case .reconfigureItems(let ids): return "reconfigureItems(\(list(ids)))"
    case .updateItems(let items): return "updateItems(\(list(items)))"
    case .updateItem(let item): return "updateItem(\(item))"
    case .replaceItem(let id, let item): return "replaceItem(\(id), with: \(item))"
    case .expand(let ids): return "expand(\(list(ids)))"
    case .collapse(let ids): return "collapse(\(list(ids)))"
    case .replaceChildren(let p, let o): return "replace(childrenOf: \(p), using: \(outline(o)))"
    case .insertOutlineBefore(let o, let a): return "insert(\(outline(o)), beforeItem: \(a))"
    case .insertOutlineAfter(let o, let a): return "insert(\(outline(o)), afterItem: \(a))"
    case .appendOutline(let o, let s): return "append(\(outline(o)), toSection: \(s.map { "\($0)" } ?? "nil"))"
    case .appendOutlineUnderParent(let o, let p): return "append(\(outline(o)), underParent: \(p))"
    case .insertOutlineAt(let o, let l): return "insert(\(outline(o)), at: \(location(l)))"
    case .moveVisibleRow(let from, let to): return "moveVisibleRow(from: \(from), to: \(to))"
    case .clearMarkers: return "clearMarkers()"
    }
  }
}
