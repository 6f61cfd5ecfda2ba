import ArgumentParser
import ListHistory
import ListJournal
import ListReplica
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal clone SOURCE NEW`: a new replica of a shared list, in a new journal.
struct CloneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "clone",
    abstract: "Make NEW a new replica (its own replica id) of SOURCE's shared list.",
    discussion: """
      When SOURCE is a replica journal, NEW joins its list: the same list id, base and commits, \
      a replica id of its own. When SOURCE is a single-writer journal, NEW becomes the first \
      replica of a new shared list whose base is SOURCE's head state; SOURCE is not changed \
      and does not take part in syncing (clone NEW to make more replicas). NEW must not exist.

      Replicas exchange commits with `listjournal sync`; exec, repl, show, log, diff and info \
      work on replica journals, `undo`/`redo` undoing this replica's own edits only.

      Example:
        listjournal clone todo.journal phone.journal
        listjournal clone phone.journal laptop.journal
      """)

  @Argument(help: "The journal to clone (a replica journal or a single-writer journal).")
  var source: String

  @Argument(help: "The replica journal to create.")
  var new: String

  @Option(name: .customLong("replica-id"), help: "The new replica's id, 1 to 16 hex digits (default: random).")
  var replicaID: String?

  @Option(name: .customLong("list-id"), help: "The new shared list's id when SOURCE is single-writer (default: random).")
  var listID: String?

  func validate() throws {
    if let replicaID, ReplicaID(replicaID) == nil {
      throw ValidationError("--replica-id '\(replicaID)' is not 1 to 16 hexadecimal digits")
    }
    if let listID, ReplicaID(listID) == nil {
      throw ValidationError("--list-id '\(listID)' is not 1 to 16 hexadecimal digits")
    }
  }

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      guard access(new, F_OK) != 0 else {
        throw ListLanguageError(message: "'\(new)' exists already: clone makes a new journal")
      }
      let id = replicaID.flatMap { ReplicaID($0) } ?? .random()
      let out = OutputStream.standardOutput
      if ReplicaJournals.isReplica(source) {
        if listID != nil {
          throw ListLanguageError(message: "--list-id names a new list; '\(source)' is a replica of list already")
        }
        let original = try ReplicaJournals.load(source)
        guard original.replicaID != id else {
          throw ListLanguageError(message: "replica id \(id) is the one of '\(source)': a clone needs an id of its own")
        }
        let clone = try create { () throws(ReplicaError) in
          try ReplicaJournals.Generic.create(
            at: new, cloning: original, codec: .generic(), replica: id, configuration: ReplicaJournals.configuration)
        }
        out.writeLine(
          "\(new): new replica \(clone.replicaID) of list \(ReplicaID(rawValue: clone.listID)), "
            + "cloned from replica \(original.replicaID) ('\(source)'), holding \(Self.commits(clone.commitCount))")
        try close(clone)
        return
      }
      let head: ListSnapshot<JournalValueElement, JournalValueElement>
      let version: Int
      do throws(JournalStoreError) {
        let store = try JournalHistory<JournalValueElement, JournalValueElement>.open(at: source, codec: .generic()).store
        head = store.snapshot
        version = store.head.rawValue
      } catch {
        throw ListLanguageError(message: _GenericJournalSession.describe(error, path: source))
      }
      let list = listID.flatMap { ReplicaID($0)?.rawValue }
      let replica = try create { () throws(ReplicaError) in
        try ReplicaJournals.Generic.create(
          at: new, codec: .generic(), replica: id, listID: list, base: head, configuration: ReplicaJournals.configuration)
      }
      out.writeLine(
        "\(new): new replica \(replica.replicaID) of a new shared list \(ReplicaID(rawValue: replica.listID)), "
          + "based on '\(source)' at version \(version) (\(Self.count(head.numberOfSections, "section")), "
          + "\(Self.count(head.numberOfItems, "item")))")
      out.writeLine(
        "'\(source)' is unchanged: it is a single-writer journal and does not sync; clone '\(new)' for more replicas")
      try close(replica)
    }
  }

  private func create(_ body: () throws(ReplicaError) -> ReplicaJournals.Generic) throws(ListLanguageError)
    -> ReplicaJournals.Generic
  {
    do { return try body() } catch { throw ListLanguageError(message: ReplicaJournals.describe(error)) }
  }

  private func close(_ replica: ReplicaJournals.Generic) throws(ListLanguageError) {
    do { try replica.close() } catch { throw ListLanguageError(message: ReplicaJournals.describe(error)) }
  }

  static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
  static func commits(_ number: Int) -> String { count(number, "commit") }
}
