import ListHistory
import ListState

// The merge rules, written from their statement in the Merging article, one case at a time.

extension ReferenceReplicaFold {
  /// Tombstone chains are acyclic; this only stops a broken model from hanging a test.
  static var stepLimit: Int { 100_000 }

  mutating func apply(_ operation: Operation, of commit: Commit, index: Int) {
    func record(_ subject: Override.Subject, _ reason: Override.Reason) {
      overrides.append(Override(commit: commit.id, operation: index, subject: subject, reason: reason))
    }
    switch operation {
    case .insertItems(let outline, let anchor):
      let (kept, dropped) = withoutExisting(outline.roots)
      for id in dropped { record(.item(id), .duplicateIdentifier) }
      guard let first = kept.first?.item.id else { return }
      guard let target = place(anchor) else { return record(.item(first), .noPlace) }
      if let reason = target.reason { record(.item(first), reason) }
      add(kept, to: target.container, at: target.index)
      forget(ListOutline(kept).itemIdentifiers)

    case .deleteItems(let outline, _):
      for root in outline.roots {
        guard items[root.item.id] != nil else {
          record(.item(root.item.id), .alreadyDeleted)
          continue
        }
        for id in keepUnrecordedDescendants(of: root) { record(.item(id), .keptFromDeletion) }
        supersedeOnDelete(subtree(root.item.id), commit, index)
        deleteRecordingTombstones(root.item.id)
      }

    case .moveItem(let id, _, let to):
      guard let current = location(of: id) else { return record(.item(id), .alreadyDeleted) }
      if to.after == id { return }
      guard let target = place(to) else { return record(.item(id), .noPlace) }
      if case .parent(let parent) = target.container, selfAndAncestors(parent).contains(id) {
        return record(.item(id), .cycle)
      }
      write(.itemPlace(id), .item(id), commit, index)
      if let reason = target.reason { record(.item(id), reason) }
      var destination = target.index
      if target.container == current.container && current.index < destination { destination -= 1 }
      detach(id)
      attach(id, to: target.container, at: destination)

    case .updateItem(_, let new):
      guard items[new.id] != nil else { return record(.item(new.id), .alreadyDeleted) }
      write(.itemContent(new.id), .item(new.id), commit, index)
      items[new.id]!.item = new

    case .replaceItem(let old, let new):
      guard let record0 = items[old.id] else { return record(.item(old.id), .alreadyDeleted) }
      if old.id == new.id {
        write(.itemContent(new.id), .item(new.id), commit, index)
        items[new.id]!.item = new
        return
      }
      guard items[new.id] == nil else { return record(.item(new.id), .duplicateIdentifier) }
      // The new item takes the old one's place, children and expansion.
      let container = record0.container
      setSiblings(siblings(in: container).map { $0 == old.id ? new.id : $0 }, in: container)
      items[old.id] = nil
      items[new.id] = ItemRecord(item: new, isExpanded: record0.isExpanded, children: record0.children, container: container)
      for child in record0.children { items[child]!.container = .parent(new.id) }
      forget([new.id])
      itemTombstones[old.id] = Anchor(container, after: new.id)
      replacedItems[old.id] = new.id

    case .setExpanded(let id, let expanded, _):
      guard items[id] != nil else { return record(.item(id), .alreadyDeleted) }
      write(.itemExpansion(id), .item(id), commit, index)
      items[id]!.isExpanded = expanded

    case .insertSection(let section, let outline, let after):
      guard sectionPosition(section.id) == nil else { return record(.section(section.id), .duplicateIdentifier) }
      let (position, anchorGone) = sectionInsertionIndex(after: after)
      if anchorGone { record(.section(section.id), .anchorDeleted) }
      sections.insert(SectionRecord(section: section, roots: []), at: position)
      sectionTombstones[section.id] = nil
      replacedSections[section.id] = nil
      let (kept, dropped) = withoutExisting(outline.roots)
      for id in dropped { record(.item(id), .duplicateIdentifier) }
      add(kept, to: .section(section.id), at: 0)
      forget(ListOutline(kept).itemIdentifiers)

    case .deleteSection(let section, let outline, _):
      guard let position = sectionPosition(section.id) else { return record(.section(section.id), .alreadyDeleted) }
      let previous = position > 0 ? sections[position - 1].section.id : nil
      let recorded = Set(outline.itemIdentifiers)
      var strays: [Item.ID] = []
      for root in sections[position].roots {
        if recorded.contains(root) { strays += unrecordedDescendants(of: root, recorded: recorded) } else { strays.append(root) }
      }
      // Concurrently added items go to the end of the section before (or after, when first).
      let next = position + 1 < sections.count ? sections[position + 1].section.id : nil
      if let target = previous ?? next {
        for stray in strays {
          detach(stray)
          attach(stray, to: .section(target), at: siblings(in: .section(target)).count)
          record(.item(stray), .keptFromDeletion)
        }
      } else {
        // No section left to keep them in: they go with it, and the delete says so.
        for stray in strays { record(.item(stray), .noPlace) }
      }
      for root in sections[position].roots { supersedeOnDelete(subtree(root), commit, index) }
      for field in [Field.sectionContent(section.id), .sectionPlace(section.id)] {
        supersede(field, .section(section.id), commit, index)
      }
      var before: Item.ID? = nil
      for root in sections[position].roots {
        itemTombstones[root] = Anchor(.section(section.id), after: before)
        recordDescendantTombstones(of: root)
        before = root
      }
      for root in sections[position].roots {
        for id in subtree(root) { items[id] = nil }
      }
      sections.remove(at: position)
      sectionTombstones[section.id] = .some(previous)

    case .moveSection(let id, _, let to):
      guard let position = sectionPosition(id) else { return record(.section(id), .alreadyDeleted) }
      write(.sectionPlace(id), .section(id), commit, index)
      var (destination, anchorGone) = sectionInsertionIndex(after: to)
      if anchorGone { record(.section(id), .anchorDeleted) }
      if to == id { return }
      if position < destination { destination -= 1 }
      let moved = sections.remove(at: position)
      sections.insert(moved, at: destination)

    case .updateSection(_, let new):
      guard let position = sectionPosition(new.id) else { return record(.section(new.id), .alreadyDeleted) }
      write(.sectionContent(new.id), .section(new.id), commit, index)
      sections[position].section = new

    case .replaceSection(let old, let new):
      guard let position = sectionPosition(old.id) else { return record(.section(old.id), .alreadyDeleted) }
      if old.id == new.id {
        write(.sectionContent(new.id), .section(new.id), commit, index)
        sections[position].section = new
        return
      }
      guard sectionPosition(new.id) == nil else { return record(.section(new.id), .duplicateIdentifier) }
      sections[position].section = new
      for root in sections[position].roots { items[root]!.container = .section(new.id) }
      sectionTombstones[old.id] = .some(new.id)
      sectionTombstones[new.id] = nil
      replacedSections[new.id] = nil
      replacedSections[old.id] = new.id
    }
  }

