import ListState

// Section operations of the reference model: same names, arguments and meaning as ListSnapshot.

extension ReferenceList {
  func appendSectionsProblems(_ sections: [Section]) -> [Failure] {
    newSectionProblems(sections.map { $0.id })
  }

  public mutating func appendSections(_ sections: [Section]) throws(Failure) {
    try check(appendSectionsProblems(sections))
    entries += sections.map { SectionEntry(section: $0) }
  }

  func insertSectionsProblems(_ sections: [Section], anchor: Section.ID) -> [Failure] {
    var problems = newSectionProblems(sections.map { $0.id }) + unknownSectionProblems([anchor])
    if sections.contains(where: { $0.id == anchor }) { problems.append(.anchorAmongInsertedSections(anchor)) }
    return problems
  }

  public mutating func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws(Failure) {
    try check(insertSectionsProblems(sections, anchor: anchor))
    entries.insert(contentsOf: sections.map { SectionEntry(section: $0) }, at: index(ofSection: anchor)!)
  }

  public mutating func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws(Failure) {
    try check(insertSectionsProblems(sections, anchor: anchor))
    entries.insert(contentsOf: sections.map { SectionEntry(section: $0) }, at: index(ofSection: anchor)! + 1)
  }

  func insertSectionsAtProblems(_ sections: [Section], index: Int) -> [Failure] {
    var problems = newSectionProblems(sections.map { $0.id })
    if !(0...entries.count).contains(index) { problems.append(.indexOutOfRange(index: index, count: entries.count)) }
    return problems
  }

  public mutating func insertSections(_ sections: [Section], at index: Int) throws(Failure) {
    try check(insertSectionsAtProblems(sections, index: index))
    entries.insert(contentsOf: sections.map { SectionEntry(section: $0) }, at: index)
  }

  func existingSectionsProblems(_ ids: [Section.ID]) -> [Failure] {
    duplicateSectionProblems(ids) + unknownSectionProblems(ids)
  }

  /// Deletes the sections with all their items (and the markers of both).
  public mutating func deleteSections(_ ids: [Section.ID]) throws(Failure) {
    try check(existingSectionsProblems(ids))
    for id in ids {
      let index = index(ofSection: id)!
      dropItemMarkers(Outline(entries[index].roots).itemIdentifiers)
      reloadedSections.remove(id)
      entries.remove(at: index)
    }
  }

  func moveSectionProblems(_ id: Section.ID, anchor: Section.ID) -> [Failure] {
    var problems = unknownSectionProblems([id, anchor])
    if id == anchor { problems.append(.sectionRelativeToItself(id)) }
    return problems
  }

  public mutating func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws(Failure) {
    try check(moveSectionProblems(id, anchor: anchor))
    let entry = entries.remove(at: index(ofSection: id)!)
    entries.insert(entry, at: index(ofSection: anchor)!)
  }

  public mutating func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws(Failure) {
    try check(moveSectionProblems(id, anchor: anchor))
    let entry = entries.remove(at: index(ofSection: id)!)
    entries.insert(entry, at: index(ofSection: anchor)! + 1)
  }

  func moveSectionToIndexProblems(_ id: Section.ID, index: Int) -> [Failure] {
    var problems = unknownSectionProblems([id])
    if !(0..<entries.count).contains(index) { problems.append(.indexOutOfRange(index: index, count: entries.count)) }
    return problems
  }

  /// The section ends at `index` of the final order.
  public mutating func moveSection(_ id: Section.ID, toIndex index: Int) throws(Failure) {
    try check(moveSectionToIndexProblems(id, index: index))
    let entry = entries.remove(at: self.index(ofSection: id)!)
    entries.insert(entry, at: index)
  }

  public mutating func reloadSections(_ ids: [Section.ID]) throws(Failure) {
    try check(existingSectionsProblems(ids))
    reloadedSections.formUnion(ids)
  }

  func updateSectionProblems(_ section: Section) -> [Failure] { unknownSectionProblems([section.id]) }

  public mutating func updateSection(_ section: Section) throws(Failure) {
    try check(updateSectionProblems(section))
    entries[index(ofSection: section.id)!].section = section
    reloadedSections.insert(section.id)
  }

  func replaceSectionProblems(_ id: Section.ID, with newSection: Section) -> [Failure] {
    var problems = unknownSectionProblems([id])
    if newSection.id != id, contains(section: newSection.id) { problems.append(.sectionsAlreadyExist([newSection.id])) }
    return problems
  }

  /// `newSection` takes `id`'s place and items; `id`'s marker goes, `newSection` is marked reloaded.
  public mutating func replaceSection(_ id: Section.ID, with newSection: Section) throws(Failure) {
    try check(replaceSectionProblems(id, with: newSection))
    entries[index(ofSection: id)!].section = newSection
    reloadedSections.remove(id)
    reloadedSections.insert(newSection.id)
  }
}
