import Foundation
import ListState
import TestSupport

/// The read endpoints' JSON parsed back (with Foundation's parser, independent of the writer)
/// into values a test compares with a replica's snapshot.
enum ReadJSON {
  struct Node: Equatable, CustomStringConvertible {
    var id: String
    var content: String
    var expanded: Bool
    var children: [Node]
    var description: String { "\(id)[\(content)]\(expanded ? "+" : "")\(children.isEmpty ? "" : "\(children)")" }
  }

  struct Section: Equatable, CustomStringConvertible {
    var id: String
    var content: String
    var items: [Node]
    var description: String { "\(id)[\(content)]: \(items)" }
  }

  struct Malformed: Error { var what: String }

  static func object(_ body: [UInt8]) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
      throw Malformed(what: "not an object")
    }
    return object
  }

  static func state(_ body: [UInt8]) throws -> [Section] {
    guard let sections = try object(body)["sections"] as? [[String: Any]] else { throw Malformed(what: "sections") }
    return try sections.map { section in
      guard let id = section["id"] as? String, let content = section["content"] as? [String: Any],
        let text = content["content"] as? String, let items = section["items"] as? [[String: Any]]
      else { throw Malformed(what: "section \(section)") }
      return Section(id: id, content: text, items: try items.map(node))
    }
  }

  static func node(_ json: [String: Any]) throws -> Node {
    guard let id = json["id"] as? String, let content = json["content"] as? [String: Any],
      let text = content["content"] as? String, let expanded = json["expanded"] as? Bool,
      let children = json["children"] as? [[String: Any]]
    else { throw Malformed(what: "item \(json)") }
    return Node(id: id, content: text, expanded: expanded, children: try children.map(node))
  }

  static func state(of snapshot: TestSnapshot) -> [Section] {
    func nodes(_ roots: [ListOutline<TestItem>.Node]) -> [Node] {
      roots.map { Node(id: $0.item.id, content: $0.item.content, expanded: $0.isExpanded, children: nodes($0.children)) }
    }
    return snapshot.sections.map { section in
      Section(id: section.id, content: section.content, items: nodes(snapshot.outline(ofSection: section.id)?.roots ?? []))
    }
  }
}
