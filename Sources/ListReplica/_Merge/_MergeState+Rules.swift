import ListState
import ListHistory

// The merge rules, one per case (the Merging article states them with examples). Every read
// goes through the transaction's working snapshot: the state's own is lent to it meanwhile.
extension _MergeState {
  @usableFromInline typealias Location = ListItemLocation<Section.ID, Item.ID>
  @usableFromInline typealias Outline = ListOutline<Item>

  /// The most tombstones a placement follows before it gives up and the operation records
  /// `noPlace` (chains are acyclic by construction; this bounds the work on adversarial input).
  @inlinable
  static var maximumTombstoneSteps: Int { 10_000 }

  @inlinable
  mutating func apply(
    _ operation: ReplicaOperation<Section, Item>, context: inout _RuleContext<Section, Item>,
    transaction tx: inout Transaction, applied: inout _AppliedCommit<Section, Item>
  ) {
    do {
      switch operation {
      case .insertItems(let outline, let anchor):
        try insertItems(outline, at: anchor, context: context, &tx, &applied)
      case .deleteItems(let outline, _):
        try deleteItems(outline, context: context, &tx, &applied)
      case .moveItem(let id, _, let to):
        try moveItem(id, to: to, context: context, &tx, &applied)
      case .updateItem(_, let new):
        guard tx.snapshot.contains(item: new.id) else {
          return applied.overrides.append(context.override(.item(new.id), .alreadyDeleted))
        }
        write(.itemContent(new.id), subject: .item(new.id), context: context, &applied)
        try tx.updateItem(new)
      case .replaceItem(let old, let new):
        try replaceItem(old, with: new, context: context, &tx, &applied)
      case .setExpanded(let id, let expanded, _):
        guard tx.snapshot.contains(item: id) else {
          return applied.overrides.append(context.override(.item(id), .alreadyDeleted))
        }
        write(.itemExpansion(id), subject: .item(id), context: context, &applied)
        if expanded { try tx.expand([id]) } else { try tx.collapse([id]) }
      case .insertSection(let section, let items, let after):
        try insertSection(section, items: items, after: after, context: context, &tx, &applied)
      case .deleteSection(let section, let items, _):
        try deleteSection(section.id, recorded: items, context: context, &tx, &applied)
      case .moveSection(let id, _, let to):
        guard let current = tx.snapshot.index(ofSection: id) else {
          return applied.overrides.append(context.override(.section(id), .alreadyDeleted))
        }
        write(.sectionPlace(id), subject: .section(id), context: context, &applied)
        var (index, moved) = sectionIndex(after: to, in: tx.snapshot)
        if moved { applied.overrides.append(context.override(.section(id), .anchorDeleted)) }
        if to == id { return }
        if current < index { index -= 1 }
        try tx.moveSection(id, toIndex: index)
      case .updateSection(_, let new):
        guard tx.snapshot.contains(section: new.id) else {
          return applied.overrides.append(context.override(.section(new.id), .alreadyDeleted))
        }
        write(.sectionContent(new.id), subject: .section(new.id), context: context, &applied)
        try tx.updateSection(new)
      case .replaceSection(let old, let new):
        guard tx.snapshot.contains(section: old.id) else {
          return applied.overrides.append(context.override(.section(old.id), .alreadyDeleted))
        }
        if old.id == new.id {
          write(.sectionContent(new.id), subject: .section(new.id), context: context, &applied)
          return try tx.updateSection(new)
        }
        guard !tx.snapshot.contains(section: new.id) else {
          return applied.overrides.append(context.override(.section(new.id), .duplicateIdentifier))
        }
        try tx.replaceSection(old.id, with: new)
        setSectionTombstone(old.id, .some(new.id), &applied)
        if sectionTombstones[new.id] != nil { setSectionTombstone(new.id, .none, &applied) }
        // Items put into the old section go into the new one, which holds its items now.
        setSectionReplacement(new.id, nil, &applied)
        setSectionReplacement(old.id, new.id, &applied)
      }
    } catch {
      // The rules check every precondition first; an operation the list still refuses is
      // reported like the others, never applied halfway (the transaction's step is atomic).
      applied.overrides.append(context.override(operation.subject, .noPlace))
    }
  }

  // MARK: Items

  @inlinable
  mutating func insertItems(
    _ outline: Outline, at anchor: Anchor, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    let fresh = withoutExisting(outline, in: tx.snapshot, context: context, &applied)
    guard let first = fresh.roots.first?.item.id else { return }
    guard let (location, reason) = place(anchor, moving: nil, in: tx.snapshot) else {
      return applied.overrides.append(context.override(.item(first), .noPlace))
    }
    if let reason { applied.overrides.append(context.override(.item(first), reason)) }
    try tx.insert(fresh, at: location)
    clearTables(for: fresh.itemIdentifiers, &applied)
  }

