import JournalFormat
import ListHistory
import ListReplica
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells replica journals (ListReplica's files: a replica header first, then commit records)
/// from single-writer ones, and opens them for the CLI: the one place that knows which codec
/// and element types each replica command uses.
///
/// Reading, `clone` and `sync` decode any app's replica journal generically
/// (`HistoryCodec.generic()`), so they never change an element's encoding; `exec` and `repl`
/// edit with the CLI's text elements, like on single-writer journals.
///
/// ```swift
/// if ReplicaJournals.isReplica("shared.journal") { … }
/// let session = try ReplicaJournals.reading("shared.journal")
/// ```
enum ReplicaJournals {
  typealias Generic = ListReplica<JournalValueElement, JournalValueElement>
  typealias Text = ListReplica<TextSection, TextItem>

  /// The kind of a replica journal's first record (`Journal/FORMAT.md` §12).
  static let headerKind = JournalRecord.Kind(rawValue: 5)

  /// Whether the file at `path` is a replica journal; false for a missing, unreadable or
  /// single-writer file (the other commands then say what is wrong with it).
  static func isReplica(_ path: String) -> Bool {
    guard access(path, F_OK) == 0, let reader = try? JournalReader.open(at: path, tolerateCorruption: true) else {
      return false
    }
    return isReplica(reader)
  }

  /// Whether the journal `reader` opened starts with a replica header.
  static func isReplica(_ reader: JournalReader) -> Bool {
    var iterator = reader.makeIterator()
    guard let first = try? iterator.next() else { return false }
    return first.kind == headerKind
  }

  /// The commit times: the system clock, or `SOURCE_DATE_EPOCH` when set (reproducible output).
  static func clock() -> @Sendable () -> Double {
    if let epoch = getenv("SOURCE_DATE_EPOCH"), let seconds = Double(String(cString: epoch)) {
      return { seconds }
    }
    return _systemClock
  }

  static var configuration: ListReplicaConfiguration { ListReplicaConfiguration(clock: clock()) }

  /// The replica held in the journal at `path`, in memory only (the file is neither locked
  /// nor changed): what the reading commands and `clone` use.
  static func load(_ path: String) throws(ListLanguageError) -> Generic {
    try load(path, codec: .generic())
  }

  static func load<Section, Item>(_ path: String, codec: HistoryCodec<Section, Item>) throws(ListLanguageError)
    -> ListReplica<Section, Item>
  {
    do {
      let contents = try ListReplica<Section, Item>.read(path: path, codec: codec)
      let replica = ListReplica<Section, Item>(
        replica: contents.replica, listID: contents.listID, base: contents.base, configuration: configuration)
      try replica.receive(contents.commits)
      return replica
    } catch {
      throw ListLanguageError(message: describe(error))
    }
  }

  /// A read-only session on the replica journal at `path`.
  static func reading(_ path: String) throws(ListLanguageError) -> _ReplicaJournalSession<JournalValueElement, JournalValueElement> {
    .reading(path: path, replica: try load(path))
  }

  /// A session that edits the replica journal at `path` (locked meanwhile); `inMemory` edits a
  /// copy and writes nothing (`exec --dry-run`).
  static func editing(_ path: String, durability: CLIDurability, inMemory: Bool) throws(ListLanguageError)
    -> _ReplicaJournalSession<TextSection, TextItem>
  {
    if inMemory {
      do {
        return .editing(path: path, replica: try load(path, codec: HistoryCodec()), writesJournal: false)
      } catch {
        throw anotherAppsReplica(path) ?? error
      }
    }
    var options = JournalOptions()
    options.durability =
      switch durability {
      case .strict: .strict
      case .grouped: .grouped
      case .relaxed: .relaxed
      }
    do {
      let replica = try Text.open(at: path, codec: HistoryCodec(), options: options, configuration: configuration)
      return .editing(path: path, replica: replica, writesJournal: true)
    } catch {
      if case .journal(_, let reason) = error, !reason.contains("advisory lock held"), let refusal = anotherAppsReplica(path) {
        throw refusal
      }
      throw ListLanguageError(message: describe(error))
    }
  }

  /// The refusal to edit a replica journal whose elements are not the CLI's text elements, when
  /// it decodes generically (so it is sound, only another app's); nil when it does not.
  static func anotherAppsReplica(_ path: String) -> ListLanguageError? {
    guard (try? Generic.read(path: path, codec: .generic())) != nil else { return nil }
    return ListLanguageError(
      message: "'\(path)' is a replica journal written by another app, whose elements are not the CLI's text "
        + "elements: info, log, show, diff, verify, clone and sync read it, but exec and repl cannot edit it")
  }

  /// Refuses a command that reads or rewrites single-writer histories only, naming why, when
  /// `path` is a replica journal.
  static func refuse(_ path: String, command: String, because reason: String) throws(ListLanguageError) {
    guard isReplica(path) else { return }
    throw ListLanguageError(message: "'\(path)' is a replica journal: \(command) \(reason)")
  }

  /// A replica error as the CLI says it.
  static func describe(_ error: ReplicaError) -> String {
    switch error {
    case .journal(let path, let reason) where reason.contains("advisory lock held"):
      return "'\(path)' is open for writing by another process"
    default:
      return error.description
    }
  }
}
