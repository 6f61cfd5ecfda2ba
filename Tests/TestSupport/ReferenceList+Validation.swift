import ListState

// Validation helpers shared by the reference operations. Each operation first computes every
// problem it can see (`…Problems`), throws the first one if any, and only then mutates: a
// throwing operation leaves the model exactly as it was.
//
// The full problem list doubles as the set of errors an implementation may legitimately throw
// when several checks fail at once (precedence between checks is not specified).

extension Array where Element: Hashable {
  /// The elements in order with later repeats dropped.
  func uniquedInOrder() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}

extension ReferenceList {
  /// Identifiers that occur more than once, in argument order, deduplicated.
  ///
  /// "Argument order" is ambiguous for repeats: ordered by first occurrence (`[a, b, b, a]` →
  /// `[a, b]`) or by the occurrence that made them repeats (→ `[b, a]`). Both are returned when
  /// they differ, and either is accepted.
  static func duplicateOrders<ID: Hashable>(_ ids: [ID]) -> [[ID]] {
    var counts: [ID: Int] = [:]
    for id in ids { counts[id, default: 0] += 1 }
    let byFirst = ids.filter { counts[$0]! > 1 }.uniquedInOrder()
    var seen = Set<ID>()
    var bySecond: [ID] = []
    for id in ids where !seen.insert(id).inserted { bySecond.append(id) }
    bySecond = bySecond.uniquedInOrder()
    if byFirst.isEmpty { return [] }
    return byFirst == bySecond ? [byFirst] : [byFirst, bySecond]
  }

  func duplicateItemProblems(_ ids: [Item.ID]) -> [Failure] {
    Self.duplicateOrders(ids).map { .duplicateItems($0) }
  }

  func duplicateSectionProblems(_ ids: [Section.ID]) -> [Failure] {
    Self.duplicateOrders(ids).map { .duplicateSections($0) }
  }

  func unknownItemProblems(_ ids: [Item.ID]) -> [Failure] {
    let unknown = ids.filter { !contains(item: $0) }.uniquedInOrder()
    return unknown.isEmpty ? [] : [.itemsNotFound(unknown)]
  }

  func unknownSectionProblems(_ ids: [Section.ID]) -> [Failure] {
    let unknown = ids.filter { !contains(section: $0) }.uniquedInOrder()
    return unknown.isEmpty ? [] : [.sectionsNotFound(unknown)]
  }

  /// Items to add: no repeats in the argument, none already in the list.
  func newItemProblems(_ ids: [Item.ID]) -> [Failure] {
    let existing = ids.filter { contains(item: $0) }.uniquedInOrder()
    return duplicateItemProblems(ids) + (existing.isEmpty ? [] : [.itemsAlreadyExist(existing)])
  }

  /// Sections to add: no repeats in the argument, none already in the list.
  func newSectionProblems(_ ids: [Section.ID]) -> [Failure] {
    let existing = ids.filter { contains(section: $0) }.uniquedInOrder()
    return duplicateSectionProblems(ids) + (existing.isEmpty ? [] : [.sectionsAlreadyExist(existing)])
  }

  /// Moving `id` relative to `target` (an anchor or a new parent): both known, not the same
  /// item, and `target` not inside `id`'s subtree.
  func relativeMoveProblems(_ id: Item.ID, _ target: Item.ID) -> [Failure] {
    var problems = unknownItemProblems([id, target])
    if id == target { problems.append(.itemRelativeToItself(id)) }
    if problems.isEmpty, subtree(of: id).dropFirst().contains(target) {
      problems.append(.itemUnderOwnDescendant(item: id, destination: target))
    }
    return problems
  }

  func check(_ problems: [Failure]) throws(Failure) {
    if let first = problems.first { throw first }
  }
}
