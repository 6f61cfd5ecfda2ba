import ListJournal

/// A row of the app's list, declared as an app declares one: a `String` identifier apart from
/// the content, `Codable`, so the journal encodes it through the codec's general path.
struct Row: ListElement, Codable, Hashable, Sendable {
  var id: String
  var title: String
}

/// The app's journal: one section of rows.
typealias RowJournal = JournalStore<String, Row>
typealias RowStore = ListStore<String, Row>

/// The one section the app's list has.
let listSection = "Inbox"
