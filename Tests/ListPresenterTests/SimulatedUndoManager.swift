import ListPresenter

/// Foundation's `UndoManager` as documented, for Linux (where swift-corelibs-foundation has none):
/// groups with names, nesting, the undo and redo stacks, registration while undoing going to the
/// redo stack and while redoing to the undo stack, a registration outside both clearing the redo
/// stack, `levelsOfUndo`, grouping by event (an automatic group open until ``endEvent()``, closed
/// by `undo()`), and removal by target. Misuse is recorded in ``failures`` (UndoManager raises).
@MainActor
final class SimulatedUndoManager: ListUndoManaging {
  struct Group {
    var name = ""
    var actions: [(target: ObjectIdentifier, run: @MainActor () -> Void)] = []
  }

  private(set) var undoStack: [Group] = []
  private(set) var redoStack: [Group] = []
  private var open: [Group] = []
  private var automaticGroupOpen = false
  private(set) var isUndoing = false
  private(set) var isRedoing = false
  var groupsByEvent = true
  var levelsOfUndo = 0
  private(set) var failures: [String] = []

  var canUndo: Bool { !undoStack.isEmpty || (open.count == 1 && automaticGroupOpen && !open[0].actions.isEmpty) }
  var canRedo: Bool { !redoStack.isEmpty }
  var groupingLevel: Int { open.count }
  var undoActionName: String { undoStack.last?.name ?? "" }
  var redoActionName: String { redoStack.last?.name ?? "" }

  func beginUndoGrouping() { open.append(Group()) }

  func endUndoGrouping() {
    guard let group = open.popLast() else { return failures.append("endUndoGrouping without a group") }
    if open.isEmpty { automaticGroupOpen = false }
    if var parent = open.popLast() {
      parent.actions += group.actions
      if parent.name.isEmpty { parent.name = group.name }
      open.append(parent)
    } else if !group.actions.isEmpty {
      push(group)
    }
  }

  /// A top-level group closed: onto the redo stack while undoing, else the undo stack.
  private func push(_ group: Group) {
    if isUndoing {
      redoStack.append(group)
    } else {
      if !isRedoing { redoStack = [] }
      undoStack.append(group)
      if levelsOfUndo > 0, undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
  }

  func registerUndo(withTarget target: AnyObject, handler: @escaping @MainActor (AnyObject) -> Void) {
    if open.isEmpty {
      guard groupsByEvent else { return failures.append("registerUndo outside a group") }
      open.append(Group())
      automaticGroupOpen = true
    }
    open[open.count - 1].actions.append((ObjectIdentifier(target), { [target] in handler(target) }))
  }

  func setActionName(_ actionName: String) {
    if !open.isEmpty { open[open.count - 1].name = actionName }
  }

  /// The end of a run-loop event: the automatic group closes.
  func endEvent() {
    if automaticGroupOpen, open.count == 1 { endUndoGrouping() }
  }

  func undo() {
    if automaticGroupOpen, open.count == 1 { endUndoGrouping() }
    guard open.isEmpty else { return failures.append("undo with an open group") }
    guard let group = undoStack.popLast() else { return }
    run(group, undoing: true)
  }

  func redo() {
    guard open.isEmpty else { return failures.append("redo with an open group") }
    guard let group = redoStack.popLast() else { return }
    run(group, undoing: false)
  }

  /// Runs a group's actions newest first, inside a group that collects what they register.
  private func run(_ group: Group, undoing: Bool) {
    if undoing { isUndoing = true } else { isRedoing = true }
    open.append(Group(name: group.name))
    for action in group.actions.reversed() { action.run() }
    endUndoGrouping()
    isUndoing = false
    isRedoing = false
  }

  func removeAllActions(withTarget target: AnyObject) {
    let id = ObjectIdentifier(target)
    func strip(_ groups: [Group]) -> [Group] {
      groups.compactMap { group in
        var group = group
        group.actions.removeAll { $0.target == id }
        return group.actions.isEmpty ? nil : group
      }
    }
    undoStack = strip(undoStack)
    redoStack = strip(redoStack)
  }
}
