/// Generic events as JSON-like values (the JSON Lines export's `events`).
@usableFromInline
enum _EventJSON {
  @usableFromInline typealias Event = ListEvent<JournalValueElement, JournalValueElement>

  @inlinable
  static func element(_ element: JournalValueElement) -> JournalValue {
    .object([.init("id", element.id), .init("content", element.content)])
  }

  @inlinable
  static func outline(_ outline: ListOutline<JournalValueElement>) -> JournalValue {
    .array(outline.roots.map(node))
  }

  @inlinable
  static func node(_ node: ListOutline<JournalValueElement>.Node) -> JournalValue {
    .object([
      .init("item", element(node.item)), .init("expanded", .bool(node.isExpanded)),
      .init("children", .array(node.children.map(Self.node))),
    ])
  }

  @inlinable
  static func location(_ location: Event.Location) -> JournalValue {
    switch location.container {
    case .section(let id): .object([.init("section", id), .init("index", .int(Int64(location.index)))])
    case .parent(let id): .object([.init("parent", id), .init("index", .int(Int64(location.index)))])
    }
  }

  @inlinable
  static func value(of event: Event) -> JournalValue {
    var members: [JournalValue.Member] = [.init("op", .string(event.kindName))]
    switch event {
    case .insertSection(let section, let items, let index), .deleteSection(let section, let items, let index):
      members += [.init("section", element(section)), .init("index", .int(Int64(index))), .init("items", outline(items))]
    case .moveSection(let id, let from, let to):
      members += [.init("id", id), .init("from", .int(Int64(from))), .init("to", .int(Int64(to)))]
    case .updateSection(let old, let new), .replaceSection(let old, let new):
      members += [.init("old", element(old)), .init("new", element(new))]
    case .reloadSections(let ids):
      members.append(.init("ids", .array(ids)))
    case .insertItems(let items, let at), .deleteItems(let items, let at):
      members += [.init("location", location(at)), .init("items", outline(items))]
    case .moveItem(let id, let from, let to):
      members += [.init("id", id), .init("from", location(from)), .init("to", location(to))]
    case .updateItem(let old, let new), .replaceItem(let old, let new):
      members += [.init("old", element(old)), .init("new", element(new))]
    case .expand(let id, let was), .collapse(let id, let was):
      members += [.init("id", id), .init("wasExpanded", .bool(was))]
    case .reloadItems(let ids), .reconfigureItems(let ids):
      members.append(.init("ids", .array(ids)))
    }
    return .object(members)
  }
}
