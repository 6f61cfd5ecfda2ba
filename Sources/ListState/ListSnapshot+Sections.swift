// Validation order of the section operations (the first failing check throws):
// duplicates in the argument → unknown sections/anchors → index range → anchor among the
// inserted sections → sections that already exist → relative to itself.
extension ListSnapshot {
  /// Appends sections at the end.
  ///
  /// ```swift
  /// try snapshot.appendSections(["Fruit", "Vegetables"])
  /// ```
  /// - Throws: `.duplicateSections`, `.sectionsAlreadyExist`.
  /// - Complexity: O(k log s) for k new sections among s.
  @inlinable
  public mutating func appendSections(_ sections: [Section]) throws(Failure) {
    try _validateNewSections(sections, anchor: nil)
    _placeNewSections(sections, at: _sectionOrder.count)
    _checkInvariants()
  }

  /// Inserts sections before `anchor`.
  ///
  /// - Throws: `.duplicateSections`, `.sectionsNotFound([anchor])`,
  ///   `.anchorAmongInsertedSections`, `.sectionsAlreadyExist`.
  /// - Complexity: O(k log s).
  @inlinable
  public mutating func insertSections(_ sections: [Section], beforeSection anchor: Section.ID) throws(Failure) {
    try _validateNewSections(sections, anchor: anchor)
    _placeNewSections(sections, at: index(ofSection: anchor)!)
    _checkInvariants()
  }

  /// Inserts sections after `anchor`.
  ///
  /// - Throws: as ``insertSections(_:beforeSection:)``.
  /// - Complexity: O(k log s).
  @inlinable
  public mutating func insertSections(_ sections: [Section], afterSection anchor: Section.ID) throws(Failure) {
    try _validateNewSections(sections, anchor: anchor)
    _placeNewSections(sections, at: index(ofSection: anchor)! + 1)
    _checkInvariants()
  }

  /// Positional insert: the first new section lands at `index` (0...numberOfSections).
  ///
  /// - Throws: `.duplicateSections`, `.indexOutOfRange`, `.sectionsAlreadyExist`.
  /// - Complexity: O(k log s).
  @inlinable
  public mutating func insertSections(_ sections: [Section], at index: Int) throws(Failure) {
    let duplicates = Self._duplicates(in: sections.lazy.map(\.id))
    if !duplicates.isEmpty { throw .duplicateSections(duplicates) }
    guard index >= 0, index <= _sectionOrder.count else {
      throw .indexOutOfRange(index: index, count: _sectionOrder.count)
    }
    let existing = _existingSections(sections.lazy.map(\.id))
    if !existing.isEmpty { throw .sectionsAlreadyExist(existing) }
    _placeNewSections(sections, at: index)
    _checkInvariants()
  }

