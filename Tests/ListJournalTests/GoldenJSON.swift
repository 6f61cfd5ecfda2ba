import ListJournal
import TestSupport

/// The CLI's documented JSON shape of a state (`listjournal show --format json`), compact with
/// one space after `:` and `,`, keys in exactly this order:
/// `{"version": V, "sections": [{"id": S, "content": C, "items": [ITEM...]}]}`,
/// `ITEM = {"id": I, "content": C, "expanded": true|false, "children": [ITEM...]}`.
enum GoldenJSON {
  static func string(_ text: String) -> String { JournalValue.string(text).jsonText }

  static func state(_ snapshot: TestSnapshot, version: Version) -> String {
    let sections = snapshot.sections.map { section -> String in
      let roots = snapshot.outline(ofSection: section.id)?.roots ?? []
      return "{\"id\": \(string(section.id)), \"content\": \(string(section.content)), \"items\": [\(roots.map(item).joined(separator: ", "))]}"
    }
    return "{\"version\": \(version.rawValue), \"sections\": [\(sections.joined(separator: ", "))]}"
  }

  static func item(_ node: ListOutline<TestItem>.Node) -> String {
    "{\"id\": \(string(node.item.id)), \"content\": \(string(node.item.content)), \"expanded\": \(node.isExpanded), \"children\": [\(node.children.map(item).joined(separator: ", "))]}"
  }

  /// The same shape from a generic (app-type-free) decoding: identifiers and contents are the
  /// `id`/`content` members of the elements' object values.
  static func state(_ snapshot: ListSnapshot<JournalValueElement, JournalValueElement>, version: Version) -> String {
    func text(_ value: JournalValue?) -> String {
      if case .string(let text)? = value { return text }
      return value?.jsonText ?? ""
    }
    func item(_ node: ListOutline<JournalValueElement>.Node) -> String {
      "{\"id\": \(string(text(node.item.id))), \"content\": \(string(text(node.item.content["content"]))), \"expanded\": \(node.isExpanded), \"children\": [\(node.children.map(item).joined(separator: ", "))]}"
    }
    let sections = snapshot.sections.map { section -> String in
      let roots = snapshot.outline(ofSection: section.id)?.roots ?? []
      return "{\"id\": \(string(text(section.id))), \"content\": \(string(text(section.content["content"]))), \"items\": [\(roots.map(item).joined(separator: ", "))]}"
    }
    return "{\"version\": \(version.rawValue), \"sections\": [\(sections.joined(separator: ", "))]}"
  }
}
