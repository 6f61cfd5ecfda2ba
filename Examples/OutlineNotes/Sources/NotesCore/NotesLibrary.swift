import Foundation
import ListJournal
import ListPresenter

/// The app's list: a journal on disk, the SwiftUI model on it, and (once a window gives one) the
/// bridge to its undo manager.
@MainActor
public final class NotesLibrary {
  public typealias Journal = JournalStore<String, Note>

  public let journal: Journal
  public let model: ListModel<String, Note>
  public private(set) var undo: ListUndoBridge<String, Note>?

  /// Opens (or creates, with a first outline) the journal at `path`.
  public init(path: String) throws {
    journal = try Journal.open(at: path, configuration: .init(durability: .grouped))
    if journal.store.snapshot.numberOfSections == 0 {
      let groceries = Note(title: "Groceries")
      try journal.store.transaction(label: "Start") { tx in
        try tx.appendSections(["Notes"])
        try tx.appendItems([groceries, Note(title: "Taxes")])
        try tx.appendItems([Note(title: "Milk"), Note(title: "Eggs")], underParent: groceries.id)
      }
    }
    model = ListModel(store: journal.store)
  }

  /// The journal in the app's support directory.
  public static var defaultPath: String {
    let directory = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("OutlineNotes.journal").path
  }

  /// Puts the list's versions on `manager` (a window's undo manager, SwiftUI's
  /// `@Environment(\.undoManager)`), once.
  public func attachUndo(_ manager: any ListUndoManaging) {
    guard undo == nil else { return }
    undo = ListUndoBridge(store: journal.store, manager: manager)
  }

  #if canImport(ObjectiveC)
  /// Puts the list's versions on a system undo manager, once.
  public func attachUndo(_ manager: UndoManager) {
    guard undo == nil else { return }
    undo = ListUndoBridge(store: journal.store, undoManager: manager)
  }
  #endif

  /// Adds a note at the end of the list, as one "New Note" version.
  public func addNote(title: String) throws {
    try journal.store.transaction(label: "New Note") { tx in try tx.appendItems([Note(title: title)]) }
    model.presenter.applyPendingUpdates()  // shown before the button's action returns
  }

  /// Writes what is pending and closes the journal (the app is quitting).
  public func close() throws {
    undo?.invalidate()
    try journal.close()
  }
}
