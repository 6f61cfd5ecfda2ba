import JournalFormat
import ListHistory
import ListJournal
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ``JournalSession`` on the real engine: the library's `JournalStore` of
/// `ListStore<TextSection, TextItem>`, which replays the journal on open and appends every
/// change to it.
///
/// A command outside `begin`…`commit` is one `store.transaction`. Inside `begin`…`commit` each
/// command is checked at once against a scratch copy (so errors name their line), and `commit`
/// replays them in one store transaction.
///
/// With `relaxed` durability the journal defers writes: records are held in memory and written
/// together (one chunk, one `pwrite`) when ``synchronize()`` runs — `exec` calls it before it
/// waits for input, so a pipe still gets each commit written and acknowledged as it arrives — or
/// every 64 KiB. A version counts as durable under `relaxed` once it is written (page cache).
final class _StoreJournalSession: JournalSession {
  typealias Store = ListStore<TextSection, TextItem>

  let path: String
  /// nil for an in-memory session (`exec --dry-run`): nothing is ever written.
  private let journal: JournalStore<TextSection, TextItem>?
  private let store: Store
  private let durability: CLIDurability
  private var pending: (snapshot: TextSnapshot, commands: [ListCommand])?
  /// `relaxed`: the newest version known to be written to the file.
  private var writtenVersion: Int

  var headVersion: Int { store.head.rawValue }
  var currentSnapshot: TextSnapshot { pending?.snapshot ?? store.snapshot }
  var isInTransaction: Bool { pending != nil }
  var durableVersion: Int {
    guard let journal else { return store.latestVersion.rawValue }
    return durability == .relaxed ? writtenVersion : journal.durableVersion.rawValue
  }

  /// In-memory checkpoints along a branch, in events: sparse, because each checkpoint pins the
  /// nodes later commands copy, so dense ones make a long `exec` on a large list grow with every
  /// command. Time travel in a session (`checkout`, `diff`) walks from the head when that is
  /// shorter, so the sparse interval only slows jumps far from the head (at most a replay from
  /// version 0).
  static var checkpointInterval: Int { 1 << 20 }

  /// The checkpoints' memory bound: high enough that journals of the sizes the CLI is measured on
  /// keep every checkpoint 2^20 events apart, but bounded for longer ones, where the library
  /// thins them (see `CheckpointBudget`).
  static var checkpointBudget: CheckpointBudget { .bytes(2 << 30) }

