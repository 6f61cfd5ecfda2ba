import JournalFormat
import ListHistory
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ``JournalSession`` on the real engine: a `ListStore<TextSection, TextItem>` whose records
/// go through a `_JournalRecordSink` into the zstd journal (`JournalWriter`), reopened by
/// replaying the journal's records (`JournalReader` → `ListStore(replaying:)`).
///
/// A command outside `begin`…`commit` is one `store.transaction`. Inside `begin`…`commit` each
/// command is checked at once against a scratch copy (so errors name their line), and `commit`
/// replays them in one store transaction.
final class _StoreJournalSession: JournalSession {
  typealias Store = ListStore<TextSection, TextItem>

  let path: String
  private let store: Store
  private let sink: _JournalRecordSink
  private var pending: (snapshot: TextSnapshot, commands: [ListCommand])?
  private(set) var durableVersion = 0

  var headVersion: Int { store.head.rawValue }
  var currentSnapshot: TextSnapshot { pending?.snapshot ?? store.snapshot }
  var isInTransaction: Bool { pending != nil }

  /// Opens (or creates) the journal for writing; read-only sessions are
  /// ``_GenericJournalSession``s, which decode any app's journal.
  init(path: String, durability: CLIDurability, createIfMissing: Bool) throws(ListLanguageError) {
    self.path = path
    let clock = Self.clock()
    var options = JournalOptions()
    switch durability {
    case .strict: options.durability = .strict
    case .grouped: options.durability = .grouped
    case .relaxed: options.durability = .relaxed
    }
    let writer: JournalWriter
    do {
      writer = try JournalWriter.open(at: path, options: options, createIfMissing: createIfMissing)
    } catch {
      throw ListLanguageError(message: Self.describe(error, path: path))
    }
    if writer.recovery.tornTailBytes > 0 {
      printWarning(
        "'\(path)': dropped a torn tail of \(writer.recovery.tornTailBytes) bytes at offset \(writer.recovery.validBytes)"
          + (writer.recovery.tornTailReason.map { " (\($0))" } ?? ""))
    }
    let records = try Self.readRecords(path)
    let sink = _JournalRecordSink(writer: writer, countsWrittenAsDurable: durability == .relaxed)
    store = try Self.replay(records, path: path, sink: sink, clock: clock)
    self.sink = sink
    durableVersion = store.latestVersion.rawValue
  }

  private static func clock() -> @Sendable () -> Double {
    if let epoch = getenv("SOURCE_DATE_EPOCH"), let seconds = Double(String(cString: epoch)) {
      return { seconds }
    }
    return _systemClock
  }

  static func describe(_ error: JournalError, path: String) -> String {
    switch error {
    case .io(_, _, let code) where code == ENOENT: return "cannot open journal '\(path)': \(errorMessage(code))"
    default: return "journal '\(path)': \(error)"
    }
  }

  private static func readRecords(_ path: String) throws(ListLanguageError) -> [HistoryRecord] {
    do {
      let reader = try JournalReader.open(at: path)
      return try reader.readAll().map { record in
        HistoryRecord(
          kind: HistoryRecord.Kind(rawValue: record.kind.rawValue) ?? .commit, sequence: record.sequence,
          version: record.version, payload: record.payload)
      }
    } catch {
      throw ListLanguageError(message: describe(error, path: path))
    }
  }

  private static func replay(
    _ records: [HistoryRecord], path: String, sink: _JournalRecordSink, clock: @escaping @Sendable () -> Double
  ) throws(ListLanguageError) -> Store {
    do {
      return try Store(replaying: records, codec: HistoryCodec(), sink: sink, clock: clock)
    } catch {
      throw ListLanguageError(message: "bad journal '\(path)': \(error)")
    }
  }

  // MARK: Transactions

  func begin() throws(ListLanguageError) {
    guard pending == nil else { throw ListLanguageError(message: "a transaction is already open") }
    pending = (store.snapshot, [])
  }

  func apply(_ command: ListCommand) throws(ListLanguageError) {
    guard var open = pending else { throw ListLanguageError(message: "no open transaction") }
    pending = nil  // keep the scratch snapshot's storage uniquely referenced while mutating
    defer { pending = open }
    try open.snapshot.apply(command)
    open.commands.append(command)
  }

  func commit() throws(ListLanguageError) -> Int? {
    guard let open = pending else { throw ListLanguageError(message: "no open transaction") }
    pending = nil
    guard !open.commands.isEmpty else { return nil }
    var labels: [String] = []
    for command in open.commands where labels.last != command.label { labels.append(command.label) }
    let label = labels.count <= 3 ? labels.joined(separator: ", ") : "\(open.commands.count) Changes"
    return try run(open.commands, label: label)
  }