  /// The outline without the subtrees whose identifiers the list (or the outline itself) has
  /// already: the first creation in the order keeps an identifier.
  @inlinable
  func withoutExisting(
    _ outline: Outline, in snapshot: ListSnapshot<Section, Item>, context: _RuleContext<Section, Item>,
    _ applied: inout _AppliedCommit<Section, Item>
  ) -> Outline {
    // The common case, one new leaf, without rebuilding anything.
    if outline.roots.count == 1, outline.roots[0].children.isEmpty {
      if snapshot.contains(item: outline.roots[0].item.id) {
        applied.overrides.append(context.override(.item(outline.roots[0].item.id), .duplicateIdentifier))
        return Outline()
      }
      return outline
    }
    var seen = Set<Item.ID>()
    func keep(_ nodes: [Outline.Node]) -> [Outline.Node] {
      var kept: [Outline.Node] = []
      for node in nodes {
        guard !snapshot.contains(item: node.item.id), seen.insert(node.item.id).inserted else {
          applied.overrides.append(context.override(.item(node.item.id), .duplicateIdentifier))
          continue
        }
        kept.append(Outline.Node(node.item, isExpanded: node.isExpanded, children: keep(node.children)))
      }
      return kept
    }
    return Outline(keep(outline.roots))
  }

  @inlinable
  mutating func deleteItems(
    _ outline: Outline, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    for root in outline.roots {
      let id = root.item.id
      guard let location = tx.snapshot.location(ofItem: id) else {
        applied.overrides.append(context.override(.item(id), .alreadyDeleted))
        continue
      }
      // Items another replica put under the deleted one concurrently survive it, where it was.
      if !tx.snapshot.children(of: id).isEmpty {
        try keepUnrecordedChildren(of: root, at: location, context: context, &tx, &applied)
      }
      let location2 = tx.snapshot.location(ofItem: id)!
      let before = location2.index > 0 ? tx.snapshot.itemIdentifier(at: Location(location2.container, index: location2.index - 1)) : nil
      setTombstone(id, Anchor(location2.container, after: before), &applied)
      deleting(id, context: context, &applied)
      recordTombstones(under: id, in: tx.snapshot, context: context, &applied)
      try tx.deleteItems([id])
    }
  }

  /// Tombstones for the descendants of an item about to be deleted: each at its place under
  /// its parent (what an insert anchored on one of them finds).
  @inlinable
  mutating func recordTombstones(
    under id: Item.ID, in snapshot: ListSnapshot<Section, Item>, context: _RuleContext<Section, Item>,
    _ applied: inout _AppliedCommit<Section, Item>
  ) {
    var stack = [id]
    while let parent = stack.popLast() {
      var previous: Item.ID? = nil
      for child in snapshot.children(of: parent) {
        setTombstone(child, Anchor(.parent(parent), after: previous), &applied)
        deleting(child, context: context, &applied)
        previous = child
        stack.append(child)
      }
    }
  }

  /// A deleted item's content, place and expansion as set by a concurrent commit of another
  /// replica: that change is overridden by the delete (later in the order), and says so.
  @inlinable
  func deleting(_ id: Item.ID, context: _RuleContext<Section, Item>, _ applied: inout _AppliedCommit<Section, Item>) {
    guard !writers.isEmpty else { return }
    superseded(.itemContent(id), .item(id), context: context, &applied)
    superseded(.itemPlace(id), .item(id), context: context, &applied)
    superseded(.itemExpansion(id), .item(id), context: context, &applied)
  }

  @inlinable
  func superseded(
    _ field: Field, _ subject: ReplicaOverride<Section, Item>.Subject, context: _RuleContext<Section, Item>,
    _ applied: inout _AppliedCommit<Section, Item>
  ) {
    guard let old = writers[field], old.commit.replica != context.commit.id.replica, !context.commit.isBased(on: old.commit)
    else { return }
    applied.overrides.append(
      ReplicaOverride(commit: old.commit, operation: old.operation, subject: subject, reason: .superseded(by: context.commit.id)))
  }

  /// Moves the children of `root`'s subtree that its recorded outline does not list (added
  /// concurrently) out to right after `root`, in order.
  @inlinable
  mutating func keepUnrecordedChildren(
    of root: Outline.Node, at location: Location, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    var recorded = Set<Item.ID>()
    var nodes = [root]
    while let node = nodes.popLast() {
      recorded.insert(node.item.id)
      nodes.append(contentsOf: node.children)
    }
    // In list order: each recorded node's children are visited before its next sibling.
    var strays: [Item.ID] = []
    var stack = Array(tx.snapshot.children(of: root.item.id).reversed())
    while let node = stack.popLast() {
      if recorded.contains(node) { stack.append(contentsOf: tx.snapshot.children(of: node).reversed()) } else { strays.append(node) }
    }
    var after = root.item.id
    for stray in strays {
      guard let anchorPlace = tx.snapshot.location(ofItem: after) else { continue }
      try tx.moveItem(stray, to: Location(anchorPlace.container, index: anchorPlace.index + 1))
      applied.overrides.append(context.override(.item(stray), .keptFromDeletion))
      after = stray
    }
  }

