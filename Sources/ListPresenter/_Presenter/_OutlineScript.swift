import ListHistory
import ListState

/// The calls that bring an outline view from one list to another (``ListOutlineUpdate``).
///
/// Only parents the view has loaded — the root, sections, and items shown expanded — whose
/// children changed get removes, inserts and moves: first every parent's removes, then each
/// parent's moves and inserts, lowest position first (``_SequentialScript``), so no item is ever
/// in two places. An item that changes parent is removed and inserted; the view reads the new
/// one, with its subtree, from the data source. After the group: reloads (content changes and
/// items that gain their first child or lose their last, so the view asks again whether they
/// expand), collapses (deepest first), then expansions parents first, each followed by the
/// expansion state of everything it shows — the view may remember a stale one.
///
/// With events, only the parents and items they name are looked at; without (a long checkout),
/// every one is.
struct _OutlineScript<Section: ListElement, Item: ListElement> {
  typealias Snapshot = ListSnapshot<Section, Item>
  typealias Node = ListOutlineNode<Section.ID, Item.ID>
  typealias Update = ListOutlineUpdate<Section.ID, Item.ID>

  let old: Snapshot
  let new: Snapshot
  let showsSections: Bool
  /// The calls between `beginUpdates()` and `endUpdates()`.
  private(set) var group: [Update] = []
  /// The calls after `endUpdates()`.
  private(set) var after: [Update] = []

  /// The script from `old` to `new`; `events` lead from one to the other, or nil.
  ///
  /// - Complexity: O(c + k log k) for the c children of the changed parents and k operations,
  ///   plus the rows that appear under expanded items; O(n) without events.
  init(from old: Snapshot, to new: Snapshot, events: [ListEvent<Section, Item>]?, showsSections: Bool) {
    self.old = old
    self.new = new
    self.showsSections = showsSections
    var parents: [Node?] = []
    var changed: [Node] = []  // nodes whose content may have changed
    var toggled: [Item.ID] = []
    var marked = Set<Node>()  // updated or marked reloaded or reconfigured: reloaded even if equal
    if let events {
      for event in events {
        collect(event, parents: &parents, changed: &changed, toggled: &toggled, marked: &marked)
      }
    } else {
      parents = [nil] + (old.sectionIdentifiers + new.sectionIdentifiers).map { Node.section($0) }
        + (old.itemIdentifiers + new.itemIdentifiers).map { Node.item($0) }
      changed = new.sectionIdentifiers.map(Node.section) + new.visibleItems.map(Node.item)
      toggled = old.visibleItems
    }
    // A parent that gains its first child or loses its last: the view asks again whether it expands.
    for case .item(let id)? in parents { toggled.append(id) }
    var seenParents = Set<Node?>()
    var removes: [Update] = []
    var rest: [Update] = []
    var inserted: [Node] = []
    for parent in parents where seenParents.insert(parent).inserted {
      guard isLoadedBefore(parent), survives(parent) else { continue }
      let before = children(of: parent, in: old)
      let after = children(of: parent, in: new)
      guard before != after else { continue }
      var afterIndex: [Node: Int] = [:]
      for (index, node) in after.enumerated() { afterIndex[node] = index }
      let beforeSet = Set(before)
      var deletes: [Int] = []
      var keptFrom: [Int] = []
      var keptTo: [Int] = []
      for (index, node) in before.enumerated() {
        if let to = afterIndex[node] {
          keptFrom.append(index)
          keptTo.append(to)
        } else {
          deletes.append(index)
        }
      }
      let inserts = after.indices.filter { !beforeSet.contains(after[$0]) }
      let staying = _longestIncreasingRun(keptTo)
      let moves = keptFrom.indices.filter { !staying.contains($0) }.map { (from: keptFrom[$0], to: keptTo[$0]) }
      guard
        let script = _SequentialScript(
          beforeCount: before.count, afterCount: after.count, deletes: deletes, inserts: inserts, moves: moves)
      else { continue }
      for step in script.steps {
        switch step {
        case .remove(let indexes): removes.append(.remove(indexes, parent: parent))
        case .insert(let indexes): rest.append(.insert(indexes, parent: parent))
        case .move(let from, let to): rest.append(.move(from, parent: parent, to: to))
        }
      }
      inserted += inserts.map { after[$0] }
    }
    group = removes + rest

    // Reloads: items the view keeps whose content changed or that gained or lost children.
    var reloaded = Set<Node>()
    for node in changed + toggled.map(Node.item) where !reloaded.contains(node) && isShownThroughout(node) {
      let needsReload: Bool
      switch node {
      case .section(let id):
        needsReload = old.section(id) != new.section(id) || new.reloadedSectionIdentifiers.contains(id)
          || marked.contains(node)
      case .item(let id):
        needsReload = old.item(id) != new.item(id) || hasChildren(id, in: old) != hasChildren(id, in: new)
          || new.reloadedItemIdentifiers.contains(id) || new.reconfiguredItemIdentifiers.contains(id)
          || marked.contains(node)
      }
      if needsReload {
        reloaded.insert(node)
        after.append(.reload(node))
      }
    }
    // Collapses, bottom up (descendants before their ancestors).
    var collapsed: [(ListIndexPath, Item.ID)] = []
    var seenCollapsed = Set<Item.ID>()
    for id in toggled where seenCollapsed.insert(id).inserted {
      guard isShownThroughout(.item(id)), isLoadedBefore(.item(id)), !expands(id, in: new),
        let path = old.visibleIndexPath(ofItem: id)
      else { continue }
      collapsed.append((path, id))
    }
    after += collapsed.sorted { $0.0 > $1.0 }.map { .collapse(.item($0.1)) }
    // Expansions, parents first, each with the state of what it shows.
    var roots: [(ListIndexPath, Node)] = []
    let insertedSet = Set(inserted)
    for node in inserted + toggled.map(Node.item) {
      switch node {
      case .section(let id):
        if let index = new.index(ofSection: id) { roots.append((ListIndexPath(section: index, row: -1), node)) }
      case .item(let id):
        guard let path = new.visibleIndexPath(ofItem: id), expands(id, in: new) || insertedSet.contains(node),
          !(survives(node) && isLoadedBefore(node))
        else { continue }
        roots.append((path, node))
      }
    }
    var done = Set<Node>()
    for (_, node) in roots.sorted(by: { $0.0 < $1.0 }) where !done.contains(node) {
      settle(node, done: &done)
    }
  }