  @inlinable
  func _validateNewSections(_ sections: [Section], anchor: Section.ID?) throws(Failure) {
    if sections.count == 1 {
      // One section: the same checks in the same order, without the arrays and sets.
      let id = sections[0].id
      if let anchor {
        if !_sectionRecords.contains(anchor) { throw .sectionsNotFound([anchor]) }
        if id == anchor { throw .anchorAmongInsertedSections(anchor) }
      }
      if _sectionRecords.contains(id) { throw .sectionsAlreadyExist([id]) }
      return
    }
    let ids = sections.map(\.id)
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateSections(duplicates) }
    if let anchor {
      try _requireSections([anchor])
      if ids.contains(anchor) { throw .anchorAmongInsertedSections(anchor) }
    }
    let existing = _existingSections(ids)
    if !existing.isEmpty { throw .sectionsAlreadyExist(existing) }
  }

  /// Deletes the sections and every item in them.
  ///
  /// - Throws: `.duplicateSections`, `.sectionsNotFound`.
  /// - Complexity: O(k) for k deleted items, plus O(log n) per section.
  @inlinable
  public mutating func deleteSections(_ ids: [Section.ID]) throws(Failure) {
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateSections(duplicates) }
    try _requireSections(ids)
    for id in ids {
      let record = _sectionRecords.removeValue(forKey: id)!
      record.roots.forEach { _removeRecords(ofSubtree: $0.id) }
      _sectionOrder.remove(label: record.label)
      _reloadedSections.remove(id)
    }
    _checkInvariants()
  }

  /// Moves a section (with its items) to just before `anchor`.
  ///
  /// - Throws: `.sectionsNotFound`, `.sectionRelativeToItself`.
  /// - Complexity: O(log s).
  @inlinable
  public mutating func moveSection(_ id: Section.ID, beforeSection anchor: Section.ID) throws(Failure) {
    try _requireSections([id, anchor])
    if id == anchor { throw .sectionRelativeToItself(id) }
    let entry = _detachSection(id)
    _attachSection(entry, at: index(ofSection: anchor)!)
    _checkInvariants()
  }

  /// Moves a section (with its items) to just after `anchor`.
  ///
  /// - Throws: `.sectionsNotFound`, `.sectionRelativeToItself`.
  /// - Complexity: O(log s).
  @inlinable
  public mutating func moveSection(_ id: Section.ID, afterSection anchor: Section.ID) throws(Failure) {
    try _requireSections([id, anchor])
    if id == anchor { throw .sectionRelativeToItself(id) }
    let entry = _detachSection(id)
    _attachSection(entry, at: index(ofSection: anchor)! + 1)
    _checkInvariants()
  }

  /// Positional move: the section ends at `index` of the final order (0..<numberOfSections).
  ///
  /// - Throws: `.sectionsNotFound`, `.indexOutOfRange`.
  /// - Complexity: O(log s).
  @inlinable
  public mutating func moveSection(_ id: Section.ID, toIndex index: Int) throws(Failure) {
    try _requireSections([id])
    guard index >= 0, index < _sectionOrder.count else {
      throw .indexOutOfRange(index: index, count: _sectionOrder.count)
    }
    let entry = _detachSection(id)
    _attachSection(entry, at: index)
    _checkInvariants()
  }

  @inlinable
  mutating func _detachSection(_ id: Section.ID) -> _OrderedEntry<Section.ID> {
    _sectionOrder.remove(label: _sectionRecords.peek(id) { $0.label }!)!
  }

  @inlinable
  mutating func _attachSection(_ entry: _OrderedEntry<Section.ID>, at index: Int) {
    var relabeled: [(Section.ID, UInt64)] = []
    let label = _sectionOrder.insert(contentsOf: [entry], at: index, relabeled: &relabeled)[0]
    for (id, label) in relabeled { _sectionRecords.modify(id) { $0.label = label } }
    _sectionRecords.modify(entry.id) { $0.label = label }
  }

  /// Marks sections reloaded.
  ///
  /// - Throws: `.duplicateSections`, `.sectionsNotFound`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func reloadSections(_ ids: [Section.ID]) throws(Failure) {
    let duplicates = Self._duplicates(in: ids)
    if !duplicates.isEmpty { throw .duplicateSections(duplicates) }
    try _requireSections(ids)
    for id in ids { _reloadedSections.insert(id) }
    _checkInvariants()
  }

  /// Content update of an existing section (matched by id); marks it reloaded.
  ///
  /// - Throws: `.sectionsNotFound`.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func updateSection(_ section: Section) throws(Failure) {
    try _requireSections([section.id])
    _sectionRecords.modify(section.id) { $0.value = section }
    _reloadedSections.insert(section.id)
    _checkInvariants()
  }

  /// Replace header: `newSection` takes `id`'s place and all its items. `newSection.id` may
  /// equal `id` (then it is a content update). The new section is marked reloaded.
  ///
  /// ```swift
  /// try snapshot.replaceSection("Fruit", with: "Fruit (3)")
  /// ```
  /// - Throws: `.sectionsNotFound([id])`, `.sectionsAlreadyExist([newSection.id])`.
  /// - Complexity: O(r log n) for r root items (each root names its section).
  @inlinable
  public mutating func replaceSection(_ id: Section.ID, with newSection: Section) throws(Failure) {
    try _requireSections([id])
    if newSection.id == id {
      _sectionRecords.modify(id) { $0.value = newSection }
      _reloadedSections.insert(id)
      _checkInvariants()
      return
    }
    if _sectionRecords.contains(newSection.id) { throw .sectionsAlreadyExist([newSection.id]) }
    var record = _sectionRecords.removeValue(forKey: id)!
    record.value = newSection
    _sectionOrder.replaceID(label: record.label, with: newSection.id)
    record.roots.forEach { _itemRecords.modify($0.id) { $0.container = .section(newSection.id) } }
    _sectionRecords.updateValue(record, forKey: newSection.id)
    _reloadedSections.remove(id)
    _reloadedSections.insert(newSection.id)
    _checkInvariants()
  }
}
