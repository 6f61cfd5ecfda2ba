import ListHistory
import ListState

/// A list as the CLI prints it: its sections in order, each with its outline (items in order,
/// nesting and expansion), without the lookups a ``TextSnapshot`` keeps. `show` renders one;
/// on a large list, building a snapshot (hashing every item) and reading its outlines back
/// (finding every item again) cost more than the printing.
///
/// A generic state (a journal read without the app's types) is kept as it is and shown as
/// ``TextSnapshot/init(displaying:)`` shows it — each identifier and content as its display
/// text, computed as it is printed — when its identifiers are all strings (which display as
/// themselves, so distinct ones stay distinct); otherwise it is converted through a snapshot,
/// which finds identifiers that display alike.
///
/// ```swift
/// let outlines = TextOutlines(snapshot)                  // from a snapshot
/// let indexed = try TextOutlines(displaying: sections)   // from a generic state's outlines
/// ```
struct TextOutlines {
  typealias Generic = [(JournalValueElement, ListOutline<JournalValueElement>)]

  enum Storage {
    case text([(section: TextSection, roots: [ListOutline<TextItem>.Node])])
    /// Every identifier a string.
    case generic(Generic)
  }

  let storage: Storage

  private init(storage: Storage) { self.storage = storage }

  /// The outlines of `snapshot`.
  ///
  /// - Complexity: O(n) plus a lookup per item.
  init(_ snapshot: TextSnapshot) {
    self.init(storage: .text(snapshot.sections.map { ($0, snapshot.outline(ofSection: $0.id)?.roots ?? []) }))
  }

  /// The text view of a generic state given as outlines: the same texts as
  /// ``TextSnapshot/init(displaying:)``, and the same error when two identifiers display alike.
  ///
  /// - Throws: as ``TextSnapshot/init(displaying:)``.
  /// - Complexity: O(n) when every identifier is a string; else a snapshot's bulk build.
  init(displaying generic: Generic) throws(ListLanguageError) {
    if Self.allStringIdentifiers(generic) {
      self.init(storage: .generic(generic))
      return
    }
    let snapshot: ListSnapshot<JournalValueElement, JournalValueElement>
    do { snapshot = try ListSnapshot(generic) } catch {
      throw ListLanguageError(message: "the list's state repeats an identifier: \(error)")
    }
    self.init(try TextSnapshot(displaying: snapshot))
  }

  /// Whether the list has no section.
  var isEmpty: Bool {
    switch storage {
    case .text(let sections): sections.isEmpty
    case .generic(let sections): sections.isEmpty
    }
  }

  private static func allStringIdentifiers(_ generic: Generic) -> Bool {
    func strings(_ nodes: [ListOutline<JournalValueElement>.Node]) -> Bool {
      for node in nodes {
        guard case .string = node.item.id, strings(node.children) else { return false }
      }
      return true
    }
    return generic.allSatisfy { section, outline in
      if case .string = section.id { strings(outline.roots) } else { false }
    }
  }
}