  /// Expands `node` with everything it shows expanded, or collapses it, as `new` has them.
  private mutating func settle(_ node: Node, done: inout Set<Node>) {
    Self.settle(node, in: new, showsSections: showsSections, into: &after, done: &done)
  }

  /// The calls that expand `node` (a section, or an item with children that is expanded in
  /// `snapshot`) and, below it, every item as `snapshot` has it; or collapse it. Nodes visited
  /// go into `done`.
  ///
  /// - Complexity: O(rows shown under the node).
  static func settle(
    _ node: Node, in snapshot: Snapshot, showsSections: Bool, into updates: inout [Update], done: inout Set<Node>
  ) {
    done.insert(node)
    switch node {
    case .section:
      guard showsSections else { return }
    case .item(let id):
      guard hasChildren(id, in: snapshot) else { return }
      guard expands(id, in: snapshot) else { return updates.append(.collapse(node)) }
    }
    updates.append(.expand(node))
    for child in children(of: node, in: snapshot, showsSections: showsSections) {
      settle(child, in: snapshot, showsSections: showsSections, into: &updates, done: &done)
    }
  }

  private func collect(
    _ event: ListEvent<Section, Item>, parents: inout [Node?], changed: inout [Node], toggled: inout [Item.ID],
    marked: inout Set<Node>
  ) {
    func container(_ location: ListItemLocation<Section.ID, Item.ID>) -> Node? {
      switch location.container {
      case .section(let id): showsSections ? .section(id) : nil
      case .parent(let id): .item(id)
      }
    }
    func mark(_ node: Node) {
      if marked.insert(node).inserted { changed.append(node) }
    }
    // Items deleted and inserted again within the update keep their parent's children equal:
    // each is looked at on its own (content, expansion, children).
    func carried(_ outline: ListOutline<Item>) {
      let ids = outline.itemIdentifiers
      parents += ids.map { Node.item($0) }
      changed += ids.map(Node.item)
      toggled += ids
    }
    switch event {
    case .insertSection(let section, let outline, _), .deleteSection(let section, let outline, _):
      parents += [nil, .section(section.id)]
      changed.append(.section(section.id))
      carried(outline)
    case .moveSection: parents.append(nil)
    case .replaceSection(let before, let after):
      if before.id != after.id { parents.append(nil) } else { mark(.section(after.id)) }
    case .updateSection(_, let section): mark(.section(section.id))
    case .reloadSections(let ids): ids.forEach { mark(.section($0)) }
    case .insertItems(let outline, let location), .deleteItems(let outline, let location):
      parents.append(container(location))
      carried(outline)
    case .moveItem(_, let from, let to): parents += [container(from), container(to)]
    case .updateItem(_, let item): mark(.item(item.id))
    case .replaceItem(let before, let after):
      if before.id == after.id {
        mark(.item(after.id))
      } else {
        // A new identifier is another node: its parent's children change.
        for (snapshot, id) in [(old, before.id), (new, after.id)] where snapshot.contains(item: id) {
          parents.append(parentNode(of: id, in: snapshot))
        }
      }
    case .reloadItems(let ids), .reconfigureItems(let ids): ids.forEach { mark(.item($0)) }
    case .expand(let id, _), .collapse(let id, _): toggled.append(id)
    }
  }