  @inlinable
  mutating func moveItem(
    _ id: Item.ID, to anchor: Anchor, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    guard let current = tx.snapshot.location(ofItem: id) else {
      return applied.overrides.append(context.override(.item(id), .alreadyDeleted))
    }
    guard anchor.after != id else { return }
    guard let (target, reason) = place(anchor, moving: id, in: tx.snapshot) else {
      return applied.overrides.append(context.override(.item(id), .noPlace))
    }
    // A parent chain that reaches the moved item: the move would put it inside itself.
    if case .parent(var ancestor) = target.container {
      while true {
        if ancestor == id { return applied.overrides.append(context.override(.item(id), .cycle)) }
        guard let next = tx.snapshot.parent(of: ancestor) else { break }
        ancestor = next
      }
    }
    write(.itemPlace(id), subject: .item(id), context: context, &applied)
    if let reason { applied.overrides.append(context.override(.item(id), reason)) }
    var destination = target
    if destination.container == current.container && current.index < destination.index { destination.index -= 1 }
    try tx.moveItem(id, to: destination)
  }

  @inlinable
  mutating func replaceItem(
    _ old: Item, with new: Item, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    guard tx.snapshot.contains(item: old.id) else {
      return applied.overrides.append(context.override(.item(old.id), .alreadyDeleted))
    }
    if old.id == new.id {
      write(.itemContent(new.id), subject: .item(new.id), context: context, &applied)
      return try tx.updateItem(new)
    }
    guard !tx.snapshot.contains(item: new.id) else {
      return applied.overrides.append(context.override(.item(new.id), .duplicateIdentifier))
    }
    let location = tx.snapshot.location(ofItem: old.id)!
    try tx.replaceItem(old.id, with: new)
    // What was anchored on the old item follows the new one, which took its place: after it,
    // or (for what was put under the old item) under it.
    clearTables(for: [new.id], &applied)
    setTombstone(old.id, Anchor(location.container, after: new.id), &applied)
    setReplacement(old.id, new.id, &applied)
  }

