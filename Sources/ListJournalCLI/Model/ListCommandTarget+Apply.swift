import ListState

extension ListCommandTarget {
  /// Applies one changing command of the list language.
  ///
  /// On error the target is unchanged (the model guarantees it per operation, and every
  /// command here is one model operation after its checks).
  ///
  /// ```swift
  /// var snapshot = TextSnapshot()
  /// try snapshot.apply(.appendSections(["Fruit"]))
  /// try snapshot.apply(.append(["apple"], section: nil, parent: nil))
  /// ```
  ///
  /// - Complexity: that of the model operation, O(k log n) for k identifiers.
  mutating func apply(_ command: ListCommand) throws(ListLanguageError) {
    do {
      try applyThrowingModelErrors(command)
    } catch {
      throw ListLanguageError(message: error.description)
    }
  }

  private mutating func applyThrowingModelErrors(_ command: ListCommand) throws(Failure) {
    // Queries go through `currentList` inline, never a stored copy: a live copy would make the
    // snapshot's storage shared and turn the mutation below into a copy.
    switch command {
    case .appendSections(let ids, let contents):
      try appendSections(ids.map { TextSection(id: $0, content: contents[$0] ?? "") })
    case .insertSections(let ids, let side, let anchor, let contents):
      let sections = ids.map { TextSection(id: $0, content: contents[$0] ?? "") }
      switch side {
      case .before: try insertSections(sections, beforeSection: anchor)
      case .after: try insertSections(sections, afterSection: anchor)
      }
    case .deleteSections(let ids):
      try deleteSections(ids)
    case .moveSection(let id, let side, let anchor):
      switch side {
      case .before: try moveSection(id, beforeSection: anchor)
      case .after: try moveSection(id, afterSection: anchor)
      }
    case .setSection(let id, let content):
      try updateSection(TextSection(id: id, content: content))
    case .reloadSections(let ids):
      try reloadSections(ids)
    case .replaceSection(let old, let new, let content):
      guard let existing = currentList.section(old) else { throw .sectionsNotFound([old]) }
      try replaceSection(old, with: TextSection(id: new, content: content ?? existing.content))
    case .append(let ids, let sectionID, let parent, let contents):
      let items = ids.map { TextItem(id: $0, content: contents[$0] ?? "") }
      if let parent {
        if let sectionID {
          guard currentList.contains(section: sectionID) else { throw .sectionsNotFound([sectionID]) }
          if let actual = currentList.sectionIdentifier(containingItem: parent), actual != sectionID {
            throw .itemsNotFound([parent])
          }
        }
        try appendItems(items, underParent: parent)
      } else {
        try appendItems(items, toSection: sectionID)
      }
    case .insert(let ids, let side, let anchor, let contents):
      let items = ids.map { TextItem(id: $0, content: contents[$0] ?? "") }
      switch side {
      case .before: try insertItems(items, beforeItem: anchor)
      case .after: try insertItems(items, afterItem: anchor)
      }
    case .delete(let ids):
      try deleteItems(ids)
    case .deleteAll:
      deleteAllItems()
    case .move(let id, let destination):
      switch destination {
      case .before(let anchor): try moveItem(id, beforeItem: anchor)
      case .after(let anchor): try moveItem(id, afterItem: anchor)
      case .toSection(let sectionID): try moveItem(id, toSection: sectionID)
      case .under(let parent): try moveItem(id, underParent: parent)
      }
    case .set(let id, let content):
      try updateItem(TextItem(id: id, content: content))
    case .reload(let ids):
      try reloadItems(ids)
    case .reconfigure(let ids):
      try reconfigureItems(ids)
    case .expand(let ids):
      try expand(ids)
    case .collapse(let ids):
      try collapse(ids)
    case .replace(let old, let new, let content):
      guard let existing = currentList.item(old) else { throw .itemsNotFound([old]) }
      try replaceItem(old, with: TextItem(id: new, content: content ?? existing.content))
    case .reorder(let source, let destination):
      try reorderVisibleRow(from: source.resolved(in: currentList), to: destination.resolved(in: currentList))
    case .begin, .commit, .rollback, .undo, .redo, .checkout, .show, .log, .diff, .help:
      break
    }
  }
}