  func children(of node: Node?, in snapshot: Snapshot) -> [Node] {
    Self.children(of: node, in: snapshot, showsSections: showsSections)
  }

  func parentNode(of id: Item.ID, in snapshot: Snapshot) -> Node? {
    Self.parentNode(of: id, in: snapshot, showsSections: showsSections)
  }

  func hasChildren(_ id: Item.ID, in snapshot: Snapshot) -> Bool { Self.hasChildren(id, in: snapshot) }

  func expands(_ id: Item.ID, in snapshot: Snapshot) -> Bool { Self.expands(id, in: snapshot) }

  /// The children the view shows under `node` (nil: the root) when it is expanded.
  ///
  /// - Complexity: O(children); O(sections + roots) for the root without sections.
  static func children(of node: Node?, in snapshot: Snapshot, showsSections: Bool) -> [Node] {
    switch node {
    case nil:
      if showsSections { return snapshot.sectionIdentifiers.map(Node.section) }
      return snapshot.sectionIdentifiers.flatMap { snapshot.rootItems(inSection: $0) }.map(Node.item)
    case .section(let id): return snapshot.rootItems(inSection: id).map(Node.item)
    case .item(let id): return snapshot.children(of: id).map(Node.item)
    }
  }

  /// The node an item hangs under in the view (nil: the root).
  ///
  /// - Complexity: O(log n).
  static func parentNode(of id: Item.ID, in snapshot: Snapshot, showsSections: Bool) -> Node? {
    if let parent = snapshot.parent(of: id) { return .item(parent) }
    guard showsSections, let section = snapshot.sectionIdentifier(containingItem: id) else { return nil }
    return .section(section)
  }

  static func hasChildren(_ id: Item.ID, in snapshot: Snapshot) -> Bool { !snapshot.children(of: id).isEmpty }

  /// Whether the view shows the item expanded: it is, and has children to show.
  static func expands(_ id: Item.ID, in snapshot: Snapshot) -> Bool {
    snapshot.isExpanded(id) && hasChildren(id, in: snapshot)
  }

  /// Whether the view had the node's children loaded before the update.
  func isLoadedBefore(_ node: Node?) -> Bool {
    switch node {
    case nil: true
    case .section(let id): showsSections && old.contains(section: id)
    case .item(let id): old.isVisible(id) && expands(id, in: old)
    }
  }

  /// Whether the node stays the same node of the view: it is in both lists under the same
  /// parent, which survives too (a node that changes parent is removed and inserted).
  func survives(_ node: Node?) -> Bool {
    switch node {
    case nil: return true
    case .section(let id): return showsSections && old.contains(section: id) && new.contains(section: id)
    case .item(let id):
      guard old.contains(item: id), new.contains(item: id) else { return false }
      let parent = parentNode(of: id, in: old)
      return parent == parentNode(of: id, in: new) && survives(parent)
    }
  }

  /// Whether the view shows the node before the update and still after its group.
  func isShownThroughout(_ node: Node) -> Bool {
    switch node {
    case .section: survives(node)
    case .item(let id): old.isVisible(id) && survives(node)
    }
  }
}
