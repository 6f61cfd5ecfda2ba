import ListState

/// Draws a snapshot as text (the outline) or as the stable JSON shape of `show --format json`.
///
/// Text: one line per section (its id, then its content in quotes when set), then its items
/// indented two spaces per level, each marked `▾` (expanded parent), `▸` (collapsed parent) or
/// `•` (leaf). Items under a collapsed parent are drawn too (dimmed in colour), because `show`
/// shows the whole state, not only the visible rows.
/// ```
/// version 4
/// Fruit "Fresh fruit"
///   ▾ apple "Apple"
///     • granny
///   • pear
/// ```
/// JSON:
/// `{"version": V, "sections": [{"id": S, "content": C, "items": [ITEM...]}]}` with
/// `ITEM = {"id": I, "content": C, "expanded": true|false, "children": [ITEM...]}`.
///
/// - Complexity: O(n) in the number of items.
enum SnapshotRenderer {
  static func text(_ snapshot: TextSnapshot, version: Int, style: TerminalStyle = .plain) -> String {
    var lines = [style.dim("version \(version)")]
    if snapshot.numberOfSections == 0 { lines.append(style.dim("(empty)")) }
    for section in snapshot.sections {
      var line = style.bold(ListTokenizer.quoted(section.id))
      if !section.content.isEmpty { line += " " + style.green(ListTokenizer.quoted(section.content, force: true)) }
      lines.append(line)
      guard let outline = snapshot.outline(ofSection: section.id) else { continue }
      draw(outline.roots, level: 1, hidden: false, style: style, into: &lines)
    }
    return lines.joined(separator: "\n")
  }

  private static func draw(
    _ nodes: [ListOutline<TextItem>.Node], level: Int, hidden: Bool, style: TerminalStyle, into lines: inout [String]
  ) {
    for node in nodes {
      let marker = node.children.isEmpty ? "•" : (node.isExpanded ? "▾" : "▸")
      var line = String(repeating: "  ", count: level) + style.dim(marker) + " "
      let id = ListTokenizer.quoted(node.item.id)
      line += hidden ? style.dim(id) : id
      if !node.item.content.isEmpty { line += " " + style.green(ListTokenizer.quoted(node.item.content, force: true)) }
      lines.append(line)
      draw(node.children, level: level + 1, hidden: hidden || !node.isExpanded, style: style, into: &lines)
    }
  }

  static func json(_ snapshot: TextSnapshot, version: Int) -> String {
    jsonWriter(snapshot, version: version).output
  }

  /// The writer holding ``json(_:version:)``'s text (as UTF-8 bytes: the digest hashes them).
  static func jsonWriter(_ snapshot: TextSnapshot, version: Int) -> JSONWriter {
    var json = JSONWriter()
    json.object { json in
      json.key("version")
      json.number(version)
      json.key("sections")
      json.array { json in
        for section in snapshot.sections {
          json.object { json in
            json.key("id")
            json.string(section.id)
            json.key("content")
            json.string(section.content)
            json.key("items")
            json.array { json in
              writeItems(snapshot.outline(ofSection: section.id)?.roots ?? [], into: &json)
            }
          }
        }
      }
    }
    return json
  }

  private static func writeItems(_ nodes: [ListOutline<TextItem>.Node], into json: inout JSONWriter) {
    for node in nodes {
      json.object { json in
        json.key("id")
        json.string(node.item.id)
        json.key("content")
        json.string(node.item.content)
        json.key("expanded")
        json.bool(node.isExpanded)
        json.key("children")
        json.array { json in writeItems(node.children, into: &json) }
      }
    }
  }
}
