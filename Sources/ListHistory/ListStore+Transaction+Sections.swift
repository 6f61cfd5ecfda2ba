import ListState

extension ListStore.Transaction {
  @inlinable
  public mutating func appendSections(_ sections: [Section]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Append", sections.count, "Section"), since: _mark) }
    try _snapshot.appendSections(sections)
    recordInsertedSections(sections)
  }

  @inlinable
  public mutating func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", sections.count, "Section"), since: _mark) }
    try _snapshot.insertSections(sections, beforeSection: anchor)
    recordInsertedSections(sections)
  }

  @inlinable
  public mutating func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", sections.count, "Section"), since: _mark) }
    try _snapshot.insertSections(sections, afterSection: anchor)
    recordInsertedSections(sections)
  }

  @inlinable
  public mutating func insertSections(_ sections: [Section], at index: Int) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Insert", sections.count, "Section"), since: _mark) }
    try _snapshot.insertSections(sections, at: index)
    recordInsertedSections(sections)
  }

  @inlinable
  mutating func recordInsertedSections(_ sections: [Section]) {
    guard let first = sections.first else { return }
    let start = placedSection(first.id)
    for (offset, section) in sections.enumerated() {
      record(.insertSection(section, items: ListOutline(), at: start + offset))
    }
  }

  /// Deletes sections with their items; recorded as one event per section, in order.
  @inlinable
  public mutating func deleteSections(_ ids: [Section.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Delete", ids.count, "Section"), since: _mark) }
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
    _snapshot = scratch
    _events.append(contentsOf: recorded)
  }

  @inlinable
  public mutating func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move", 1, "Section"), since: _mark) }
    let from = snapshot.index(ofSection: id)
    try _snapshot.moveSection(id, beforeSection: anchor)
    recordSectionMove(id, from: from)
  }

  @inlinable
  public mutating func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move", 1, "Section"), since: _mark) }
    let from = snapshot.index(ofSection: id)
    try _snapshot.moveSection(id, afterSection: anchor)
    recordSectionMove(id, from: from)
  }

  @inlinable
  public mutating func moveSection(_ id: Section.ID, toIndex index: Int) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Move", 1, "Section"), since: _mark) }
    let from = snapshot.index(ofSection: id)
    try _snapshot.moveSection(id, toIndex: index)
    recordSectionMove(id, from: from)
  }

  @inlinable
  mutating func recordSectionMove(_ id: Section.ID, from: Int?) {
    guard let from else { preconditionFailure("ListSnapshot moved unknown section \(id)") }
    let to = placedSection(id)
    if from != to { record(.moveSection(id, from: from, to: to)) }
  }

  @inlinable
  public mutating func reloadSections(_ ids: [Section.ID]) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Reload", ids.count, "Section"), since: _mark) }
    try _snapshot.reloadSections(ids)
    if !ids.isEmpty { record(.reloadSections(ids)) }
  }

  @inlinable
  public mutating func updateSection(_ section: Section) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Edit", 1, "Section"), since: _mark) }
    let old = snapshot.section(section.id)
    if let old, old == section { return }  // the same content: nothing changes
    try _snapshot.updateSection(section)
    if let old { record(.updateSection(old: old, new: section)) }
  }

  @inlinable
  public mutating func replaceSection(_ id: Section.ID, with newSection: Section) throws(Failure) {
    let _mark = _events.count
    defer { _noteLabel(_OperationLabel("Replace", 1, "Section"), since: _mark) }
    let old = snapshot.section(id)
    if let old, old == newSection, newSection.id == id { return }  // the same section and content
    try _snapshot.replaceSection(id, with: newSection)
    if let old { record(.replaceSection(old: old, new: newSection)) }
  }
}
