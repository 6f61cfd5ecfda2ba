/// Opens the journal behind a path as a ``JournalSession``: the one place that decides which
/// storage backs the CLI.
///
/// ```swift
/// let session = try JournalSessions.open("todo.journal", mode: .readOnly)
/// ```
enum JournalSessions {
  static func open(_ path: String, mode: JournalSessionMode) throws(ListLanguageError) -> any JournalSession {
    try _StoreJournalSession(path: path, mode: mode)
  }
}
