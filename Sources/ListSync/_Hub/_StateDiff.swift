import ListState
import ListHistory

/// What changed between two states, by identifier: the read endpoint's diff.
struct _StateDiff {
  typealias Snapshot = ListSnapshot<JournalValueElement, JournalValueElement>

  struct Changes {
    var inserted: [JournalValue] = []
    var deleted: [JournalValue] = []
    var updated: [JournalValue] = []
    var moved: [JournalValue] = []
  }

  var sections = Changes()
  var items = Changes()

  init(old: Snapshot, new: Snapshot) {
    let oldSections = old.sectionIdentifiers
    let newSections = new.sectionIdentifiers
    let oldSectionSet = Set(oldSections)
    for id in newSections {
      guard oldSectionSet.contains(id) else {
        sections.inserted.append(id)
        continue
      }
      if old.section(id) != new.section(id) { sections.updated.append(id) }
    }
    // A section moved when its place among the sections both states hold changed.
    let kept = Set(newSections).intersection(oldSections)
    let oldKept = oldSections.filter { kept.contains($0) }
    let newKept = newSections.filter { kept.contains($0) }
    for (position, id) in newKept.enumerated() where oldKept[position] != id { sections.moved.append(id) }
    let newSectionSet = Set(newSections)
    sections.deleted = oldSections.filter { !newSectionSet.contains($0) }

    func place(_ snapshot: Snapshot, _ id: JournalValue) -> (JournalValue?, JournalValue?, Int?) {
      (snapshot.sectionIdentifier(containingItem: id), snapshot.parent(of: id), snapshot.index(ofItem: id))
    }
    let oldItems = old.itemIdentifiers
    let newItems = new.itemIdentifiers
    let oldSet = Set(oldItems)
    let newSet = Set(newItems)
    for id in newItems {
      guard oldSet.contains(id) else {
        items.inserted.append(id)
        continue
      }
      if old.item(id) != new.item(id) { items.updated.append(id) }
      if place(old, id) != place(new, id) { items.moved.append(id) }
    }
    items.deleted = oldItems.filter { !newSet.contains($0) }
  }
}
