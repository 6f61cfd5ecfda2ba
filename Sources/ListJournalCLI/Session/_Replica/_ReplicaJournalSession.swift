import ListDiff
import ListHistory
import ListReplica
import ListState

/// The ``JournalSession`` of a replica journal: its "versions" are positions in the agreed
/// order of the commits it holds (0 is the base, N the list after the first N commits, the
/// head all of them), so `show --at N`, `diff N M` and the REPL's `show`/`diff` read a merged
/// history as they read a single-writer one.
///
/// Editing (`exec`, `repl`) makes each command outside `begin`…`commit`, or each such block,
/// one commit of this replica (`ListReplica.transaction`); `undo` and `redo` undo and redo
/// this replica's own edits only, as new commits. A replica has no undo tree to move in:
/// `checkout` is refused.
///
/// ```swift
/// let session = try ReplicaJournals.editing("b.journal", durability: .strict, inMemory: false)
/// _ = try session.perform(.appendSections(["Fruit"]))   // position 1 (or later, after synced ones)
/// ```
final class _ReplicaJournalSession<Section: ListElement, Item: ListElement>: JournalSession, ReplicaLogging {
  typealias Replica = ListReplica<Section, Item>
  typealias Edit = (inout Replica.Transaction, [ListCommand]) throws -> Void

  let path: String
  let replica: Replica
  /// Whether commits go to the journal file (false: read-only, or `exec --dry-run`).
  let writesJournal: Bool
  private let display: (ListSnapshot<Section, Item>) throws(ListLanguageError) -> TextSnapshot
  /// An identifier as the list language writes it.
  let sectionText: (Section.ID) -> String
  let itemText: (Item.ID) -> String
  /// nil for a read-only session.
  private let edit: Edit?
  private var pending: (snapshot: TextSnapshot, commands: [ListCommand])?
  /// Text views already built, by position.
  private var views: [Int: TextSnapshot] = [:]

  private init(
    path: String, replica: Replica, writesJournal: Bool,
    display: @escaping (ListSnapshot<Section, Item>) throws(ListLanguageError) -> TextSnapshot,
    sectionText: @escaping (Section.ID) -> String, itemText: @escaping (Item.ID) -> String, edit: Edit?
  ) {
    self.path = path
    self.replica = replica
    self.writesJournal = writesJournal
    self.display = display
    self.sectionText = sectionText
    self.itemText = itemText
    self.edit = edit
  }

  var headVersion: Int { replica.commitCount }
  var currentSnapshot: TextSnapshot {
    get throws(ListLanguageError) {
      if let pending { return pending.snapshot }
      return try snapshot(at: headVersion)
    }
  }
  var isInTransaction: Bool { pending != nil }
  /// Every commit is handed to the journal as it is made (synced with `--durability strict`).
  var durableVersion: Int { replica.commitCount }

  // MARK: Transactions

  private func editing() throws(ListLanguageError) -> Edit {
    guard let edit else { throw ListLanguageError(message: "'\(path)' is open read-only") }
    return edit
  }

