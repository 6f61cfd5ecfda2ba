import ListHistory
import ListState

extension TextSnapshot {
  /// The text view of a list decoded without the app's types: identifiers and contents become
  /// their display text (``JournalValue/displayText``, ``JournalValueElement/displayContent``);
  /// order, nesting and expansion are kept.
  ///
  /// ```swift
  /// let text = try TextSnapshot(displaying: history.snapshot)
  /// ```
  ///
  /// - Throws: when two different identifiers display as the same text (the string `"7"` and
  ///   the number `7` in one namespace), naming it.
  /// - Complexity: O(n) tree work plus a hash-map insertion per item (one bulk build).
  init(displaying generic: ListSnapshot<JournalValueElement, JournalValueElement>) throws(ListLanguageError) {
    // One bulk build of the whole list (a section at a time took half as long again on a 230K-item
    // head). It finds clashing identifiers too, but names them without their section and
    // original values: then the build is redone a section at a time to say which.
    var sections: [(TextSection, ListOutline<TextItem>)] = []
    sections.reserveCapacity(generic.numberOfSections)
    for section in generic.sections {
      let roots = generic.outline(ofSection: section.id)?.roots ?? []
      sections.append(
        (TextSection(id: section.id.displayText, content: section.displayContent), ListOutline(roots.map(Self.node))))
    }
    do {
      try self.init(sections)
    } catch {
      try self.init(namingClashesIn: generic)
    }
  }

  /// The section-at-a-time build, which throws naming the first identifier that displays like
  /// another one.
  private init(namingClashesIn generic: ListSnapshot<JournalValueElement, JournalValueElement>) throws(ListLanguageError) {
    self.init()
    for section in generic.sections {
      let converted = TextSection(id: section.id.displayText, content: section.displayContent)
      do {
        try appendSections([converted])
      } catch {
        throw ListLanguageError(message: "two sections display as '\(converted.id)' (\(section.id.jsonText) and another); the CLI cannot show them apart")
      }
      guard let outline = generic.outline(ofSection: section.id), !outline.roots.isEmpty else { continue }
      do {
        try append(ListOutline(outline.roots.map(Self.node)), toSection: converted.id)
      } catch {
        throw ListLanguageError(message: "two items display as the same text in section '\(converted.id)' (\(error)); the CLI cannot show them apart")
      }
    }
  }

  private static func node(_ node: ListOutline<JournalValueElement>.Node) -> ListOutline<TextItem>.Node {
    ListOutline<TextItem>.Node(
      TextItem(id: node.item.id.displayText, content: node.item.displayContent), isExpanded: node.isExpanded,
      children: node.children.map(Self.node))
  }
}
