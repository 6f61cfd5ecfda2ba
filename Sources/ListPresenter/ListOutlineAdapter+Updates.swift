import ListHistory
import ListState

extension ListOutlineAdapter {
  /// Brings the view from the list it shows to `new`: animated when it is on screen, else a
  /// reload and the expansion of everything the store shows expanded.
  func update(from old: Snapshot, to new: Snapshot, events: [ListEvent<Section, Item>]?) {
    defer { shown = new }
    guard let target, !shown.isIdentical(to: new) else { return }
    isApplying = true
    defer { isApplying = false }
    guard target.isShowingRows else {
      target.reloadData()
      for update in expansionAfterReload() { target.apply(update) }
      return
    }
    // The events lead from the presenter's previous list; the view shows that one unless it was
    // attached in between.
    let script = _OutlineScript(
      from: shown, to: new, events: old.isIdentical(to: shown) ? events : nil, showsSections: showsSections)
    if !script.group.isEmpty {
      target.beginUpdates()
      for update in script.group { target.apply(update) }
      target.endUpdates()
    }
    for update in script.after { target.apply(update) }
  }

  /// The expansions a freshly loaded view needs to show what the store shows expanded (the view
  /// loads every item collapsed, or as it remembers it).
  ///
  /// ```swift
  /// outlineView.reloadData()
  /// for update in adapter.expansionAfterReload() { … }   // what the data source does on attach
  /// ```
  /// - Complexity: O(visible rows).
  public func expansionAfterReload() -> [Update] {
    let snapshot = presenter.snapshot
    let script = _OutlineScript<Section, Item>(from: snapshot, to: snapshot, events: [], showsSections: showsSections)
    var updates: [Update] = []
    func settle(_ node: Node) {
      switch node {
      case .section:
        guard showsSections else { return }
      case .item(let id):
        guard script.hasChildren(id, in: snapshot) else { return }
        guard script.expands(id, in: snapshot) else { return updates.append(.collapse(node)) }
      }
      updates.append(.expand(node))
      for child in children(of: node) { settle(child) }
    }
    for node in children(of: nil) { settle(node) }
    return updates
  }

  /// Loads the view: a reload, then the expansions (what to call when a view is attached).
  public func reloadView() {
    shown = presenter.snapshot
    guard let target else { return }
    isApplying = true
    defer { isApplying = false }
    target.reloadData()
    for update in expansionAfterReload() { target.apply(update) }
  }
}
