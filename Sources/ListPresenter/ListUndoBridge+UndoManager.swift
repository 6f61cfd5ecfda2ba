// The bridge to Foundation's UndoManager, which exists where Objective-C does (Apple platforms);
// elsewhere this file is empty. It only forwards: every decision is in ListUndoBridge.
#if canImport(ObjectiveC)
import Foundation
import ListHistory
import ListState

extension ListUndoBridge {
  /// A bridge to an `UndoManager` — a window's or a responder's, a document's, or SwiftUI's
  /// `@Environment(\.undoManager)` — so the Edit menu, ⌘Z/⇧⌘Z and shake-to-undo undo the list.
  ///
  /// ```swift
  /// bridge = ListUndoBridge(store: journal.store, undoManager: undoManager)
  /// ```
  public convenience init(
    store: ListStore<Section, Item>, undoManager: UndoManager, maximumDepth: Int = 1_000,
    labelForUnlabelled: String = ""
  ) {
    self.init(
      store: store, manager: _SystemUndoManager(undoManager), maximumDepth: maximumDepth,
      labelForUnlabelled: labelForUnlabelled)
  }
}

@MainActor
final class _SystemUndoManager: ListUndoManaging {
  let manager: UndoManager

  init(_ manager: UndoManager) { self.manager = manager }

  var isUndoing: Bool { manager.isUndoing }
  var isRedoing: Bool { manager.isRedoing }
  var canUndo: Bool { manager.canUndo }
  var canRedo: Bool { manager.canRedo }
  var groupingLevel: Int { manager.groupingLevel }
  var groupsByEvent: Bool {
    get { manager.groupsByEvent }
    set { manager.groupsByEvent = newValue }
  }
  var levelsOfUndo: Int { manager.levelsOfUndo }
  func beginUndoGrouping() { manager.beginUndoGrouping() }
  func endUndoGrouping() { manager.endUndoGrouping() }
  func registerUndo(withTarget target: AnyObject, handler: @escaping @MainActor (AnyObject) -> Void) {
    // The system runs undo actions on the main thread (the Edit menu, key equivalents, shake).
    manager.registerUndo(withTarget: target) { target in MainActor.assumeIsolated { handler(target) } }
  }
  func setActionName(_ actionName: String) { manager.setActionName(actionName) }
  func undo() { manager.undo() }
  func redo() { manager.redo() }
  func removeAllActions(withTarget target: AnyObject) { manager.removeAllActions(withTarget: target) }
}
#endif
