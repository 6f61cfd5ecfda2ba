import JournalFormat

/// Opens the journal behind a path as a ``JournalSession``: the one place that decides which
/// storage backs the CLI.
///
/// Read-only sessions decode any app's journal generically, through its read index when that
/// describes it (``_IndexedJournalSession``), else by replaying it (``_GenericJournalSession``);
/// writing sessions use the CLI's own element types (``_StoreJournalSession``). A replica
/// journal gets a ``_ReplicaJournalSession`` (see ``ReplicaJournals``).
///
/// ```swift
/// let session = try JournalSessions.open("todo.journal", mode: .readOnly)
/// ```
enum JournalSessions {
  /// A replica journal (its first record a replica header) gets a session of its own. Reading
  /// sessions look at the first record of the reader they open anyway, so a read through the
  /// read index costs no second pass over the file; the other modes replay the whole journal,
  /// next to which checking its first record first costs little.
  static func open(_ path: String, mode: JournalSessionMode) throws(ListLanguageError) -> any JournalSession {
    switch mode {
    case .readOnly:
      let reader: JournalReader
      do {
        reader = try JournalReader.open(at: path)
      } catch {
        throw ListLanguageError(message: _GenericJournalSession.describe(.journal(error), path: path))
      }
      if ReplicaJournals.isReplica(reader) { return try openReplica(path, mode: mode) }
      return try _IndexedJournalSession.open(reader)
    case .readWrite(let durability, let createIfMissing):
      if ReplicaJournals.isReplica(path) { return try openReplica(path, mode: mode) }
      return try _StoreJournalSession(path: path, durability: durability, createIfMissing: createIfMissing)
    case .inMemory:
      if ReplicaJournals.isReplica(path) { return try openReplica(path, mode: mode) }
      return try _StoreJournalSession(inMemoryFrom: path)
    case .salvage:
      if ReplicaJournals.isReplica(path) { return try openReplica(path, mode: mode) }
      let session = try _SalvagedJournalSession(path: path)
      if let report = session.damageReport { printWarning(report) }
      return session
    }
  }

  /// The session of a replica journal: generic for reading, the CLI's text elements for editing.
  static func openReplica(_ path: String, mode: JournalSessionMode) throws(ListLanguageError) -> any JournalSession {
    switch mode {
    case .readOnly: try ReplicaJournals.reading(path)
    case .readWrite(let durability, _): try ReplicaJournals.editing(path, durability: durability, inMemory: false)
    case .inMemory: try ReplicaJournals.editing(path, durability: .relaxed, inMemory: true)
    case .salvage:
      throw ListLanguageError(
        message: "--salvage reads single-writer journals; '\(path)' is a replica journal "
          + "(`listjournal verify` checks its container)")
    }
  }
}