  /// Identifiers that exist again have no tombstone or replacement any more.
  mutating func forget(_ ids: [Item.ID]) {
    for id in ids {
      itemTombstones[id] = nil
      replacedItems[id] = nil
    }
  }

  /// The first creation of an identifier in the order keeps it: nodes whose identifier exists
  /// (or came earlier in the same outline) are dropped with their subtrees.
  func withoutExisting(_ nodes: [ListOutline<Item>.Node]) -> (kept: [ListOutline<Item>.Node], dropped: [Item.ID]) {
    var seen = Set<Item.ID>()
    var dropped: [Item.ID] = []
    func keep(_ nodes: [ListOutline<Item>.Node]) -> [ListOutline<Item>.Node] {
      var kept: [ListOutline<Item>.Node] = []
      for node in nodes {
        if items[node.item.id] != nil || seen.contains(node.item.id) {
          dropped.append(node.item.id)
          continue
        }
        seen.insert(node.item.id)
        kept.append(ListOutline<Item>.Node(node.item, isExpanded: node.isExpanded, children: keep(node.children)))
      }
      return kept
    }
    let kept = keep(nodes)
    return (kept, dropped)
  }

  /// The items under `id` that its recorded subtree does not hold (another replica put them
  /// there concurrently), in document order, without their own descendants.
  func unrecordedDescendants(of id: Item.ID, recorded: Set<Item.ID>) -> [Item.ID] {
    var result: [Item.ID] = []
    for child in items[id]!.children {
      if recorded.contains(child) { result += unrecordedDescendants(of: child, recorded: recorded) } else { result.append(child) }
    }
    return result
  }

  /// Moves the unrecorded descendants of a deleted root to right after it, in document order.
  mutating func keepUnrecordedDescendants(of root: ListOutline<Item>.Node) -> [Item.ID] {
    let recorded = Set(ListOutline([root]).itemIdentifiers)
    let strays = unrecordedDescendants(of: root.item.id, recorded: recorded)
    for (offset, stray) in strays.enumerated() {
      detach(stray)
      let place = location(of: root.item.id)!
      attach(stray, to: place.container, at: place.index + 1 + offset)
    }
    return strays
  }