  /// Where an anchor puts an item now, and the rule that moved it if the anchor or the
  /// container is gone; nil when there is no place at all (no section left).
  ///
  /// An existing anchor item is followed wherever it is; a deleted one is replaced by the
  /// sibling it followed (repeatedly); a replaced parent or section by the one that replaced
  /// it; a deleted parent by the parent's own place; a deleted section by the end of the
  /// nearest surviving section before it.
  @inlinable
  func place(_ anchor: Anchor, moving: Item.ID?, in snapshot: ListSnapshot<Section, Item>)
    -> (Location, ReplicaOverride<Section, Item>.Reason?)?
  {
    var container = anchor.container
    var after = anchor.after
    var reason: ReplicaOverride<Section, Item>.Reason? = nil
    for _ in 0..<Self.maximumTombstoneSteps {
      if let sibling = after {
        if let location = snapshot.location(ofItem: sibling) {
          return (Location(location.container, index: location.index + 1), reason)
        }
        if reason == nil { reason = .anchorDeleted }
        if let tombstone = itemTombstones[sibling], tombstone.after != sibling {
          container = tombstone.container
          after = tombstone.after
          continue
        }
        after = nil
      }
      switch container {
      case .section(let section):
        if snapshot.contains(section: section) { return (Location(.section(section), index: 0), reason) }
        if let heir = replacedSections[section] {
          container = .section(heir)
          continue
        }
        guard let target = survivingSection(before: section, in: snapshot) else { return nil }
        return (Location(.section(target), index: snapshot._rootItemCount(inSection: target) ?? 0), .containerDeleted)
      case .parent(let parent):
        if snapshot.contains(item: parent) { return (Location(.parent(parent), index: 0), reason) }
        if let heir = replacedItems[parent] {
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

  /// The nearest surviving section before a deleted one (by the sections each deleted one
  /// followed); the first section when none precedes it; nil when the list has none.
  @inlinable
  func survivingSection(before deleted: Section.ID, in snapshot: ListSnapshot<Section, Item>) -> Section.ID? {
    var current = deleted
    for _ in 0..<Self.maximumTombstoneSteps {
      guard let entry = sectionTombstones[current], let previous = entry else { break }
      if snapshot.contains(section: previous) { return previous }
      current = previous
    }
    return snapshot.sectionIdentifier(for: 0)
  }

  // MARK: Sections

  /// The index a section inserted after `after` takes, and whether `after` was gone.
  @inlinable
  func sectionIndex(after: Section.ID?, in snapshot: ListSnapshot<Section, Item>) -> (Int, Bool) {
    var current = after
    var moved = false
    for _ in 0..<Self.maximumTombstoneSteps {
      guard let section = current else { return (0, moved) }
      if let index = snapshot.index(ofSection: section) { return (index + 1, moved) }
      moved = true
      guard let entry = sectionTombstones[section] else { return (0, moved) }
      current = entry
    }
    return (0, moved)
  }

  @inlinable
  mutating func insertSection(
    _ section: Section, items: Outline, after: Section.ID?, context: _RuleContext<Section, Item>,
    _ tx: inout Transaction, _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    guard !tx.snapshot.contains(section: section.id) else {
      return applied.overrides.append(context.override(.section(section.id), .duplicateIdentifier))
    }
    let (index, moved) = sectionIndex(after: after, in: tx.snapshot)
    if moved { applied.overrides.append(context.override(.section(section.id), .anchorDeleted)) }
    try tx.insertSections([section], at: index)
    if sectionTombstones[section.id] != nil { setSectionTombstone(section.id, .none, &applied) }
    setSectionReplacement(section.id, nil, &applied)
    let fresh = withoutExisting(items, in: tx.snapshot, context: context, &applied)
    guard !fresh.roots.isEmpty else { return }
    try tx.append(fresh, toSection: section.id)
    clearTables(for: fresh.itemIdentifiers, &applied)
  }

  @inlinable
  mutating func deleteSection(
    _ id: Section.ID, recorded: Outline, context: _RuleContext<Section, Item>, _ tx: inout Transaction,
    _ applied: inout _AppliedCommit<Section, Item>
  ) throws(ListError<Section.ID, Item.ID>) {
    guard let index = tx.snapshot.index(ofSection: id) else {
      return applied.overrides.append(context.override(.section(id), .alreadyDeleted))
    }
    let previous = index > 0 ? tx.snapshot.sectionIdentifier(for: index - 1) : nil
    // Items another replica added to the section concurrently survive it: they move to the end
    // of the section before it (the first other section when it was first).
    let roots = tx.snapshot.rootItems(inSection: id)
    if !roots.isEmpty {
      let target = previous ?? tx.snapshot.sectionIdentifier(for: index + 1)
      var recordedIDs = Set<Item.ID>()
      var nodes = recorded.roots
      while let node = nodes.popLast() {
        recordedIDs.insert(node.item.id)
        nodes.append(contentsOf: node.children)
      }
      // In list order, as for an item's delete.
      var strays: [Item.ID] = []
      var stack = Array(roots.reversed())
      while let node = stack.popLast() {
        if recordedIDs.contains(node) { stack.append(contentsOf: tx.snapshot.children(of: node).reversed()) } else { strays.append(node) }
      }
      if let target {
        for stray in strays {
          let end = tx.snapshot._rootItemCount(inSection: target) ?? 0
          try tx.moveItem(stray, to: Location(.section(target), index: end))
          applied.overrides.append(context.override(.item(stray), .keptFromDeletion))
        }
      } else {
        // No other section to keep them in: they go with this one, and the override says so.
        for stray in strays { applied.overrides.append(context.override(.item(stray), .noPlace)) }
      }
      var previousRoot: Item.ID? = nil
      for root in tx.snapshot.rootItems(inSection: id) {
        setTombstone(root, Anchor(.section(id), after: previousRoot), &applied)
        deleting(root, context: context, &applied)
        recordTombstones(under: root, in: tx.snapshot, context: context, &applied)
        previousRoot = root
      }
    }
    for field in [Field.sectionContent(id), .sectionPlace(id)] { superseded(field, .section(id), context: context, &applied) }
    setSectionTombstone(id, .some(previous), &applied)
    try tx.deleteSections([id])
  }
}

extension ReplicaOperation {
  /// The item or section the operation is about (its first item, for several).
  @inlinable
  var subject: ReplicaOverride<Section, Item>.Subject {
    switch self {
    case .insertSection(let section, _, _), .deleteSection(let section, _, _): .section(section.id)
    case .moveSection(let id, _, _): .section(id)
    case .updateSection(let old, _), .replaceSection(let old, _): .section(old.id)
    case .insertItems(let outline, let anchor), .deleteItems(let outline, let anchor):
      outline.roots.first.map { .item($0.item.id) } ?? {
        switch anchor.container {
        case .section(let id): .section(id)
        case .parent(let id): .item(id)
        }
      }()
    case .moveItem(let id, _, _), .setExpanded(let id, _, _): .item(id)
    case .updateItem(let old, _), .replaceItem(let old, _): .item(old.id)
    }
  }
}
