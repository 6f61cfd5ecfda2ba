import ListHistory
import ListDiff
import ListState

/// Renders `diff` between two versions from ListDiff's full-state changeset (any two versions,
/// across branches too): text lists `- deleted`, `+ inserted`, `→ moved`, `~ reloaded`,
/// `~ reconfigured` with ids, stage by stage; JSON is the README's stable shape with keys in a
/// fixed order: `{"from": V1, "to": V2, "stages": [{"sectionDeletes": [i], …, "itemReloads": [P],
/// "itemReconfigures": [P]}]}`,
/// `P = {"section": i, "item": j}` (item = visible row within the section).
///
/// ```swift
/// try ChangesetRenderer.render(from: 3, to: 5, session: session, json: false, style: .plain)
/// // - deleted pear
/// // → moved apple
/// ```
///
/// - Complexity: O(n) in the visible rows of both versions.
enum ChangesetRenderer {
  static func render(
    from: Int, to: Int, session: any JournalSession, json: Bool, style: TerminalStyle
  ) throws(ListLanguageError) -> String {
    let changeset = try session.changeset(from: from, to: to)
    return json ? self.json(changeset, from: from, to: to) : text(changeset, from: from, to: to, style: style)
  }

  static func text(_ changeset: ListChangeset<String, String>, from: Int, to: Int, style: TerminalStyle) -> String {
    var lines = [style.dim("diff \(from) → \(to)")]
    for (index, stage) in changeset.stages.enumerated() {
      if changeset.stages.count > 1 { lines.append(style.dim("stage \(index + 1)")) }
      func add(_ ids: [String], _ mark: String, _ verb: String, _ kind: String, _ colour: (String) -> String) {
        for id in ids { lines.append(colour("\(mark) \(verb) \(kind)\(ListTokenizer.quoted(id))")) }
      }
      add(stage.deletedSections, "-", "deleted", "section ", style.red)
      add(stage.insertedSections, "+", "inserted", "section ", style.green)
      add(stage.movedSections, "→", "moved", "section ", style.blue)
      add(stage.reloadedSections, "~", "reloaded", "section ", style.yellow)
      add(stage.deletedItems, "-", "deleted", "", style.red)
      add(stage.insertedItems, "+", "inserted", "", style.green)
      add(stage.movedItems, "→", "moved", "", style.blue)
      add(stage.reloadedItems, "~", "reloaded", "", style.yellow)
      add(stage.reconfiguredItems, "~", "reconfigured", "", style.yellow)
    }
    if lines.count == 1 { lines.append(style.dim("(no changes)")) }
    return lines.joined(separator: "\n")
  }

  static func json(_ changeset: ListChangeset<String, String>, from: Int, to: Int) -> String {
    var json = JSONWriter()
    func indexes(_ key: String, _ values: [Int], _ json: inout JSONWriter) {
      json.key(key)
      json.array { json in for value in values { json.number(value) } }
    }
    func path(_ path: ListIndexPath, _ json: inout JSONWriter) {
      json.object { json in
        json.key("section")
        json.number(path.section)
        json.key("item")
        json.number(path.row)
      }
    }
    func paths(_ key: String, _ values: [ListIndexPath], _ json: inout JSONWriter) {
      json.key(key)
      json.array { json in for value in values { path(value, &json) } }
    }
    json.object { json in
      json.key("from")
      json.number(from)
      json.key("to")
      json.number(to)
      json.key("stages")
      json.array { json in
        for stage in changeset.stages {
          json.object { json in
            indexes("sectionDeletes", stage.sectionDeletes, &json)
            indexes("sectionInserts", stage.sectionInserts, &json)
            json.key("sectionMoves")
            json.array { json in
              for move in stage.sectionMoves {
                json.object { json in
                  json.key("from")
                  json.number(move.from)
                  json.key("to")
                  json.number(move.to)
                }
              }
            }
            indexes("sectionReloads", stage.sectionReloads, &json)
            paths("itemDeletes", stage.itemDeletes, &json)
            paths("itemInserts", stage.itemInserts, &json)
            json.key("itemMoves")
            json.array { json in
              for move in stage.itemMoves {
                json.object { json in
                  json.key("from")
                  path(move.from, &json)
                  json.key("to")
                  path(move.to, &json)
                }
              }
            }
            paths("itemReloads", stage.itemReloads, &json)
            paths("itemReconfigures", stage.itemReconfigures, &json)
          }
        }
      }
    }
    return json.output
  }
}
