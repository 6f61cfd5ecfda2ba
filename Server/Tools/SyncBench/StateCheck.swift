import Foundation
import ListReplica
import ListState
import SyncWorkload

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One text per list state, the same whether it comes from a replica's snapshot or from the
/// server's `GET /v1/lists/{list}` JSON: sections in order, each item's identifier, value,
/// expanded flag and children, depth first.
enum StateCheck {
  static func canonical(_ snapshot: ListSnapshot<String, SyncRow>) -> String {
    var text = ""
    func write(_ nodes: [ListOutline<SyncRow>.Node]) {
      text += "["
      for node in nodes {
        text += "\(node.item.id)=\(node.item.value)\(node.isExpanded ? "+" : "-")"
        write(node.children)
      }
      text += "]"
    }
    for section in snapshot.sectionIdentifiers {
      text += "S\(section)"
      write(snapshot.outline(ofSection: section)?.roots ?? [])
    }
    return text
  }

  /// The canonical text of the server's state answer, and its commit count.
  static func canonical(json data: Data) throws -> (text: String, commits: Int) {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let sections = object["sections"] as? [[String: Any]], let commits = object["commits"] as? Int
    else { throw BenchFailure("the state endpoint answered \(String(decoding: data.prefix(300), as: UTF8.self))") }
    var text = ""
    func write(_ nodes: [[String: Any]]) throws {
      text += "["
      for node in nodes {
        guard let id = node["id"] as? String, let content = node["content"] as? [String: Any],
          let value = content["value"] as? String, let expanded = node["expanded"] as? Bool,
          let children = node["children"] as? [[String: Any]]
        else { throw BenchFailure("an item the benchmark cannot read: \(node)") }
        text += "\(id)=\(value)\(expanded ? "+" : "-")"
        try write(children)
      }
      text += "]"
    }
    for section in sections {
      guard let id = section["id"] as? String, let items = section["items"] as? [[String: Any]] else {
        throw BenchFailure("a section the benchmark cannot read: \(section)")
      }
      text += "S\(id)"
      try write(items)
    }
    return (text, commits)
  }

  /// `GET http://127.0.0.1:PORT/v1/lists/{list}` (the server folds every commit it holds).
  static func serverState(port: Int, list: String) async throws -> (text: String, commits: Int) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/lists/\(list)")!)
    request.timeoutInterval = 600
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw BenchFailure("GET /v1/lists/\(list) on port \(port): \(response)")
    }
    return try canonical(json: data)
  }
}
