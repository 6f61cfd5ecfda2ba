import ListState

extension ListStore.Transaction {
  public mutating func appendSections(_ sections: [Section]) throws(Failure) {
    try snapshot.appendSections(sections)
    recordInsertedSections(sections)
  }

  public mutating func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws(Failure) {
    try snapshot.insertSections(sections, beforeSection: anchor)
    recordInsertedSections(sections)
  }

  public mutating func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws(Failure) {
    try snapshot.insertSections(sections, afterSection: anchor)
    recordInsertedSections(sections)
  }

  public mutating func insertSections(_ sections: [Section], at index: Int) throws(Failure) {
    try snapshot.insertSections(sections, at: index)
    recordInsertedSections(sections)
  }

  mutating func recordInsertedSections(_ sections: [Section]) {
    guard let first = sections.first else { return }
    let start = placedSection(first.id)
    for (offset, section) in sections.enumerated() {
      record(.insertSection(section, items: ListOutline(), at: start + offset))
    }
  }

  /// Deletes sections with their items; recorded as one event per section, in order.
  public mutating func deleteSections(_ ids: [Section.ID]) throws(Failure) {
    var scratch = snapshot
    var recorded: [Event] = []
    var needsModelValidation = ids.count > 1 && Set(ids).count != ids.count
    for id in ids {
      guard let index = scratch.index(ofSection: id), let section = scratch.section(id) else {
        needsModelValidation = true
        continue
      }
      let outline = scratch.outline(ofSection: id) ?? ListOutline()
      try scratch.deleteSections([id])
      recorded.append(.deleteSection(section, items: outline, at: index))
    }
    if needsModelValidation {
      var check = snapshot
      try check.deleteSections(ids)
    }
    snapshot = scratch
    events.append(contentsOf: recorded)
  }

  public mutating func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws(Failure) {
    let from = snapshot.index(ofSection: id)
    try snapshot.moveSection(id, beforeSection: anchor)
    recordSectionMove(id, from: from)
  }

  public mutating func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws(Failure) {
    let from = snapshot.index(ofSection: id)
    try snapshot.moveSection(id, afterSection: anchor)
    recordSectionMove(id, from: from)
  }

  public mutating func moveSection(_ id: Section.ID, toIndex index: Int) throws(Failure) {
    let from = snapshot.index(ofSection: id)
    try snapshot.moveSection(id, toIndex: index)
    recordSectionMove(id, from: from)
  }

  mutating func recordSectionMove(_ id: Section.ID, from: Int?) {
    guard let from else { preconditionFailure("ListSnapshot moved unknown section \(id)") }
    let to = placedSection(id)
    if from != to { record(.moveSection(id, from: from, to: to)) }
  }

  public mutating func reloadSections(_ ids: [Section.ID]) throws(Failure) {
    try snapshot.reloadSections(ids)
    if !ids.isEmpty { record(.reloadSections(ids)) }
  }

  public mutating func updateSection(_ section: Section) throws(Failure) {
    let old = snapshot.section(section.id)
    try snapshot.updateSection(section)
    if let old { record(.updateSection(old: old, new: section)) }
  }

  public mutating func replaceSection(_ id: Section.ID, with newSection: Section) throws(Failure) {
    let old = snapshot.section(id)
    try snapshot.replaceSection(id, with: newSection)
    if let old { record(.replaceSection(old: old, new: newSection)) }
  }
}
