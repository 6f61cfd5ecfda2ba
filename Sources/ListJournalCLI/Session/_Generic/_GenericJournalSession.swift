import JournalFormat
import ListHistory
import ListState

/// The read-only ``JournalSession`` of `show`, `log`, `diff`, `replay`, `info` and `verify`:
/// any app's journal, decoded without the app's types (`HistoryCodec.generic()` into a
/// `ListStore<JournalValueElement, JournalValueElement>`) and shown through the text view
/// (``TextSnapshot/init(displaying:)``). Journals written by the CLI itself read the same as
/// before: their string identifiers and contents come back as themselves.
///
/// ```swift
/// let session = try _GenericJournalSession(path: "app.journal")
/// session.currentSnapshot   // the head as text
/// ```
final class _GenericJournalSession: JournalSession {
  typealias Store = ListStore<JournalValueElement, JournalValueElement>

  let path: String
  let reader: JournalReader
  private let store: Store
  /// Text views already built, by version (diff and verify ask for some twice).
  private var views: [Int: TextSnapshot] = [:]
  let currentSnapshot: TextSnapshot

  var headVersion: Int { store.head.rawValue }
  var isInTransaction: Bool { false }
  var durableVersion: Int { store.latestVersion.rawValue }

  /// Opens and replays the journal at `path`.
  ///
  /// - Parameter progress: called with (records replayed, records in the file) as the replay
  ///   goes (for `replay`'s progress bar).
  init(path: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws(ListLanguageError) {
    self.path = path
    let records: [JournalRecord]
    do {
      reader = try JournalReader.open(at: path)
      records = try reader.readAll()
    } catch {
      throw ListLanguageError(message: _StoreJournalSession.describe(error, path: path))
    }
    let total = records.count
    let history = records.lazy.enumerated().map { index, record in
      progress?(index, total)
      return HistoryRecord(
        kind: HistoryRecord.Kind(rawValue: record.kind.rawValue) ?? .commit, sequence: record.sequence,
        version: record.version, payload: record.payload)
    }
    do {
      // Sparse checkpoints, as in writing sessions: with the library's default a million-command
      // journal pinned gigabytes of checkpointed nodes (`show` 5.8 GB), while a read-only command
      // time-travels at most twice (`diff`), each then at most one walk from the head or version 0.
      store = try Store(
        replaying: history, codec: .generic(), sink: nil, checkpointInterval: _StoreJournalSession.checkpointInterval,
        checkpointBudget: _StoreJournalSession.checkpointBudget)
    } catch {
      throw ListLanguageError(message: Self.describe(error, reader: reader, path: path))
    }
    progress?(total, total)
    currentSnapshot = try TextSnapshot(displaying: store.snapshot)
    views[store.head.rawValue] = currentSnapshot
  }

  /// A replay failure naming the record, its version and the byte offset of its frame.
  static func describe(_ error: HistoryError, reader: JournalReader, path: String) -> String {
    guard case .invalidRecord(let sequence, let reason) = error else { return "bad journal '\(path)': \(error)" }
    let frame = reader.frames.last { $0.firstSequence <= sequence }
    let offset = frame.map { " in the frame at byte offset \($0.offset)" } ?? ""
    return "bad journal '\(path)': record #\(sequence)\(offset) does not replay: \(reason)"
  }

  private func readOnly() -> ListLanguageError {
    ListLanguageError(message: "'\(path)' is open read-only")
  }

  // MARK: Changes (refused: read-only)

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

  // MARK: Reading

  /// An identifier in `log` summaries: its display text, quoted as the list language writes it.
  private static func text(_ id: JournalValue) -> String { ListTokenizer.quoted(id.displayText) }

  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int { try store.resolve(reference) }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    if let view = views[version] { return view }
    let state: ListSnapshot<JournalValueElement, JournalValueElement>
    do {
      state = try store.state(at: Version(version))
    } catch {
      throw ListLanguageError(message: _StoreJournalSession.describe(error))
    }
    let view = try TextSnapshot(displaying: state)
    views[version] = view
    return view
  }

  /// The state at `version` as the generic model (for invariant checks).
  func state(at version: Int) throws(ListLanguageError) -> ListSnapshot<JournalValueElement, JournalValueElement> {
    try store.state(atNumber: version)
  }

  func historyCounts() -> (versions: Int, events: Int) { store.historyCounts() }

  func versions() -> [LogEntry] {
    store.logEntries { events in ListEvent.summaries(events, sectionText: Self.text, itemText: Self.text) }
  }
}