  func begin() throws(ListLanguageError) {
    _ = try editing()
    guard pending == nil else { throw ListLanguageError(message: "a transaction is already open") }
    pending = (try currentSnapshot, [])
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

  func rollback() { pending = nil }

  func perform(_ command: ListCommand) throws(ListLanguageError) -> Int? {
    guard pending == nil else { throw ListLanguageError(message: "a transaction is open") }
    return try run([command], label: command.label)
  }

  /// One commit of this replica; nil when the commands changed nothing a replica records
  /// (reload and reconfigure markers are not replicated).
  private func run(_ commands: [ListCommand], label: String) throws(ListLanguageError) -> Int? {
    let edit = try editing()
    let before = replica.commitCount
    do {
      try replica.transaction(label: label) { transaction in try edit(&transaction, commands) }
    } catch let error as ListLanguageError {
      throw error
    } catch let error as ReplicaError {
      throw ListLanguageError(message: ReplicaJournals.describe(error))
    } catch {
      throw ListLanguageError(message: "\(error)")
    }
    let after = replica.commitCount
    return after == before ? nil : after
  }

  // MARK: Undo of this replica's own edits

  /// How many of this replica's edits `undo` can undo and how many undos `redo` can redo, from
  /// its commits' origins (the replica keeps the same stacks).
  private func stackDepths() -> (undo: Int, redo: Int) {
    var undo: [ReplicaCommitID] = []
    var redo: [ReplicaCommitID] = []
    let own = replica.commits.filter { $0.id.replica == replica.replicaID }.sorted { $0.id.sequence < $1.id.sequence }
    for commit in own {
      switch commit.origin {
      case .edit:
        undo.append(commit.id)
        redo.removeAll()
      case .undo(let of):
        if let index = undo.lastIndex(of: of) { undo.remove(at: index) }
        redo.append(commit.id)
      case .redo(let of):
        if let index = redo.lastIndex(of: of) { redo.remove(at: index) }
        undo.append(commit.id)
      }
    }
    return (undo.count, redo.count)
  }

  func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    guard pending == nil else { throw ListLanguageError(message: "commit or rollback the open transaction first") }
    _ = try editing()
    let available = stackDepths().undo
    guard available > 0 else {
      throw ListLanguageError(
        message: "nothing to undo: replica \(replica.replicaID) has no edit of its own left to undo "
          + "(edits synced from other replicas are undone there)")
    }
    guard count <= available else {
      throw ListLanguageError(message: "cannot undo \(count): replica \(replica.replicaID) has only \(available) edit(s) of its own to undo")
    }
    return try step(count) { try replica.undo() }
  }