  func rollback() {
    pending = nil
  }

  func perform(_ command: ListCommand) throws(ListLanguageError) -> Int? {
    guard pending == nil else { throw ListLanguageError(message: "a transaction is open") }
    return try run(CollectionOfOne(command), label: command.label)
  }

  private func run(_ commands: some Collection<ListCommand>, label: String) throws(ListLanguageError) -> Int? {
    let before = store.latestVersion
    do {
      try store.transaction(label: label) { transaction in
        transaction.commitsWhenUnchanged = true  // the issue: every changing command creates a version
        for command in commands { try transaction.apply(command) }
      }
    } catch let error as ListLanguageError {
      throw error
    } catch let error as JournalError {
      throw ListLanguageError(message: "cannot write journal '\(path)': \(error)")
    } catch {
      throw ListLanguageError(message: "\(error)")
    }
    let after = store.latestVersion
    guard after != before else { return nil }
    advanceDurable()
    return after.rawValue
  }

  private func advanceDurable() {
    if let version = sink.takeDurableVersion() { durableVersion = max(durableVersion, version) }
  }

  // MARK: History

  private func steps(_ versions: [Version]) -> [HistoryStep] {
    versions.map { version in
      let info = store.info(for: version)
      let events = (try? store.events(of: version)) ?? []
      var operations = events.prefix(4).map(\.summary)
      if events.count > 4 { operations.append("… \(events.count - 4) more") }
      return HistoryStep(version: version.rawValue, label: info?.label ?? "", operations: operations)
    }
  }

  private func moveHead(_ body: () throws -> ListChange<TextSection, TextItem>) throws(ListLanguageError)
    -> ListChange<TextSection, TextItem>
  {
    guard pending == nil else { throw ListLanguageError(message: "commit or rollback the open transaction first") }
    do {
      let change = try body()
      advanceDurable()
      return change
    } catch let error as HistoryError {
      throw ListLanguageError(message: Self.describe(error))
    } catch let error as JournalError {
      throw ListLanguageError(message: "cannot write journal '\(path)': \(error)")
    } catch {
      throw ListLanguageError(message: "\(error)")
    }
  }

  static func describe(_ error: HistoryError) -> String {
    switch error {
    case .nothingToUndo(let version): return "nothing to undo: the head is version \(version.rawValue)"
    case .nothingToRedo(let version): return "nothing to redo at version \(version.rawValue)"
    case .unknownVersion(let version): return "no version \(version.rawValue)"
    default: return error.description
    }
  }

  func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    // All or nothing: check that `count` ancestors exist before moving.
    var cursor = store.head
    for done in 0..<count {
      guard let parent = store.info(for: cursor)?.parent else {
        throw ListLanguageError(
          message: done == 0 ? "nothing to undo: the head is version \(cursor.rawValue)"
            : "cannot undo \(count): only \(done) version(s) before the head")
      }
      cursor = parent
    }
    var undone: [Version] = []
    for _ in 0..<count { undone += try moveHead { try store.undo() }.reverted }
    return steps(undone)
  }

  func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    guard store.redoTarget != nil else {
      throw ListLanguageError(message: "nothing to redo at version \(store.head.rawValue)")
    }
    var redone: [Version] = []
    for done in 0..<count {
      guard store.redoTarget != nil else {
        throw ListLanguageError(message: "redid \(done) of \(count): nothing more to redo at version \(store.head.rawValue)")
      }
      redone += try moveHead { try store.redo() }.applied
    }
    return steps(redone)
  }

  func checkout(_ version: VersionReference) throws(ListLanguageError) -> Int {
    let number = try resolve(version)
    _ = try moveHead { try store.checkout(Version(number)) }
    return number
  }

  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int { try store.resolve(reference) }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    try store.state(atNumber: version)
  }

  func versions() -> [LogEntry] {
    store.logEntries { version in steps([version]).first?.operations ?? [] }
  }

  // MARK: Durability

  func synchronize() throws(ListLanguageError) {
    do {
      try sink.writer.sync()
    } catch {
      throw ListLanguageError(message: "cannot sync journal '\(path)': \(error)")
    }
    advanceDurable()
  }

  func close() throws(ListLanguageError) {
    do {
      try sink.writer.close()
    } catch {
      throw ListLanguageError(message: "cannot close journal '\(path)': \(error)")
    }
    advanceDurable()
  }
}
