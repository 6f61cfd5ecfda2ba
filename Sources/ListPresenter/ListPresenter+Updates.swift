import ListDiff
import ListHistory
import ListState

extension ListPresenter {
  /// Whether the view is behind the store: changes wait, or the view still shows the layout an
  /// interactive move left.
  public var hasPendingUpdates: Bool { !mailbox.isEmpty || suspensions > 0 || stagedRows != nil }

  /// Applies every queued change now (normally that happens by itself, on the main actor); a
  /// deferred follow-up of an interactive move runs too. Does nothing while an update runs.
  ///
  /// ```swift
  /// presenter.applyPendingUpdates()   // before reading rows the store has moved past
  /// ```
  public func applyPendingUpdates() {
    suspensions = 0
    applyQueuedChanges()
  }

  /// The queue's consumer: applies what waits, unless an update is running (it will pick the
  /// changes up) or updates are suspended.
  func applyQueuedChanges() {
    guard !isUpdating, suspensions == 0 else { return }
    isUpdating = true
    defer { isUpdating = false }
    while true {
      let changes = mailbox.take()
      if let last = changes.last {
        update(with: changes, last: last)
      } else if let rows = stagedRows {
        // An interactive move the store did not record as the view shows it: bring the view back.
        render(ListChangeset(from: rows, to: Rows(snapshot)), to: snapshot, version: version)
      } else {
        return
      }
    }
  }

  /// One update for a run of consecutive changes: from the shown rows to the last change's list.
  func update(with changes: [Change], last: Change) {
    let target = last.transaction.finalSnapshot
    var changeset: Changeset
    let events = Self.events(of: changes, from: version)
    if let rows = stagedRows {
      let shown = snapshot
      changeset = ListChangeset(
        from: rows, to: Rows(target),
        sectionNeedsReload: { shown.section($0) != target.section($0) || target.reloadedSectionIdentifiers.contains($0) },
        itemNeedsReload: { shown.item($0) != target.item($0) || target.reloadedItemIdentifiers.contains($0) })
    } else if let events {
      changeset = ListChangeset(from: snapshot, to: target, events: events)
    } else {
      changeset = ListChangeset(from: snapshot, to: target)
    }
    if reconfiguresDisclosureChanges {
      // Without the events (a long checkout) any visible row may have changed: the full diff
      // already cost as much.
      let candidates = events.map(_DisclosureRefresh<Section, Item>.candidates) ?? target.visibleItems
      changeset = _DisclosureRefresh<Section, Item>.adding(to: changeset, from: snapshot, to: target, candidates: candidates)
    }
    updateEvents = events
    defer { updateEvents = nil }
    render(changeset, to: target, version: last.head)
  }

  /// The events from `version` through the changes, when they continue each other from there
  /// and all carry their events (a long checkout does not); nil otherwise.
  static func events(of changes: [Change], from version: Version) -> [ListEvent<Section, Item>]? {
    var head = version
    var events: [ListEvent<Section, Item>] = []
    for change in changes {
      guard change.previousHead == head, let own = change.events else { return nil }
      events.append(contentsOf: own)
      head = change.head
    }
    return events
  }

  /// Hands `changeset` to the renderer, setting the rows inside each batch, and ends showing
  /// `target`.
  func render(_ changeset: Changeset, to target: Snapshot, version: Version) {
    let previous = snapshot
    if let renderer {
      changeset.apply(to: renderer) { rows in show(rows, of: target, after: previous) }
    }
    show(nil, of: target, after: previous)
    self.version = version
    treeObserver?(previous, target, updateEvents)
    didUpdate?(changeset)
  }

  /// Makes the presenter answer with `rows` (an intermediate stage) or, for nil, with the visible
  /// rows of `target`.
  func show(_ rows: Rows?, of target: Snapshot, after previous: Snapshot) {
    snapshot = target
    layoutGeneration &+= 1
    stagedRows = rows
    stagedIndex = nil
    previousSnapshot = rows == nil ? nil : previous
    sectionIDs = rows?.sectionIdentifiers ?? target.sectionIdentifiers
  }
}