  /// Opens (or creates) the journal for writing; read-only sessions are
  /// ``_GenericJournalSession``s, which decode any app's journal.
  init(path: String, durability: CLIDurability, createIfMissing: Bool) throws(ListLanguageError) {
    self.path = path
    self.durability = durability
    let mode: JournalDurability =
      switch durability {
      case .strict: .strict
      case .grouped: .grouped
      case .relaxed: .relaxed
      }
    // Opening replays the whole journal: seconds for a long one.
    let bar = ProgressBar.onStandardError(label: "replaying", showingAfter: 0.25)
    do throws(JournalStoreError) {
      defer { bar?.finish() }
      let configuration = JournalStoreConfiguration(
        durability: mode, createIfMissing: createIfMissing,
        store: ListStoreConfiguration(
          checkpointInterval: Self.checkpointInterval, checkpointBudget: Self.checkpointBudget, clock: Self.clock()),
        defersWrites: durability == .relaxed)
      journal = try JournalStore.open(
        at: path, codec: HistoryCodec(), configuration: configuration,
        progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } })
    } catch {
      if case .invalidRecord = error, Self.isAnotherAppsJournal(path) {
        throw ListLanguageError(message: Self.anotherAppsJournal(path))
      }
      throw ListLanguageError(message: Self.describe(error, path: path))
    }
    let recovery = journal!.recovery
    if recovery.tornTailBytes > 0 {
      printWarning(
        "'\(path)': dropped a torn tail of \(recovery.tornTailBytes) bytes at offset \(recovery.validBytes)"
          + (recovery.tornTailReason.map { " (\($0))" } ?? ""))
    }
    store = journal!.store
    writtenVersion = store.latestVersion.rawValue
  }

  /// Replays the journal (an empty history when the file is missing) into memory only, for
  /// `exec --dry-run`: commands, undo and checkout work as in a writing session, and the file
  /// is neither locked nor changed (a torn tail is ignored, not cut off).
  init(inMemoryFrom path: String) throws(ListLanguageError) {
    self.path = path
    durability = .relaxed
    journal = nil
    if access(path, F_OK) != 0, errno == ENOENT {
      store = Store(checkpointInterval: Self.checkpointInterval, checkpointBudget: Self.checkpointBudget, clock: Self.clock())
    } else {
      let bar = ProgressBar.onStandardError(label: "replaying", showingAfter: 0.25)
      defer { bar?.finish() }
      do throws(JournalStoreError) {
        store = try JournalHistory<TextSection, TextItem>.open(
          at: path, codec: HistoryCodec(), checkpointInterval: Self.checkpointInterval,
          checkpointBudget: Self.checkpointBudget,
          progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } }
        ).store
      } catch {
        if case .invalidRecord = error, Self.isAnotherAppsJournal(path) {
          throw ListLanguageError(message: Self.anotherAppsJournal(path))
        }
        throw ListLanguageError(message: Self.describe(error, path: path))
      }
    }
    writtenVersion = store.latestVersion.rawValue
  }

  /// Whether a journal the CLI's elements cannot replay decodes as some app's own elements:
  /// refused on purpose then, not damaged.
  static func isAnotherAppsJournal(_ path: String) -> Bool {
    (try? JournalHistory<JournalValueElement, JournalValueElement>.open(at: path)) != nil
  }

  static func anotherAppsJournal(_ path: String) -> String {
    "'\(path)' was written by another app, whose elements are not the CLI's text elements: "
      + "show, log, diff, export, replay, info and verify read it, but exec and repl cannot edit it"
  }

  private static func clock() -> @Sendable () -> Double {
    if let epoch = getenv("SOURCE_DATE_EPOCH"), let seconds = Double(String(cString: epoch)) {
      return { seconds }
    }
    return _systemClock
  }

  /// The journal's error as the CLI says it: the path once, quoted, then what is wrong.
  static func describe(_ error: JournalError, path: String) -> String {
    switch error {
    case .io(_, _, let code) where code == ENOENT: return "cannot open journal '\(path)': \(errorMessage(code))"
    case .io(let operation, _, let code): return "cannot \(operation) '\(path)': \(errorMessage(code))"
    case .notAJournal: return "'\(path)' is not a ListJournal journal (bad magic, or shorter than the 64-byte header)"
    case .locked: return "'\(path)' is open for writing by another process"
    case .newerFormat(let major, let minor, let supported):
      return "'\(path)' has format \(major).\(minor), newer than this listjournal reads (major \(supported)); upgrade it"
    case .corrupted(let offset, let lastGood, let reason):
      let good = lastGood.map { "version \($0)" } ?? "none"
      return "'\(path)' is damaged at byte \(offset) (last good: \(good)): \(reason); "
        + "show, log, diff and export read past the damage with --salvage, "
        + "and `listjournal verify \(path) --repair` keeps every version they read"
    default: return "journal '\(path)': \(error)"
    }
  }

  static func describe(_ error: JournalStoreError, path: String) -> String {
    switch error {
    case .journal(let error): return describe(error, path: path)
    case .replicaJournal, .retentionDropsHead: return error.description
    default: return "bad journal '\(path)': \(error)"
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
    return try run(open.commands, label: open.commands.blockLabel)
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
        // A changing command (or a begin…commit) is a version even when it changes nothing (CLI.md).
        transaction.commitsWhenUnchanged = true
        for command in commands { try transaction.apply(command) }
      }
    } catch let error as ListLanguageError {
      throw error
    } catch let error as JournalError {
      throw writeFailure(error)
    } catch {
      throw ListLanguageError(message: "\(error)")
    }
    let after = store.latestVersion
    guard after != before else { return nil }
    return after.rawValue
  }

  /// A failed journal write; with deferred writes it also names what may be lost with it.
  private func writeFailure(_ error: JournalError) -> ListLanguageError {
    var message = "cannot write journal '\(path)': \(error)"
    if durability == .relaxed, store.latestVersion.rawValue > writtenVersion {
      message += " (versions after \(writtenVersion) may not have been written)"
    }
    return ListLanguageError(message: message)
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
      return try body()
    } catch let error as HistoryError {
      throw ListLanguageError(message: Self.describe(error))
    } catch let error as JournalError {
      throw writeFailure(error)
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
        if cursor == store.keptHistoryStart {
          throw ListLanguageError(
            message: done == 0 ? "nothing to undo: the journal's history starts at version \(cursor.rawValue) (older versions were dropped)"
              : "cannot undo \(count): only \(done) version(s) before the head; older versions were dropped")
        }
        if cursor.rawValue > 0, let run = store.gapRun(around: cursor.rawValue) {
          throw ListLanguageError(
            message: "cannot undo past version \(cursor.rawValue): the history before it was lost in a repair of the journal "
              + "(\(Store.describe(run)) lost in repair)")
        }
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

  func historyCounts() -> (versions: Int, events: Int) { store.historyCounts() }

  var repairedAway: [ClosedRange<Int>] { store.repairedAway }

  var keptHistoryStart: Int? { store.keptHistoryStart?.rawValue }

  func versions() -> [LogEntry] {
    store.logEntries { events in
      ListEvent.summaries(events, sectionText: { ListTokenizer.quoted($0) }, itemText: { ListTokenizer.quoted($0) })
    }
  }

  // MARK: Durability

  func synchronize() throws(ListLanguageError) {
    let latest = store.latestVersion.rawValue
    guard let journal else { return }
    do throws(JournalStoreError) {
      switch durability {
      case .relaxed: try journal.flush()
      case .grouped, .strict: try journal.sync()
      }
    } catch .journal(let error) {
      throw writeFailure(error)
    } catch {
      throw ListLanguageError(message: "cannot sync journal '\(path)': \(error)")
    }
    writtenVersion = latest
  }

  func close() throws(ListLanguageError) {
    let latest = store.latestVersion.rawValue
    guard let journal else { return }
    do throws(JournalStoreError) {
      try journal.close()
    } catch .journal(let error) where durability == .relaxed && latest > writtenVersion {
      throw writeFailure(error)
    } catch {
      throw ListLanguageError(message: "cannot close journal '\(path)': \(error)")
    }
    writtenVersion = latest
  }
}
