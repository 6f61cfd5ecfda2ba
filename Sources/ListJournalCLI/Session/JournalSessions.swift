/// Opens the journal behind a path as a ``JournalSession``: the one place that decides which
/// storage backs the CLI.
///
/// Read-only sessions decode any app's journal generically, through its read index when that
/// describes it (``_IndexedJournalSession``), else by replaying it (``_GenericJournalSession``);
/// writing sessions use the CLI's own element types (``_StoreJournalSession``).
///
/// ```swift
/// let session = try JournalSessions.open("todo.journal", mode: .readOnly)
/// ```
enum JournalSessions {
  static func open(_ path: String, mode: JournalSessionMode) throws(ListLanguageError) -> any JournalSession {
    switch mode {
    case .readOnly: try _IndexedJournalSession.open(path)
    case .readWrite(let durability, let createIfMissing):
      try _StoreJournalSession(path: path, durability: durability, createIfMissing: createIfMissing)
    case .inMemory: try _StoreJournalSession(inMemoryFrom: path)
    case .salvage:
      try { () throws(ListLanguageError) in
        let session = try _SalvagedJournalSession(path: path)
        if let report = session.damageReport { printWarning(report) }
        return session
      }()
    }
  }
}
