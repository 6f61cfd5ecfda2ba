import ListHistory
import ListState

extension ListUndoBridge {
  /// Follows the store's changes in order, then rebuilds if the stacks still disagree with it.
  func applyQueuedChanges() {
    for change in mailbox.take() { follow(change) }
    if mailbox.isEmpty, !isInStepWithStore { rebuild() }
  }

  /// Moves the stacks along one change of the store.
  func follow(_ change: Change) {
    // Already there: the bridge's own undo or redo, or a change that moved nothing.
    if change.head == mirroredHead { return }
    guard change.previousHead == mirroredHead, manager.groupingLevel == 0 else { return rebuild() }
    switch change.kind {
    case .commit:
      register(change.head, undoing: false)
      redoVersions = []
      mirroredHead = change.head
    case .undo where undoVersions.last == change.previousHead && change.reverted == [change.previousHead]:
      replay { manager.undo() }
    case .redo where redoVersions.last == change.head && change.applied == [change.head]:
      replay { manager.redo() }
    default:
      rebuild()
    }
  }

  /// Runs the manager's undo or redo without touching the store (it is already there).
  func replay(_ body: () -> Void) {
    replaying = true
    body()
    replaying = false
  }

  /// Registers one group for `version`: its undo (or, while the manager undoes, its redo).
  func register(_ version: Version, undoing: Bool) {
    manager.beginUndoGrouping()
    manager.registerUndo(withTarget: self) { target in
      guard let bridge = target as? ListUndoBridge else { return }
      if undoing { bridge.redoAction(version) } else { bridge.undoAction(version) }
    }
    manager.setActionName(store.info(for: version)?.label ?? labelForUnlabelled)
    manager.endUndoGrouping()
    if undoing {
      redoVersions.append(version)
    } else {
      undoVersions.append(version)
      trimUndoStack()
    }
  }

  /// The manager undoes `version`'s group: the store undoes it, and the group's redo goes on the
  /// redo stack.
  func undoAction(_ version: Version) {
    guard undoVersions.last == version else { return scheduleRebuild() }
    undoVersions.removeLast()
    if !replaying {
      guard store.head == version else { return scheduleRebuild() }
      do {
        try store.undo()
      } catch {
        onError?(error)
        return scheduleRebuild()
      }
    }
    mirroredHead = store.info(for: version)?.parent ?? Version(0)
    register(version, undoing: true)
  }

  /// The manager redoes `version`'s group: the store redoes it, and its undo goes back on the
  /// undo stack.
  func redoAction(_ version: Version) {
    guard redoVersions.last == version else { return scheduleRebuild() }
    redoVersions.removeLast()
    if !replaying {
      guard store.redoTarget == version else { return scheduleRebuild() }
      do {
        try store.redo()
      } catch {
        onError?(error)
        return scheduleRebuild()
      }
    }
    mirroredHead = version
    register(version, undoing: false)
  }

  /// Rebuilds once the manager has finished the undo or redo that is running.
  func scheduleRebuild() {
    guard !rebuildScheduled else { return }
    rebuildScheduled = true
    Task { @MainActor [weak self] in self?.rebuild() }
  }

  /// Drops the oldest undo versions the manager dropped (beyond its `levelsOfUndo`).
  func trimUndoStack() {
    let levels = manager.levelsOfUndo
    if levels > 0, undoVersions.count > levels { undoVersions.removeFirst(undoVersions.count - levels) }
  }

  /// Refills both stacks from the store: the head's ancestors as undo groups, the redo path as
  /// redo groups (registered as undo groups, then undone without touching the store).
  func rebuild() {
    guard manager.groupingLevel == 0, !manager.isUndoing, !manager.isRedoing else { return scheduleRebuild() }
    rebuildScheduled = false
    manager.removeAllActions(withTarget: self)
    undoVersions = []
    redoVersions = []
    let head = store.head
    let levels = manager.levelsOfUndo
    let undoDepth = levels > 0 ? min(levels, maximumDepth) : maximumDepth
    var ancestors: [Version] = []
    var version = head
    while ancestors.count < undoDepth, let parent = store.info(for: version)?.parent {
      ancestors.append(version)
      version = parent
    }
    // The redo groups pass through the undo stack: no more than it keeps.
    let redo = store.redoPath(limit: levels > 0 ? min(levels, maximumDepth) : maximumDepth)
    let groupsByEvent = manager.groupsByEvent
    manager.groupsByEvent = false
    replay {
      for version in ancestors.reversed() + redo { register(version, undoing: false) }
      for _ in redo { manager.undo() }
    }
    manager.groupsByEvent = groupsByEvent
    mirroredHead = head
  }
}
