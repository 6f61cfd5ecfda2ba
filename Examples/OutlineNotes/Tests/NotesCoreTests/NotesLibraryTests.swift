import Foundation
import ListJournal
import ListPresenter
import NotesCore
import Testing

/// What the app does, without its views: open the journal, show the outline, expand, move,
/// delete, undo, and find it all again after a relaunch.
@Suite("The notes library")
@MainActor
struct NotesLibraryTests {
  @Test func outlineGesturesUndoAndRelaunch() async throws {
    let directory = NSTemporaryDirectory() + "outline-notes-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/notes.journal"

    var library = try NotesLibrary(path: path)
    let titles = { (library: NotesLibrary) in library.model.sections[0].rows.map(\.item.title) }
    #expect(titles(library) == ["Groceries", "Taxes"])
    let groceries = library.model.sections[0].rows[0]
    #expect(groceries.hasChildren && !groceries.isExpanded)

    library.model.setExpanded(true, forItem: groceries.id)        // the chevron
    #expect(titles(library) == ["Groceries", "Milk", "Eggs", "Taxes"])
    library.model.move(fromOffsets: [3], toOffset: 0, inSection: "Notes")   // drag Taxes up
    #expect(titles(library) == ["Taxes", "Groceries", "Milk", "Eggs"])
    library.model.delete(atOffsets: [2], inSection: "Notes")      // swipe Milk away
    try library.addNote(title: "Untitled")
    #expect(titles(library) == ["Taxes", "Groceries", "Eggs", "Untitled"])
    try library.journal.store.undo()                              // ⌘Z: the new note goes
    try library.journal.store.undo()                              // ⌘Z: Milk is back
    while library.model.presenter.hasPendingUpdates { await Task.yield() }
    #expect(titles(library) == ["Taxes", "Groceries", "Milk", "Eggs"])
    try library.close()

    library = try NotesLibrary(path: path)                         // relaunch
    #expect(titles(library) == ["Taxes", "Groceries", "Milk", "Eggs"])
    #expect(library.journal.store.redoPath().count == 2, "⇧⌘Z still redoes both")
    try library.close()
  }
}
