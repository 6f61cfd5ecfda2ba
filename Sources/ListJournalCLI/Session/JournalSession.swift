import ListDiff

/// What the CLI needs from a journal-backed history of a ``TextSnapshot``: the only seam
/// between the list language and the storage, so the interpreter, `exec`, `repl`, `show`,
/// `log` and `diff` do not know which history engine or file format is behind it.
///
/// Changing commands run inside a transaction (`begin`, `apply`…, `commit`); a command outside
/// `begin`…`commit` is a transaction of its own. A failing `apply` leaves the transaction as it
/// was before that command.
///
/// ```swift
/// let session = try JournalSessions.open(path, mode: .readWrite(durability: .relaxed))
/// try session.begin()
/// try session.apply(.appendSections(["Fruit"]))
/// let version = try session.commit()   // 1
/// ```
protocol JournalSession: AnyObject {
  /// The version at the head (0 for a new journal).
  var headVersion: Int { get }
  /// The list at the head, with the open transaction's changes applied. Throws only where the
  /// text view is built on demand (a read-only session, whose identifiers may clash as text).
  var currentSnapshot: TextSnapshot { get throws(ListLanguageError) }
  /// True between `begin()` and `commit()`/`rollback()`.
  var isInTransaction: Bool { get }
  /// The highest version known to be durable under the durability mode.
  var durableVersion: Int { get }

  func begin() throws(ListLanguageError)
  func apply(_ command: ListCommand) throws(ListLanguageError)
  /// Commits the open transaction; returns the new version, or nil when it changed nothing.
  func commit() throws(ListLanguageError) -> Int?
  func rollback()
  /// Runs one changing command as a transaction of its own; returns the new version.
  func perform(_ command: ListCommand) throws(ListLanguageError) -> Int?

  /// Moves the head back `count` versions; returns what each step undid.
  func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep]
  /// Moves the head forward `count` times along the most recently visited children.
  func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep]
  /// Moves the head to `version`; returns the resolved number.
  func checkout(_ version: VersionReference) throws(ListLanguageError) -> Int
  /// Resolves `N`, `head`, `head~N` to a version number that exists.
  func resolve(_ version: VersionReference) throws(ListLanguageError) -> Int
  /// The list at any version, on any branch, without moving the head.
  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot
  /// ``snapshot(at:)`` as outlines, for printing: a session that has the state in that form
  /// already (a read index) spares building the snapshot.
  func outlines(at version: Int) throws(ListLanguageError) -> TextOutlines
  /// The full diff between the lists at two versions (`diff`).
  func changeset(from: Int, to: Int) throws(ListLanguageError) -> ListChangeset<String, String>
  /// One entry per version, in version order.
  func versions() -> [LogEntry]
  /// The entries of the newest `count` versions (every version when nil), in version order:
  /// what `log --limit` prints.
  func logEntries(newest count: Int?) throws(ListLanguageError) -> [LogEntry]
  /// How many versions and recorded events the history holds (what `versions()` counts,
  /// without building an entry and a summary per version).
  func historyCounts() -> (versions: Int, events: Int)
  /// The versions a repair of the journal lost (gap records), as runs; empty for most journals.
  var repairedAway: [ClosedRange<Int>] { get }
  /// Where the kept history of a trimmed journal starts (nil: it keeps every version).
  var keptHistoryStart: Int? { get }

  /// Makes every commit so far durable now (used before waiting for input in `grouped` mode).
  func synchronize() throws(ListLanguageError)
  /// Makes everything durable and releases the journal.
  func close() throws(ListLanguageError)
}

extension JournalSession {
  var repairedAway: [ClosedRange<Int>] { [] }
  var keptHistoryStart: Int? { nil }

  func outlines(at version: Int) throws(ListLanguageError) -> TextOutlines {
    TextOutlines(try snapshot(at: version))
  }

  func changeset(from: Int, to: Int) throws(ListLanguageError) -> ListChangeset<String, String> {
    ListChangeset(from: try snapshot(at: from), to: try snapshot(at: to))
  }

  func logEntries(newest count: Int?) throws(ListLanguageError) -> [LogEntry] {
    let all = versions()
    return count.map { Array(all.suffix($0)) } ?? all
  }

  func perform(_ command: ListCommand) throws(ListLanguageError) -> Int? {
    try begin()
    do throws(ListLanguageError) {
      try apply(command)
    } catch {
      rollback()
      throw error
    }
    return try commit()
  }
}