  /// A delete overrides the content, place and expansion that a concurrent commit of another
  /// replica set on the items it removes.
  mutating func supersedeOnDelete(_ ids: [Item.ID], _ commit: Commit, _ index: Int) {
    for id in ids {
      for field in [Field.itemContent(id), .itemPlace(id), .itemExpansion(id)] { supersede(field, .item(id), commit, index) }
    }
  }

  /// Records `field`'s writer as overridden by `commit` when it was a concurrent commit of
  /// another replica; the writer stays (the field is gone with its item or section).
  mutating func supersede(_ field: Field, _ subject: Override.Subject, _ commit: Commit, _ index: Int) {
    if let old = writers[field], old.commit.replica != commit.id.replica, !commit.isBased(on: old.commit) {
      overrides.append(Override(commit: old.commit, operation: old.operation, subject: subject, reason: .superseded(by: commit.id)))
    }
  }

  /// Deletes an item with its subtree, leaving a tombstone for each (where it was).
  mutating func deleteRecordingTombstones(_ id: Item.ID) {
    let place = location(of: id)!
    let siblings = siblings(in: place.container)
    itemTombstones[id] = Anchor(place.container, after: place.index > 0 ? siblings[place.index - 1] : nil)
    recordDescendantTombstones(of: id)
    remove(id)
  }

  mutating func recordDescendantTombstones(of id: Item.ID) {
    var before: Item.ID? = nil
    for child in items[id]!.children {
      itemTombstones[child] = Anchor(.parent(id), after: before)
      recordDescendantTombstones(of: child)
      before = child
    }
  }

  /// Where an anchor puts an item now: right after the anchor item wherever it is; for a
  /// deleted one, after the sibling it followed (repeatedly), else first in its container; for
  /// a replaced parent or section, the one that replaced it; for a deleted parent, the parent's own place; for a deleted section, the end of the nearest
  /// surviving section before it (the first section when none). Nil when no section is left.
  func place(_ anchor: Anchor) -> (container: Container, index: Int, reason: Override.Reason?)? {
    var container = anchor.container
    var after = anchor.after
    var reason: Override.Reason? = nil
    for _ in 0..<Self.stepLimit {
      if let sibling = after {
        if let found = location(of: sibling) { return (found.container, found.index + 1, reason) }
        if reason == nil { reason = .anchorDeleted }
        if let tombstone = itemTombstones[sibling], tombstone.after != sibling {
          container = tombstone.container
          after = tombstone.after
          continue
        }
        after = nil
      }
      if containerExists(container) { return (container, 0, reason) }
      switch container {
      case .section(let section):
        if let heir = replacedSections[section] {
          // Its items went to the section that replaced it.
          container = .section(heir)
          continue
        }
        guard let target = survivingSection(before: section) else { return nil }
        return (.section(target), siblings(in: .section(target)).count, .containerDeleted)
      case .parent(let parent):
        if let heir = replacedItems[parent] {
          // Its children went to the item that replaced it.
          container = .parent(heir)
          continue
        }
        guard let tombstone = itemTombstones[parent] else { return nil }
        reason = .containerDeleted
        container = tombstone.container
        after = tombstone.after
      }
    }
    return nil
  }

  func survivingSection(before deleted: Section.ID) -> Section.ID? {
    var current = deleted
    for _ in 0..<Self.stepLimit {
      guard let entry = sectionTombstones[current], let previous = entry else { break }
      if sectionPosition(previous) != nil { return previous }
      current = previous
    }
    return sections.first?.section.id
  }

  /// The index of a section placed after `after`: right after it, or after the nearest
  /// surviving section it followed when deleted, first when none; and whether it was deleted.
  func sectionInsertionIndex(after: Section.ID?) -> (Int, Bool) {
    var current = after
    var gone = false
    for _ in 0..<Self.stepLimit {
      guard let section = current else { return (0, gone) }
      if let position = sectionPosition(section) { return (position + 1, gone) }
      gone = true
      guard let entry = sectionTombstones[section] else { return (0, gone) }
      current = entry
    }
    return (0, gone)
  }

  /// Records the writer of a field; the previous writer, if a concurrent commit of another
  /// replica, was superseded by this one (later in the order).
  mutating func write(_ field: Field, _ subject: Override.Subject, _ commit: Commit, _ index: Int) {
    if let old = writers[field], old.commit.replica != commit.id.replica, !commit.isBased(on: old.commit) {
      overrides.append(Override(commit: old.commit, operation: old.operation, subject: subject, reason: .superseded(by: commit.id)))
    }
    writers[field] = (commit.id, index)
  }
}
