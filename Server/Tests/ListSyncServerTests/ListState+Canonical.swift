import ListState
import SyncWorkload

/// A list as the server's state endpoint spells it, so a client's snapshot and the server's JSON
/// compare: sections in order, each with its outline (identifiers, expansion, row values).
struct CanonicalList: Equatable, CustomStringConvertible {
  struct Node: Equatable {
    var id: String
    var value: String
    var expanded: Bool
    var children: [Node]
  }
  var sections: [(id: String, items: [Node])]

  static func == (lhs: CanonicalList, rhs: CanonicalList) -> Bool {
    lhs.sections.count == rhs.sections.count
      && zip(lhs.sections, rhs.sections).allSatisfy { $0.id == $1.id && $0.items == $1.items }
  }

  var description: String {
    func text(_ nodes: [Node], _ indent: String) -> String {
      nodes.map { "\(indent)\($0.id)=\($0.value)\($0.expanded ? "+" : "")\n" + text($0.children, indent + "  ") }.joined()
    }
    return sections.map { "[\($0.id)]\n" + text($0.items, "  ") }.joined()
  }

  init(_ snapshot: ListSnapshot<String, SyncRow>) {
    func nodes(_ outline: [ListOutline<SyncRow>.Node]) -> [Node] {
      outline.map { Node(id: $0.item.id, value: $0.item.value, expanded: $0.isExpanded, children: nodes($0.children)) }
    }
    sections = snapshot.sectionIdentifiers.map { ($0, nodes(snapshot.outline(ofSection: $0)?.roots ?? [])) }
  }

  /// From `GET /v1/lists/{list}`'s JSON; `nil` when it has another shape.
  init?(json: [String: Any]) {
    guard let sections = json["sections"] as? [[String: Any]] else { return nil }
    func text(_ value: Any?) -> String? {
      if let string = value as? String { return string }
      if let object = value as? [String: Any] { return text(object["value"]) }
      return nil
    }
    func nodes(_ array: Any?) -> [Node]? {
      guard let array = array as? [[String: Any]] else { return nil }
      var result: [Node] = []
      for object in array {
        guard let id = text(object["id"]), let children = nodes(object["children"]) else { return nil }
        result.append(
          Node(id: id, value: text(object["content"]) ?? "?", expanded: object["expanded"] as? Bool ?? false, children: children))
      }
      return result
    }
    var result: [(String, [Node])] = []
    for section in sections {
      guard let id = text(section["id"]), let items = nodes(section["items"]) else { return nil }
      result.append((id, items))
    }
    self.sections = result
  }
}
