import ListHistory
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
    text(TextOutlines(snapshot), version: version, style: style)
  }

  static func text(_ outlines: TextOutlines, version: Int, style: TerminalStyle = .plain) -> String {
    String(decoding: textBytes(outlines, version: version, style: style), as: UTF8.self)
  }

  /// ``text(_:version:style:)`` as UTF-8, built in bytes: a `String` append costs a few hundred
  /// instructions whatever its length, and a 230K-item list is a few million of them.
  static func textBytes(_ outlines: TextOutlines, version: Int, style: TerminalStyle = .plain) -> [UInt8] {
    var bytes: [UInt8] = []
    append(style.dim("version \(version)"), to: &bytes)
    if outlines.isEmpty {
      bytes.append(0x0A)
      append(style.dim("(empty)"), to: &bytes)
    }
    switch outlines.storage {
    case .text(let sections):
      bytes.reserveCapacity(sections.reduce(0) { $0 + $1.roots.count } * 24)
      for (section, roots) in sections {
        appendSection(id: section.id, content: section.content, style: style, to: &bytes)
        draw(roots, level: 1, hidden: false, style: style, into: &bytes)
      }
    case .generic(let sections):
      bytes.reserveCapacity(sections.reduce(0) { $0 + $1.1.roots.count } * 24)
      for (section, outline) in sections {
        appendSection(id: section.id.displayText, content: section.displayContent, style: style, to: &bytes)
        draw(outline.roots, level: 1, hidden: false, style: style, into: &bytes)
      }
    }
    return bytes
  }

  /// `text`'s UTF-8, copied as one buffer (a small string's `utf8` view is appended a byte at
  /// a time).
  private static func append(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// A content in quotes, as `ListTokenizer.quoted(_:force: true)` writes it: forced quoting
  /// only escapes quotes and backslashes, so a content without them goes between quotes as it is.
  private static func appendQuotedContent(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    let plain = text.withUTF8 { utf8 in
      guard !utf8.contains(where: { $0 == 0x22 || $0 == 0x5C }) else { return false }
      bytes.append(0x22)
      bytes.append(contentsOf: utf8)
      bytes.append(0x22)
      return true
    }
    if !plain { append(ListTokenizer.quoted(text, force: true), to: &bytes) }
  }

  private static func appendSection(id: String, content: String, style: TerminalStyle, to bytes: inout [UInt8]) {
    bytes.append(0x0A)
    append(style.bold(ListTokenizer.quoted(id)), to: &bytes)
    guard !content.isEmpty else { return }
    bytes.append(0x20)
    if style.isEnabled { append(style.green(ListTokenizer.quoted(content, force: true)), to: &bytes) } else {
      appendQuotedContent(content, to: &bytes)
    }
  }

  private static func draw<Item: _ShownItem>(
    _ nodes: [ListOutline<Item>.Node], level: Int, hidden: Bool, style: TerminalStyle, into bytes: inout [UInt8]
  ) {
    for node in nodes {
      bytes.append(0x0A)
      for _ in 0..<level { Self.append(0x20, 0x20, to: &bytes) }
      let marker = node.children.isEmpty ? "•" : (node.isExpanded ? "▾" : "▸")
      append(style.dim(marker), to: &bytes)
      bytes.append(0x20)
      let id = ListTokenizer.quoted(node.item.shownID)
      append(hidden ? style.dim(id) : id, to: &bytes)
      let content = node.item.shownContent
      if !content.isEmpty {
        bytes.append(0x20)
        if style.isEnabled { append(style.green(ListTokenizer.quoted(content, force: true)), to: &bytes) } else {
          appendQuotedContent(content, to: &bytes)
        }
      }
      draw(node.children, level: level + 1, hidden: hidden || !node.isExpanded, style: style, into: &bytes)
    }
  }

  /// Two bytes, without an array literal (which may allocate on every call).
  private static func append(_ first: UInt8, _ second: UInt8, to bytes: inout [UInt8]) {
    bytes.append(first)
    bytes.append(second)
  }

  static func json(_ snapshot: TextSnapshot, version: Int) -> String {
    jsonWriter(TextOutlines(snapshot), version: version).output
  }

  static func json(_ outlines: TextOutlines, version: Int) -> String {
    jsonWriter(outlines, version: version).output
  }

  /// The writer holding ``json(_:version:)``'s text (as UTF-8 bytes: the digest hashes them).
  static func jsonWriter(_ snapshot: TextSnapshot, version: Int) -> JSONWriter {
    jsonWriter(TextOutlines(snapshot), version: version)
  }

  static func jsonWriter(_ outlines: TextOutlines, version: Int) -> JSONWriter {
    var json = JSONWriter()
    json.object { json in
      json.key("version")
      json.number(version)
      json.key("sections")
      json.array { json in
        switch outlines.storage {
        case .text(let sections):
          for (section, roots) in sections { writeSection(id: section.id, content: section.content, roots: roots, into: &json) }
        case .generic(let sections):
          for (section, outline) in sections {
            writeSection(id: section.id.displayText, content: section.displayContent, roots: outline.roots, into: &json)
          }
        }
      }
    }
    return json
  }

  private static func writeSection<Item: _ShownItem>(
    id: String, content: String, roots: [ListOutline<Item>.Node], into json: inout JSONWriter
  ) {
    json.object { json in
      json.key("id")
      json.string(id)
      json.key("content")
      json.string(content)
      json.key("items")
      json.array { json in writeItems(roots, into: &json) }
    }
  }

  private static func writeItems<Item: _ShownItem>(_ nodes: [ListOutline<Item>.Node], into json: inout JSONWriter) {
    for node in nodes {
      json.object { json in
        json.key("id")
        json.string(node.item.shownID)
        json.key("content")
        json.string(node.item.shownContent)
        json.key("expanded")
        json.bool(node.isExpanded)
        json.key("children")
        json.array { json in writeItems(node.children, into: &json) }
      }
    }
  }
}

/// An item as `show` prints it: its identifier and content as text.
protocol _ShownItem: ListElement {
  var shownID: String { get }
  var shownContent: String { get }
}

extension TextItem: _ShownItem {
  var shownID: String { id }
  var shownContent: String { content }
}

extension JournalValueElement: _ShownItem {
  /// As ``TextSnapshot/init(displaying:)`` converts it.
  var shownID: String { id.displayText }
  var shownContent: String { displayContent }
}
