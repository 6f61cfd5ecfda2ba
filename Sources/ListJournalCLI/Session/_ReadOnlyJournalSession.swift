/// A session that only reads (any app's journal, through the read index, or salvaged past
/// damage): every changing command is refused with the same message, naming the journal.
protocol _ReadOnlyJournalSession: JournalSession {
  var path: String { get }
}

extension _ReadOnlyJournalSession {
  private func readOnly() -> ListLanguageError { ListLanguageError(message: "'\(path)' is open read-only") }

  var isInTransaction: Bool { false }
  func begin() throws(ListLanguageError) { throw readOnly() }
  func apply(_ command: ListCommand) throws(ListLanguageError) { throw readOnly() }
  func commit() throws(ListLanguageError) -> Int? { throw readOnly() }
  func rollback() {}
  func perform(_ command: ListCommand) throws(ListLanguageError) -> Int? { throw readOnly() }
  func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] { throw readOnly() }
  func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] { throw readOnly() }
  func checkout(_ version: VersionReference) throws(ListLanguageError) -> Int { throw readOnly() }
  func synchronize() throws(ListLanguageError) {}
  func close() throws(ListLanguageError) {}
}