  func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    guard pending == nil else { throw ListLanguageError(message: "commit or rollback the open transaction first") }
    _ = try editing()
    let available = stackDepths().redo
    guard available > 0 else {
      throw ListLanguageError(message: "nothing to redo: replica \(replica.replicaID) has no undo of its own to redo")
    }
    guard count <= available else {
      throw ListLanguageError(message: "cannot redo \(count): replica \(replica.replicaID) has only \(available) undo(s) to redo")
    }
    return try step(count) { try replica.redo() }
  }

  /// Runs `body` (an undo or a redo) `count` times; each step names the commit it inverted.
  private func step(_ count: Int, _ body: () throws -> ReplicaCommitID?) throws(ListLanguageError)
    -> [HistoryStep]
  {
    var steps: [HistoryStep] = []
    for _ in 0..<count {
      let made: ReplicaCommitID?
      do { made = try body() } catch let error as ReplicaError {
        throw ListLanguageError(message: ReplicaJournals.describe(error))
      } catch {
        throw ListLanguageError(message: "\(error)")
      }
      guard let made else { break }
      let commits = replica.commits
      guard let new = commits.last(where: { $0.id == made }) else { continue }
      let target: ReplicaCommitID? =
        switch new.origin {
        case .edit: nil
        case .undo(let of), .redo(let of): of
        }
      guard let target, var position = commits.firstIndex(where: { $0.id == target }) else { continue }
      // A redo inverts an undo: name the edit it brings back, as the REPL's undo names it.
      if case .undo(let original) = commits[position].origin, let index = commits.firstIndex(where: { $0.id == original }) {
        position = index
      }
      let inverted = commits[position]
      steps.append(
        HistoryStep(
          version: position + 1, label: inverted.label ?? "", operations: summaries(of: inverted.operations)))
    }
    return steps
  }

  func checkout(_ version: VersionReference) throws(ListLanguageError) -> Int {
    throw ListLanguageError(
      message: "a replica has no undo tree to check out: its list is all the commits it holds "
        + "(`show --at N` shows the list after the first N)")
  }

  // MARK: Reading

  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    let count = replica.commitCount
    switch reference {
    case .number(let number):
      guard number <= count else {
        throw ListLanguageError(
          message: count == 0
            ? "no position \(number): the replica holds no commits yet (0 is its base)"
            : "no position \(number) (the replica holds commits 1...\(count); 0 is its base)")
      }
      return number
    case .head(let back):
      guard back <= count else {
        throw ListLanguageError(message: "no position \(reference): the replica holds \(count) commit(s)")
      }
      return count - back
    }
  }

  /// The list after the first `position` commits of the agreed order, in the replica's types.
  func state(at position: Int) throws(ListLanguageError) -> ListSnapshot<Section, Item> {
    let commits = replica.commits
    guard position < commits.count else { return replica.snapshot }
    let prefix = Replica(replica: replica.replicaID, listID: replica.listID, base: replica.base)
    do { try prefix.receive(Array(commits.prefix(position))) } catch {
      throw ListLanguageError(message: ReplicaJournals.describe(error))
    }
    return prefix.snapshot
  }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    if let view = views[version] { return view }
    let view = try display(try state(at: version))
    // `diff` asks for two; a long REPL session must not keep every view it showed.
    if views.count >= 4 { views.removeAll() }
    views[version] = view
    return view
  }

  func changeset(from: Int, to: Int) throws(ListLanguageError) -> ListChangeset<String, String> {
    ListChangeset(from: try snapshot(at: from), to: try snapshot(at: to))
  }

  /// At most four operations' summaries, then "… N more".
  func summaries(of operations: [ReplicaOperation<Section, Item>]) -> [String] {
    var lines = operations.prefix(4).map { $0.summary(sectionText: sectionText, itemText: itemText) }
    if operations.count > 4 { lines.append("… \(operations.count - 4) more") }
    return lines
  }

  func versions() -> [LogEntry] {
    let commits = replica.commits
    var entries = [LogEntry(version: 0, parent: nil, time: 0, label: "", eventCount: 0, changeCount: 0, isHead: commits.isEmpty)]
    for (index, commit) in commits.enumerated() {
      entries.append(
        LogEntry(
          version: index + 1, parent: index, time: commit.timestamp, label: commit.label ?? "",
          eventCount: commit.operations.count, changeCount: commit.operations.count, isHead: index == commits.count - 1,
          operations: summaries(of: commit.operations)))
    }
    return entries
  }

  func historyCounts() -> (versions: Int, events: Int) {
    let commits = replica.commits
    return (commits.count + 1, commits.reduce(0) { $0 + $1.operations.count })
  }

  /// One `log` line per commit of the agreed order (the newest `count` when given).
  func replicaLogEntries(newest count: Int?) -> [ReplicaLogEntry] {
    let commits = replica.commits
    let start = max(0, commits.count - (count ?? commits.count))
    return (start..<commits.count).map { index in
      let commit = commits[index]
      return ReplicaLogEntry(
        position: index + 1, commit: commit.id, lamportClock: commit.lamportClock, time: commit.timestamp,
        label: commit.label ?? "", origin: ReplicaLogEntry.Origin(commit.origin),
        operationCount: commit.operations.count, operations: summaries(of: commit.operations),
        isOwn: commit.id.replica == replica.replicaID)
    }
  }

  // MARK: Durability

  func synchronize() throws(ListLanguageError) {
    guard writesJournal else { return }
    do { try replica.sync() } catch { throw ListLanguageError(message: "cannot sync journal '\(path)': \(error)") }
  }

  func close() throws(ListLanguageError) {
    guard writesJournal else { return }
    do { try replica.close() } catch { throw ListLanguageError(message: "cannot close journal '\(path)': \(error)") }
  }
}

extension _ReplicaJournalSession where Section == TextSection, Item == TextItem {
  /// A session that edits with the CLI's text elements.
  static func editing(path: String, replica: Replica, writesJournal: Bool) -> _ReplicaJournalSession {
    _ReplicaJournalSession(
      path: path, replica: replica, writesJournal: writesJournal, display: { $0 },
      sectionText: { ListTokenizer.quoted($0) }, itemText: { ListTokenizer.quoted($0) },
      edit: { transaction, commands in for command in commands { try transaction.apply(command) } })
  }
}

extension _ReplicaJournalSession where Section == JournalValueElement, Item == JournalValueElement {
  /// A read-only session on any app's replica journal, shown as text like other journals.
  static func reading(path: String, replica: Replica) -> _ReplicaJournalSession {
    _ReplicaJournalSession(
      path: path, replica: replica, writesJournal: false, display: { state throws(ListLanguageError) in try TextSnapshot(displaying: state) },
      sectionText: { ListTokenizer.quoted($0.displayText) }, itemText: { ListTokenizer.quoted($0.displayText) },
      edit: nil)
  }
}
