// The SwiftUI app; elsewhere (Linux) the executable only says so. Everything it does goes
// through NotesCore and ListPresenter, whose tests run on every platform.
#if canImport(SwiftUI)
import ListPresenter
import NotesCore
import SwiftUI

@main
struct OutlineNotesApp: App {
  @State private var library = try! NotesLibrary(path: NotesLibrary.defaultPath)

  var body: some Scene {
    WindowGroup { NotesView(library: library) }
  }
}

struct NotesView: View {
  let library: NotesLibrary
  @Environment(\.undoManager) private var undoManager

  var body: some View {
    NavigationStack {
      List {
        ForEach(library.model.sections) { section in
          Section(section.id) {
            ForEach(section.rows) { row in
              NoteRow(row: row, isExpanded: library.model.isExpandedBinding(for: row.id))
            }
            .onMove { library.model.move(fromOffsets: $0, toOffset: $1, inSection: section.id) }
            .onDelete { library.model.delete(atOffsets: $0, inSection: section.id) }
          }
        }
      }
      .navigationTitle("Notes")
      .toolbar {
        #if os(iOS)
        EditButton()
        #endif
        Button("New Note") { try? library.addNote(title: "Untitled") }
      }
    }
    .onAppear { if let undoManager { library.attachUndo(undoManager) } }
  }
}

struct NoteRow: View {
  let row: ListRow<Note>
  @Binding var isExpanded: Bool

  var body: some View {
    HStack {
      if row.hasChildren {
        Button { isExpanded.toggle() } label: { Image(systemName: isExpanded ? "chevron.down" : "chevron.right") }
          .buttonStyle(.plain)
      }
      Text(row.item.title)
    }
    .padding(.leading, CGFloat(row.level) * 16)
  }
}
#else
@main
enum OutlineNotesMain {
  static func main() { print("OutlineNotes is a SwiftUI app: run it on macOS or iOS; `swift test` checks its core here.") }
}
#endif
