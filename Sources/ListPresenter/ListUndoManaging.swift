/// What ``ListUndoBridge`` asks of an undo manager: exactly the members of Foundation's
/// `UndoManager` it uses, under the same names, so that `UndoManager` (on Apple platforms, through
/// the bridge's `init(store:undoManager:)`) and a test double alike can drive it.
///
/// The semantics are `UndoManager`'s: actions registered while undoing go to the redo stack,
/// while redoing to the undo stack, otherwise to the undo stack (clearing the redo stack);
/// `undo()`/`redo()` run the top group's actions, newest first.
///
/// ```swift
/// let bridge = ListUndoBridge(store: store, manager: myUndoManager)   // any ListUndoManaging
/// ```
@MainActor
public protocol ListUndoManaging: AnyObject {
  var isUndoing: Bool { get }
  var isRedoing: Bool { get }
  var canUndo: Bool { get }
  var canRedo: Bool { get }
  /// The depth of open groups (0: none open).
  var groupingLevel: Int { get }
  /// Whether registrations outside any group open one that lasts until the end of the run-loop
  /// event.
  var groupsByEvent: Bool { get set }
  /// The most undo groups kept (0: no limit); the oldest go first.
  var levelsOfUndo: Int { get }
  func beginUndoGrouping()
  func endUndoGrouping()
  /// Registers `handler` to run, with `target`, when the current group is undone (or redone).
  func registerUndo(withTarget target: AnyObject, handler: @escaping @MainActor (AnyObject) -> Void)
  /// Names the group being registered (the Edit menu shows "Undo <name>").
  func setActionName(_ actionName: String)
  func undo()
  func redo()
  /// Removes every action registered with `target`, from both stacks.
  func removeAllActions(withTarget target: AnyObject)
}
