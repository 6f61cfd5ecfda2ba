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
    var updates: [Update] = []
    var done = Set<Node>()
    for node in children(of: nil) {
      _OutlineScript.settle(node, in: snapshot, showsSections: showsSections, into: &updates, done: &done)
    }
    return updates
  }

  /// Loads the view: a reload, then the expansions — what to call once a view is attached.
  ///
  /// ```swift
  /// adapter.target = outlineCalls
  /// adapter.reloadView()   // the view shows what the store shows, open where it is open
  /// ```
  /// - Complexity: O(visible rows) plus the view's own work.
  public func reloadView() {
    shown = presenter.snapshot
    guard let target else { return }
    isApplying = true
    defer { isApplying = false }
    target.reloadData()
    for update in expansionAfterReload() { target.apply(update) }
  }
}
