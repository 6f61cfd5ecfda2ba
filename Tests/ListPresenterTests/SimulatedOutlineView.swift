import ListPresenter
import ListState
import TestSupport

/// An outline view for tests that behaves as `NSOutlineView` documents: removes, inserts and
/// moves count each parent's children as the calls before left them and do nothing under a
/// parent that is not expanded; inserted items are read from the data source only at
/// `endUpdates()`; expanding reads an item's children, and only works on an item shown and known
/// to be expandable (as last read: a stale answer must be reloaded first). It keeps each cell as
/// it was made, so a missed reload shows, and may remember the expansion of items it no longer
/// shows (`remembersExpansion`), as `NSOutlineView` can.
@MainActor
final class SimulatedOutlineView: ListOutlineUpdateTarget {
  typealias Node = ListOutlineNode<String, String>
  typealias Adapter = ListOutlineAdapter<TestSection, TestItem>

  unowned let adapter: Adapter
  let remembersExpansion: Bool
  var isShowingRows = true
  /// The children the view holds for the root (nil) and every expanded item; nil entries are
  /// items inserted in the open group.
  private(set) var loaded: [Node?: [Node?]] = [:]
  /// The view's own expansion flags.
  private(set) var expanded: Set<Node> = []
  /// Whether each item expands, and its cell, as last read from the data source.
  private(set) var expandable: [Node: Bool] = [:]
  private(set) var cells: [Node: String] = [:]
  private(set) var failures: [String] = []
  private(set) var groups = 0
  private(set) var moves = 0
  private(set) var reloads = 0
  private var inGroup = false

  init(adapter: Adapter, remembersExpansion: Bool) {
    self.adapter = adapter
    self.remembersExpansion = remembersExpansion
    adapter.target = self
    adapter.reloadView()
  }

  /// The rows the view shows, top to bottom.
  var rows: [Node] {
    var rows: [Node] = []
    func walk(_ parent: Node?) {
      for case let child? in loaded[parent] ?? [] {
        rows.append(child)
        if loaded[child] != nil { walk(child) }
      }
    }
    walk(nil)
    return rows
  }

  func isShown(_ node: Node) -> Bool { rows.contains(node) }

  private func read(_ node: Node) {
    expandable[node] = adapter.isExpandable(node)
    cells[node] = adapter.item(node)?.content ?? adapter.section(node).map { "[\($0.content)]" } ?? "?"
  }

  private func load(_ parent: Node?) {
    let children = (0..<adapter.numberOfChildren(of: parent)).map { adapter.child($0, of: parent)! }
    loaded[parent] = children
    for child in children { settleLoaded(child) }
  }

  /// A child the view just learnt about: its cell, and its children if the view remembers it open.
  private func settleLoaded(_ node: Node) {
    read(node)
    if expanded.contains(node), expandable[node] == true { load(node) }
  }

  /// Forgets what the view held under `node` (and, without memory, that it was open).
  private func unload(_ node: Node) {
    for case let child? in loaded[node] ?? [] { unload(child) }
    loaded[node] = nil
    if !remembersExpansion { expanded.remove(node) }
  }

  func reloadData() {
    if inGroup { failures.append("reloadData inside a group") }
    reloads += 1
    loaded = [:]
    if !remembersExpansion { expanded = [] }
    load(nil)
  }

  func beginUpdates() {
    if inGroup { failures.append("beginUpdates inside a group") }
    inGroup = true
    groups += 1
  }

  func endUpdates() {
    guard inGroup else { return failures.append("endUpdates without beginUpdates") }
    inGroup = false
    // Inserted items are read now, then every list the view holds must be the data source's.
    for (parent, children) in loaded {
      for (index, child) in children.enumerated() where child == nil {
        let node = adapter.child(index, of: parent)
        loaded[parent]![index] = node
        if let node { settleLoaded(node) } else { failures.append("group \(groups): no child \(index) of \(String(describing: parent))") }
      }
    }
    for (parent, children) in loaded {
      let source = (0..<adapter.numberOfChildren(of: parent)).map { adapter.child($0, of: parent) }
      if children != source {
        failures.append("group \(groups): children of \(String(describing: parent)): view \(children), data source \(source)")
      }
    }
  }

  func apply(_ update: ListOutlineUpdate<String, String>) {
    switch update {
    case .remove(let indexes, let parent):
      guard inGroup else { return failures.append("\(update) outside a group") }
      guard let children = loaded[parent] else { return }  // "does nothing if parent is not expanded"
      guard indexes == indexes.sorted(), Set(indexes).count == indexes.count, indexes.allSatisfy(children.indices.contains)
      else { return failures.append("group \(groups): \(update) of \(children.count)") }
      for index in indexes.reversed() {
        if let child = loaded[parent]!.remove(at: index) { unload(child) }
      }
    case .insert(let indexes, let parent):
      guard inGroup else { return failures.append("\(update) outside a group") }
      guard loaded[parent] != nil else { return }
      guard indexes == indexes.sorted(), Set(indexes).count == indexes.count else {
        return failures.append("group \(groups): \(update) not ascending")
      }
      for index in indexes {
        guard index >= 0, index <= loaded[parent]!.count else {
          return failures.append("group \(groups): \(update) past \(loaded[parent]!.count)")
        }
        loaded[parent]!.insert(nil, at: index)
      }
    case .move(let from, let parent, let to):
      guard inGroup else { return failures.append("\(update) outside a group") }
      guard let children = loaded[parent], children.indices.contains(from), to >= 0, to < children.count else {
        return failures.append("group \(groups): \(update) in \(loaded[parent].map { "\($0)" } ?? "a parent not shown")")
      }
      moves += 1
      loaded[parent]!.insert(loaded[parent]!.remove(at: from), at: to)
    case .expand(let node):
      guard !inGroup else { return failures.append("\(update) inside a group") }
      guard isShown(node) else { return failures.append("expand of \(node), which the view does not show") }
      guard expandable[node] == true else { return failures.append("expand of \(node), which the view last read as not expandable") }
      expanded.insert(node)
      if loaded[node] == nil { load(node) }
    case .collapse(let node):
      guard !inGroup else { return failures.append("\(update) inside a group") }
      guard isShown(node) else { return failures.append("collapse of \(node), which the view does not show") }
      expanded.remove(node)
      for case let child? in loaded[node] ?? [] { unload(child) }
      loaded[node] = nil
    case .reload(let node):
      guard !inGroup else { return failures.append("\(update) inside a group") }
      guard isShown(node) else { return failures.append("reload of \(node), which the view does not show") }
      read(node)
    }
  }

  /// A click on a disclosure triangle: the view opens or closes the item itself, then tells the
  /// adapter, as `NSOutlineView`'s notifications do.
  func userToggle(_ node: Node) {
    guard isShown(node), expandable[node] == true else { return }
    if loaded[node] != nil {
      expanded.remove(node)
      for case let child? in loaded[node] ?? [] { unload(child) }
      loaded[node] = nil
      adapter.viewDidCollapse(node)
    } else {
      expanded.insert(node)
      load(node)
      adapter.viewDidExpand(node)
    }
  }
}
