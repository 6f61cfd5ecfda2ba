import ListHistory
import ListJournal
import ListState

/// The read-only ``JournalSession`` of `show`, `log`, `diff`, `replay` and `info`: any app's
/// journal, decoded without the app's types (`HistoryCodec.generic()` into a
/// `ListStore<JournalValueElement, JournalValueElement>`) and shown through the text view
/// (``TextSnapshot/init(displaying:)``). Journals written by the CLI itself read the same as
/// before: their string identifiers and contents come back as themselves.
///
/// The journal is replayed by the library's streaming replay (`JournalHistory.open`): records
/// are read one at a time into a reused buffer, decoded on this thread and folded on a second
/// one, and a record that does not replay is named with its byte offset, sequence and version.
///
/// A session serves one command, and the process ends right after it: the session is never
/// released (freeing a long history — every version's events and the list's nodes, one by one
/// — took a seventh of a million-event `replay`).
///
/// ```swift
/// let session = try _GenericJournalSession(path: "app.journal")
/// try session.snapshot(at: session.headVersion)   // the head as text
/// ```
final class _GenericJournalSession: _ReadOnlyJournalSession {
  typealias Store = ListStore<JournalValueElement, JournalValueElement>

  let path: String
  private let store: Store
  /// Text views already built, by version (diff asks for some twice). The head's is built on
  /// first use, not on open: `log` and `info` never show a state.
  private var views: [Int: TextSnapshot] = [:]

  var headVersion: Int { store.head.rawValue }
  var durableVersion: Int { store.latestVersion.rawValue }
  var currentSnapshot: TextSnapshot {
    get throws(ListLanguageError) { try snapshot(at: headVersion) }
  }

  /// Opens and replays the journal at `path`.
  ///
  /// - Parameter progress: called with (records replayed, records in the file) as the replay
  ///   goes (for `replay`'s progress bar): (0, total) first, every few dozen records, then
  ///   (total, total).
  init(path: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws(ListLanguageError) {
    self.path = path
    do {
      // Sparse checkpoints, as in writing sessions: dense ones pin the nodes of every checkpointed
      // state, while a read-only command time-travels at most twice (`diff`), each then at most
      // one walk from the head or version 0.
      store = try JournalHistory.open(
        at: path, codec: .generic(), checkpointInterval: _StoreJournalSession.checkpointInterval,
        checkpointBudget: _StoreJournalSession.checkpointBudget, progress: progress
      ).store
    } catch {
      throw ListLanguageError(message: Self.describe(error, path: path))
    }
    // Never released: see the type's documentation.
    _ = Unmanaged.passRetained(self)
  }

  /// Replays the journal `reader` opened (the prefix it saw).
  init(reader: JournalReader, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws(ListLanguageError) {
    path = reader.path
    do {
      store = try JournalHistory.open(
        reader: reader, codec: .generic(), checkpointInterval: _StoreJournalSession.checkpointInterval,
        checkpointBudget: _StoreJournalSession.checkpointBudget, progress: progress
      ).store
    } catch {
      throw ListLanguageError(message: Self.describe(error, path: reader.path))
    }
    _ = Unmanaged.passRetained(self)
  }

  /// Replays the journal `reader` opened, drawing a progress bar on a terminal meanwhile (a
  /// long journal takes seconds).
  static func replaying(_ reader: JournalReader) throws(ListLanguageError) -> _GenericJournalSession {
    let bar = ProgressBar.onStandardError(label: "replaying", showingAfter: 0.25)
    defer { bar?.finish() }
    return try _GenericJournalSession(reader: reader) { done, total in bar?.update(done: done, total: total) }
  }

  /// What the CLI prints for a journal that cannot be opened or replayed: a record that does
  /// not replay is named by its sequence, its version (0 in the rare case it could not be read
  /// again to find it) and the byte offset of its frame.
  static func describe(_ error: JournalStoreError, path: String) -> String {
    guard case .invalidRecord(let offset, let sequence, let version, let reason) = error else {
      return _StoreJournalSession.describe(error, path: path)
    }
    return "bad journal '\(path)': record #\(sequence) (version \(version)) in the frame at byte offset \(offset) does not replay: \(reason)"
  }

  // Changes are refused (`_ReadOnlyJournalSession`).

  // MARK: Reading

  /// An identifier in `log` summaries: its display text, quoted as the list language writes it.
  private static func text(_ id: JournalValue) -> String { ListTokenizer.quoted(id.displayText) }

  /// The `log` summary of a version's events.
  static func summaries(_ events: [ListEvent<JournalValueElement, JournalValueElement>]) -> [String] {
    ListEvent.summaries(events, sectionText: text, itemText: text)
  }

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

  var repairedAway: [ClosedRange<Int>] { store.repairedAway }

  var keptHistoryStart: Int? { store.keptHistoryStart?.rawValue }

  func versions() -> [LogEntry] {
    store.logEntries(summary: Self.summaries)
  }

  func logEntries(newest count: Int?) throws(ListLanguageError) -> [LogEntry] {
    store.logEntries(newest: count, summary: Self.summaries)
  }
}
